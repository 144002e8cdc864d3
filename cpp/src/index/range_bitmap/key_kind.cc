#include "index/range_bitmap/key_kind.h"

#include <cinttypes>
#include <cstdio>
#include <limits>

namespace pyfileindex::index::range_bitmap {

namespace {

constexpr int64_t k16Kb = 16 * 1024;

Status Unsupported(const DataType& type, const std::string& why) {
  return Status::InvalidArgument("column type '", type.ToString(), "' is not supported by the '",
                                 kRangeBitmapName, "' index", why);
}

}  // namespace

Result<KeySpec> KeySpecFor(const DataType& type) {
  const std::optional<keys::PhysicalKey> key = keys::PhysicalKeyOf(type);
  if (!key || key->kind == KeyKind::kBinary) return Unsupported(type, "");
  if (key->is_decimal() && !key->compact) {
    return Unsupported(type, " (DECIMAL precision must be in [0, 18])");
  }
  if (key->drops_nanos) return Unsupported(type, " (TIMESTAMP precision must be in [0, 6])");
  KeySpec spec;
  static_cast<keys::PhysicalKey&>(spec) = *key;
  // Java's default chunk size: "0b" (one chunk) for 1- and 2-byte keys, else "16kb".
  spec.default_chunk_size = key->width == 1 || key->width == 2 ? 0 : k16Kb;
  return spec;
}

uint64_t MinOrdered(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool:
      return 0;
    case KeyKind::kInt8:
      return OrderedFromSigned(std::numeric_limits<int8_t>::min());
    case KeyKind::kInt16:
      return OrderedFromSigned(std::numeric_limits<int16_t>::min());
    case KeyKind::kInt32:
      return OrderedFromSigned(std::numeric_limits<int32_t>::min());
    case KeyKind::kInt64:
      return OrderedFromSigned(std::numeric_limits<int64_t>::min());
    case KeyKind::kFloat:
      return OrderedFromFloatBits(static_cast<int32_t>(0xff800000u));
    case KeyKind::kDouble:
      return OrderedFromDoubleBits(static_cast<int64_t>(0xfff0000000000000ull));
    case KeyKind::kString:
    case KeyKind::kBinary:
      break;
  }
  return 0;
}

uint64_t MaxOrdered(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool:
      return 1;
    case KeyKind::kInt8:
      return OrderedFromSigned(std::numeric_limits<int8_t>::max());
    case KeyKind::kInt16:
      return OrderedFromSigned(std::numeric_limits<int16_t>::max());
    case KeyKind::kInt32:
      return OrderedFromSigned(std::numeric_limits<int32_t>::max());
    case KeyKind::kInt64:
      return OrderedFromSigned(std::numeric_limits<int64_t>::max());
    case KeyKind::kFloat:
      return OrderedFromFloatBits(java::kCanonicalFloatNaNBits);
    case KeyKind::kDouble:
      return OrderedFromDoubleBits(java::kCanonicalDoubleNaNBits);
    case KeyKind::kString:
    case KeyKind::kBinary:
      break;
  }
  return 0;
}

void EncodeOrdered(KeyKind kind, uint64_t ordered, uint8_t* out) {
  switch (kind) {
    case KeyKind::kBool:
      out[0] = ordered ? 1 : 0;
      return;
    case KeyKind::kInt8:
      out[0] = static_cast<uint8_t>(SignedFromOrdered(ordered));
      return;
    case KeyKind::kInt16:
      io::StoreU16BE(out, static_cast<uint16_t>(SignedFromOrdered(ordered)));
      return;
    case KeyKind::kInt32:
      io::StoreU32BE(out, static_cast<uint32_t>(SignedFromOrdered(ordered)));
      return;
    case KeyKind::kInt64:
      io::StoreU64BE(out, static_cast<uint64_t>(SignedFromOrdered(ordered)));
      return;
    case KeyKind::kFloat:
      io::StoreU32BE(out,
                     static_cast<uint32_t>(FloatBitsFromOrdered(static_cast<uint32_t>(ordered))));
      return;
    case KeyKind::kDouble:
      io::StoreU64BE(out, static_cast<uint64_t>(DoubleBitsFromOrdered(ordered)));
      return;
    case KeyKind::kString:
    case KeyKind::kBinary:
      return;
  }
}

std::string FormatKey(const KeySpec& spec, const uint8_t* key, size_t size) {
  char buf[64];
  switch (spec.kind) {
    case KeyKind::kString:
    case KeyKind::kBinary: {
      std::string text = "\"";
      text.append(reinterpret_cast<const char*>(key), size);
      return text + "\"";
    }
    case KeyKind::kBool:
      return key[0] == 1 ? "true" : "false";
    case KeyKind::kFloat:
      std::snprintf(
          buf, sizeof buf, "%.9g",
          static_cast<double>(java::IntBitsToFloat(static_cast<int32_t>(io::LoadU32BE(key)))));
      return buf;
    case KeyKind::kDouble:
      std::snprintf(buf, sizeof buf, "%.17g",
                    java::LongBitsToDouble(static_cast<int64_t>(io::LoadU64BE(key))));
      return buf;
    default:
      break;
  }
  const int64_t v = SignedFromOrdered(DecodeOrdered(spec.kind, key));
  if (spec.is_decimal() && spec.scale > 0) {
    std::snprintf(buf, sizeof buf, "%" PRId64 "E-%d", v, spec.scale);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRId64, v);
  }
  std::string text = buf;
  if (spec.is_timestamp()) text += spec.micros() ? " us" : " ms";
  return text;
}

Literal KeyLiteral(const KeySpec& spec, const uint8_t* key, size_t size) {
  switch (spec.kind) {
    case KeyKind::kString:
    case KeyKind::kBinary:
      return Literal::String(std::string(reinterpret_cast<const char*>(key), size));
    case KeyKind::kBool:
      return Literal::Bool(key[0] == 1);
    case KeyKind::kFloat:
      return Literal::Double(
          static_cast<double>(java::IntBitsToFloat(static_cast<int32_t>(io::LoadU32BE(key)))));
    case KeyKind::kDouble:
      return Literal::Double(java::LongBitsToDouble(static_cast<int64_t>(io::LoadU64BE(key))));
    default:
      break;
  }
  const int64_t v = SignedFromOrdered(DecodeOrdered(spec.kind, key));
  if (spec.is_decimal()) return Literal::Decimal(v, spec.scale);
  if (spec.is_timestamp()) {
    if (!spec.micros()) return Literal::Timestamp(v, 0);
    // Floor division: a negative micros value lies in the millisecond below it.
    int64_t millis = v / 1000;
    int64_t micros_of_milli = v % 1000;
    if (micros_of_milli < 0) {
      millis -= 1;
      micros_of_milli += 1000;
    }
    return Literal::Timestamp(millis, static_cast<int32_t>(micros_of_milli * 1000));
  }
  return Literal::Int(v);
}

}  // namespace pyfileindex::index::range_bitmap
