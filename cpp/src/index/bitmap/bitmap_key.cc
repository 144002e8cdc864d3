#include "index/bitmap/bitmap_key.h"

#include <cmath>
#include <limits>
#include <string>

#include "java/float_bits.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::bitmap {

namespace {

Status Unsupported(const DataType& type, const char* java_reason) {
  return Status::InvalidArgument("bitmap index does not support type " + type.ToString() +
                                 " (" + java_reason + ")");
}

float FloatOf(uint64_t bits) { return java::IntBitsToFloat(static_cast<int32_t>(bits)); }
double DoubleOf(uint64_t bits) { return java::LongBitsToDouble(static_cast<int64_t>(bits)); }

}  // namespace

Result<KeyMapping> KeyMappingFor(const DataType& type) {
  KeyMapping m;
  switch (type.root) {
    case TypeRoot::kBoolean: m.kind = KeyKind::kBool; return m;
    case TypeRoot::kTinyInt: m.kind = KeyKind::kByte; return m;
    case TypeRoot::kSmallInt: m.kind = KeyKind::kShort; return m;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: m.kind = KeyKind::kInt; return m;
    case TypeRoot::kBigInt: m.kind = KeyKind::kLong; return m;
    case TypeRoot::kFloat: m.kind = KeyKind::kFloat; return m;
    case TypeRoot::kDouble: m.kind = KeyKind::kDouble; return m;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar: m.kind = KeyKind::kString; return m;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone:
      m.kind = KeyKind::kLong;
      m.is_timestamp = true;
      m.timestamp_micros = type.precision > 3;
      return m;
    // The texts in parentheses are Java's UnsupportedOperationException messages.
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: return Unsupported(type, "Does not support type binary");
    case TypeRoot::kDecimal: return Unsupported(type, "Does not support decimal");
    case TypeRoot::kArray: return Unsupported(type, "Does not support type array");
    case TypeRoot::kMultiset: return Unsupported(type, "Does not support type mutiset");
    case TypeRoot::kMap: return Unsupported(type, "Does not support type map");
    case TypeRoot::kRow: return Unsupported(type, "Does not support type row");
    case TypeRoot::kVariant: return Unsupported(type, "Does not support type variant");
    case TypeRoot::kBlob: return Unsupported(type, "Does not support type blob");
  }
  return Unsupported(type, "unknown type");
}

int CompareKeys(KeyKind kind, const KeyRef& a, const KeyRef& b) {
  switch (kind) {
    case KeyKind::kByte:
    case KeyKind::kShort:
    case KeyKind::kInt:
    case KeyKind::kLong:
      return java::CompareSigned(static_cast<int64_t>(a.bits), static_cast<int64_t>(b.bits));
    case KeyKind::kFloat: return java::FloatCompare(FloatOf(a.bits), FloatOf(b.bits));
    case KeyKind::kDouble: return java::DoubleCompare(DoubleOf(a.bits), DoubleOf(b.bits));
    case KeyKind::kBool: return java::BooleanCompare(a.bits != 0, b.bits != 0);
    case KeyKind::kString: return java::BinaryStringCompareTo(a.bytes, b.bytes);
  }
  return 0;
}

int32_t NumericJavaHash(KeyKind kind, uint64_t bits) {
  switch (kind) {
    case KeyKind::kByte: return java::ByteHashCode(static_cast<int8_t>(bits));
    case KeyKind::kShort: return java::ShortHashCode(static_cast<int16_t>(bits));
    case KeyKind::kInt: return java::IntegerHashCode(static_cast<int32_t>(bits));
    case KeyKind::kLong: return java::LongHashCode(static_cast<int64_t>(bits));
    case KeyKind::kFloat: return static_cast<int32_t>(static_cast<uint32_t>(bits));
    case KeyKind::kDouble: return java::LongHashCode(static_cast<int64_t>(bits));
    case KeyKind::kBool: return java::BooleanHashCode(bits != 0);
    case KeyKind::kString: break;
  }
  return 0;
}

size_t FixedKeySize(KeyKind kind) {
  switch (kind) {
    case KeyKind::kByte:
    case KeyKind::kBool: return 1;
    case KeyKind::kShort: return 2;
    case KeyKind::kInt:
    case KeyKind::kFloat: return 4;
    case KeyKind::kLong:
    case KeyKind::kDouble: return 8;
    case KeyKind::kString: return 0;
  }
  return 0;
}

