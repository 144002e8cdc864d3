#include "index/bitmap/bitmap_key.h"

#include <cmath>
#include <limits>
#include <string>

#include "index/keys/literal_position.h"
#include "java/float_bits.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::bitmap {

namespace {

Status Unsupported(const DataType& type, const char* java_reason) {
  return Status::InvalidArgument("bitmap index does not support type ", type.ToString(),
                                 " (", java_reason, ")");
}

float FloatOf(uint64_t bits) { return java::IntBitsToFloat(static_cast<int32_t>(bits)); }
double DoubleOf(uint64_t bits) { return java::LongBitsToDouble(static_cast<int64_t>(bits)); }

}  // namespace

Result<keys::PhysicalKey> BitmapKeyFor(const DataType& type) {
  // The texts in parentheses are Java's UnsupportedOperationException messages.
  switch (type.root) {
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: return Unsupported(type, "Does not support type binary");
    case TypeRoot::kDecimal: return Unsupported(type, "Does not support decimal");
    case TypeRoot::kArray: return Unsupported(type, "Does not support type array");
    case TypeRoot::kMultiset: return Unsupported(type, "Does not support type mutiset");
    case TypeRoot::kMap: return Unsupported(type, "Does not support type map");
    case TypeRoot::kRow: return Unsupported(type, "Does not support type row");
    case TypeRoot::kVariant: return Unsupported(type, "Does not support type variant");
    case TypeRoot::kBlob: return Unsupported(type, "Does not support type blob");
    default: break;
  }
  const std::optional<keys::PhysicalKey> key = keys::PhysicalKeyOf(type);
  if (!key) return Unsupported(type, "unknown type");
  return *key;
}

int CompareKeys(KeyKind kind, const KeyRef& a, const KeyRef& b) {
  switch (kind) {
    case KeyKind::kInt8:
    case KeyKind::kInt16:
    case KeyKind::kInt32:
    case KeyKind::kInt64:
      return java::CompareSigned(static_cast<int64_t>(a.bits), static_cast<int64_t>(b.bits));
    case KeyKind::kFloat: return java::FloatCompare(FloatOf(a.bits), FloatOf(b.bits));
    case KeyKind::kDouble: return java::DoubleCompare(DoubleOf(a.bits), DoubleOf(b.bits));
    case KeyKind::kBool: return java::BooleanCompare(a.bits != 0, b.bits != 0);
    case KeyKind::kString:
    case KeyKind::kBinary: return java::BinaryStringCompareTo(a.bytes, b.bytes);
  }
  return 0;
}

int32_t NumericJavaHash(KeyKind kind, uint64_t bits) {
  switch (kind) {
    case KeyKind::kInt8: return java::ByteHashCode(static_cast<int8_t>(bits));
    case KeyKind::kInt16: return java::ShortHashCode(static_cast<int16_t>(bits));
    case KeyKind::kInt32: return java::IntegerHashCode(static_cast<int32_t>(bits));
    case KeyKind::kInt64: return java::LongHashCode(static_cast<int64_t>(bits));
    case KeyKind::kFloat: return static_cast<int32_t>(static_cast<uint32_t>(bits));
    case KeyKind::kDouble: return java::LongHashCode(static_cast<int64_t>(bits));
    case KeyKind::kBool: return java::BooleanHashCode(bits != 0);
    case KeyKind::kString:
    case KeyKind::kBinary: break;
  }
  return 0;
}

void EncodeKey(KeyKind kind, const KeyRef& key, io::ByteWriter* out) {
  switch (kind) {
    case KeyKind::kInt8: out->WriteI8(static_cast<int8_t>(key.bits)); return;
    case KeyKind::kBool: out->WriteBool(key.bits != 0); return;
    case KeyKind::kInt16: out->WriteI16BE(static_cast<int16_t>(key.bits)); return;
    case KeyKind::kInt32:
    case KeyKind::kFloat: out->WriteI32BE(static_cast<int32_t>(key.bits)); return;
    case KeyKind::kInt64:
    case KeyKind::kDouble: out->WriteI64BE(static_cast<int64_t>(key.bits)); return;
    case KeyKind::kString:
    case KeyKind::kBinary:
      out->WriteI32BE(static_cast<int32_t>(key.bytes.size()));
      out->WriteBytes(io::ByteSpan::Of(key.bytes));
      return;
  }
}

Result<KeyRef> DecodeKey(KeyKind kind, io::ByteReader* in) {
  KeyRef key;
  if (kind == KeyKind::kString) {
    PFI_ASSIGN_OR_RETURN(uint32_t length, in->ReadLength("string key length"));
    PFI_ASSIGN_OR_RETURN(io::ByteSpan bytes, in->ReadBytes(length, "string key"));
    key.bytes = bytes.AsStringView();
    return key;
  }
  const size_t size = FixedKeySize(kind);
  PFI_ASSIGN_OR_RETURN(io::ByteSpan bytes, in->ReadBytes(size, "key"));
  key.bits = DecodeFixedKeyBits(kind, bytes.data());
  return key;
}

namespace {

LiteralKey KeyOf(uint64_t bits) {
  LiteralKey out;
  out.kind = LiteralKey::Kind::kKey;
  out.key.bits = bits;
  return out;
}

LiteralKey NoMatch() { return LiteralKey{}; }

}  // namespace

Result<LiteralKey> LiteralToKey(const keys::PhysicalKey& key, const DataType& type,
                                const Literal& literal) {
  if (literal.is_null()) {
    LiteralKey out;
    out.kind = LiteralKey::Kind::kNull;
    return out;
  }
  PFI_RETURN_NOT_OK(keys::CheckLiteralKind(key, type, literal));
  switch (key.kind) {
    case KeyKind::kInt8:
    case KeyKind::kInt16:
    case KeyKind::kInt32:
    case KeyKind::kInt64: {
      // Java looks up the literal truncated to the column's unit (docs/DIFFERENCES.md).
      PFI_ASSIGN_OR_RETURN(keys::AxisPoint point, keys::PointOf(key, literal));
      const std::optional<int64_t> bits = keys::TruncatedKey(point, key.kind);
      return bits ? KeyOf(IntegerBits(*bits)) : NoMatch();
    }
    case KeyKind::kFloat: {
      // Only a double that is exactly a float value can equal a FLOAT row.
      const keys::FloatPosition position = keys::PlaceAmongFloats(literal.double_value());
      return position.exact ? KeyOf(FloatBits(position.lo)) : NoMatch();
    }
    case KeyKind::kDouble: return KeyOf(DoubleBits(literal.double_value()));
    case KeyKind::kBool: return KeyOf(literal.bool_value() ? 1 : 0);
    case KeyKind::kString:
    case KeyKind::kBinary: {
      LiteralKey out;
      out.kind = LiteralKey::Kind::kKey;
      out.key.bytes = literal.bytes();
      return out;
    }
  }
  return Status::Internal("bitmap: unknown key kind");
}

const char* KeyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::kInt8: return "Byte";
    case KeyKind::kInt16: return "Short";
    case KeyKind::kInt32: return "Integer";
    case KeyKind::kInt64: return "Long";
    case KeyKind::kFloat: return "Float";
    case KeyKind::kDouble: return "Double";
    case KeyKind::kBool: return "Boolean";
    case KeyKind::kString: return "BinaryString";
    case KeyKind::kBinary: return "byte[]";
  }
  return "?";
}

}  // namespace pyfileindex::index::bitmap
