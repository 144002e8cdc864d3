#include "index/range_bitmap/key_kind.h"

#include <cinttypes>
#include <cstdio>
#include <limits>

namespace pyfileindex::index::range_bitmap {

namespace {

KeySpec Fixed(KeyKind kind, int width, int64_t default_chunk_size) {
  KeySpec spec;
  spec.kind = kind;
  spec.width = width;
  spec.default_chunk_size = default_chunk_size;
  return spec;
}

constexpr int64_t k16Kb = 16 * 1024;

Status Unsupported(const DataType& type, const std::string& why) {
  return Status::InvalidArgument("column type '" + type.ToString() + "' is not supported by the '" +
                                 kRangeBitmapName + "' index" + why);
}

}  // namespace

Result<KeySpec> KeySpecFor(const DataType& type) {
  switch (type.root) {
    case TypeRoot::kBoolean:
      return Fixed(KeyKind::kBool, 1, 0);
    case TypeRoot::kTinyInt:
      return Fixed(KeyKind::kInt8, 1, 0);
    case TypeRoot::kSmallInt:
      return Fixed(KeyKind::kInt16, 2, 0);
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return Fixed(KeyKind::kInt32, 4, k16Kb);
    case TypeRoot::kBigInt:
      return Fixed(KeyKind::kInt64, 8, k16Kb);
    case TypeRoot::kFloat:
      return Fixed(KeyKind::kFloat, 4, k16Kb);
    case TypeRoot::kDouble:
      return Fixed(KeyKind::kDouble, 8, k16Kb);
    case TypeRoot::kDecimal: {
      if (type.precision > 18) {
        return Unsupported(type, " (DECIMAL precision must be in [0, 18])");
      }
      KeySpec spec = Fixed(KeyKind::kInt64, 8, k16Kb);
      spec.decimal = true;
      spec.decimal_scale = type.scale;
      return spec;
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone: {
      if (type.precision > 6) {
        return Unsupported(type, " (TIMESTAMP precision must be in [0, 6])");
      }
      KeySpec spec = Fixed(KeyKind::kInt64, 8, k16Kb);
      spec.timestamp = true;
      spec.timestamp_micros = type.precision > 3;
      return spec;
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar: {
      KeySpec spec;
      spec.kind = KeyKind::kString;
      spec.width = 0;
      spec.default_chunk_size = k16Kb;
      return spec;
    }
    default:
      break;
  }
  return Unsupported(type, "");
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
      return;
  }
}

std::string FormatKey(const KeySpec& spec, const uint8_t* key, size_t size) {
  char buf[64];
  switch (spec.kind) {
    case KeyKind::kString: {
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
  if (spec.decimal && spec.decimal_scale > 0) {
    std::snprintf(buf, sizeof buf, "%" PRId64 "E-%d", v, spec.decimal_scale);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRId64, v);
  }
  std::string text = buf;
  if (spec.timestamp) text += spec.timestamp_micros ? " us" : " ms";
  return text;
}

}  // namespace pyfileindex::index::range_bitmap