void EncodeKey(KeyKind kind, const KeyRef& key, io::ByteWriter* out) {
  switch (kind) {
    case KeyKind::kByte: out->WriteI8(static_cast<int8_t>(key.bits)); return;
    case KeyKind::kBool: out->WriteBool(key.bits != 0); return;
    case KeyKind::kShort: out->WriteI16BE(static_cast<int16_t>(key.bits)); return;
    case KeyKind::kInt:
    case KeyKind::kFloat: out->WriteI32BE(static_cast<int32_t>(key.bits)); return;
    case KeyKind::kLong:
    case KeyKind::kDouble: out->WriteI64BE(static_cast<int64_t>(key.bits)); return;
    case KeyKind::kString:
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

Status WrongLiteral(const DataType& type, const Literal& literal) {
  return Status::InvalidArgument(literal.Describe() +
                                 " cannot be compared with a column of type " + type.ToString());
}

LiteralKey KeyOf(uint64_t bits) {
  LiteralKey out;
  out.kind = LiteralKey::Kind::kKey;
  out.key.bits = bits;
  return out;
}

LiteralKey NoMatch() { return LiteralKey{}; }

LiteralKey IntegerInRange(int64_t v, int64_t lo, int64_t hi) {
  return (v < lo || v > hi) ? NoMatch() : KeyOf(IntegerBits(v));
}

}  // namespace

Result<LiteralKey> LiteralToKey(const KeyMapping& mapping, const DataType& type,
                                const Literal& literal) {
  if (literal.is_null()) {
    LiteralKey out;
    out.kind = LiteralKey::Kind::kNull;
    return out;
  }
  const Literal::Kind lk = literal.kind();
  if (mapping.is_timestamp) {
    if (lk != Literal::Kind::kTimestamp) return WrongLiteral(type, literal);
    if (!mapping.timestamp_micros) return KeyOf(IntegerBits(literal.int_value()));
    // Timestamp.toMicros(): millis * 1000 (overflow-checked) + nanoOfMilli / 1000.
    int64_t micros = 0;
    if (__builtin_mul_overflow(literal.int_value(), int64_t{1000}, &micros) ||
        __builtin_add_overflow(micros, int64_t{literal.nano_of_milli() / 1000}, &micros)) {
      return NoMatch();  // no stored key can be outside the long range
    }
    return KeyOf(IntegerBits(micros));
  }
  switch (mapping.kind) {
    case KeyKind::kByte:
    case KeyKind::kShort:
    case KeyKind::kInt:
    case KeyKind::kLong: {
      if (lk != Literal::Kind::kInt) return WrongLiteral(type, literal);
      const int64_t v = literal.int_value();
      switch (mapping.kind) {
        case KeyKind::kByte: return IntegerInRange(v, INT8_MIN, INT8_MAX);
        case KeyKind::kShort: return IntegerInRange(v, INT16_MIN, INT16_MAX);
        case KeyKind::kInt: return IntegerInRange(v, INT32_MIN, INT32_MAX);
        default: return KeyOf(IntegerBits(v));
      }
    }
    case KeyKind::kFloat: {
      if (lk != Literal::Kind::kDouble) return WrongLiteral(type, literal);
      const double d = literal.double_value();
      if (std::isnan(d)) return KeyOf(FloatBits(std::numeric_limits<float>::quiet_NaN()));
      // Only a double that is exactly a float value can equal a FLOAT row.
      if (std::isfinite(d) && std::fabs(d) > std::numeric_limits<float>::max()) return NoMatch();
      const float f = static_cast<float>(d);
      if (static_cast<double>(f) != d) return NoMatch();
      return KeyOf(FloatBits(f));
    }
    case KeyKind::kDouble:
      if (lk != Literal::Kind::kDouble) return WrongLiteral(type, literal);
      return KeyOf(DoubleBits(literal.double_value()));
    case KeyKind::kBool:
      if (lk != Literal::Kind::kBool) return WrongLiteral(type, literal);
      return KeyOf(literal.bool_value() ? 1 : 0);
    case KeyKind::kString: {
      if (lk != Literal::Kind::kString) return WrongLiteral(type, literal);
      LiteralKey out;
      out.kind = LiteralKey::Kind::kKey;
      out.key.bytes = literal.bytes();
      return out;
    }
  }
  return WrongLiteral(type, literal);
}

const char* KeyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::kByte: return "Byte";
    case KeyKind::kShort: return "Short";
    case KeyKind::kInt: return "Integer";
    case KeyKind::kLong: return "Long";
    case KeyKind::kFloat: return "Float";
    case KeyKind::kDouble: return "Double";
    case KeyKind::kBool: return "Boolean";
    case KeyKind::kString: return "BinaryString";
  }
  return "?";
}

}  // namespace pyfileindex::index::bitmap
