// Range-bitmap dictionary keys: which key form each column type uses (Paimon's KeyFactory),
// and the "ordered" integer view of fixed-width keys used for sorting and comparing.
//
// Every fixed-width key maps to an unsigned integer whose natural order is Java's comparator
// order for that key class (signed integers, Boolean false < true, Float/Double.compare total
// order). Sorting, dictionary search and literal placement all work on that integer, so no
// per-kind comparator is needed on hot paths.
#pragma once

#include <cstdint>
#include <string>

#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

enum class KeyKind : uint8_t { kBool, kInt8, kInt16, kInt32, kInt64, kFloat, kDouble, kString };

// How values of one column type become dictionary keys.
struct KeySpec {
  KeyKind kind = KeyKind::kInt32;
  int width = 4;                       // bytes of a fixed-width key; 0 for strings
  int64_t default_chunk_size = 16384;  // Java: "16kb", or "0b" for 1- and 2-byte keys
  bool timestamp = false;              // TIMESTAMP / TIMESTAMP_LTZ (int64 keys)
  bool timestamp_micros = false;       // precision 4..6: micros(ts); else millis(ts)
  bool decimal = false;                // DECIMAL(p <= 18): the unscaled long
  int32_t decimal_scale = 0;
};

inline constexpr const char* kRangeBitmapName = "range-bitmap";

// The key form of `type`, or InvalidArgument naming the type when range-bitmap (Paimon 2.0)
// does not accept it.
Result<KeySpec> KeySpecFor(const DataType& type);

// ---- ordered integer view ------------------------------------------------------------------

inline uint64_t OrderedFromSigned(int64_t v) {
  return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
}
inline int64_t SignedFromOrdered(uint64_t u) {
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

// Float.compare order over floatToIntBits (every NaN is one key, above +Infinity; -0.0 < 0.0).
inline uint32_t OrderedFromFloatBits(int32_t canonical_bits) {
  const uint32_t u = static_cast<uint32_t>(canonical_bits);
  return (u & 0x80000000u) ? ~u : (u ^ 0x80000000u);
}
inline int32_t FloatBitsFromOrdered(uint32_t o) {
  return static_cast<int32_t>((o & 0x80000000u) ? (o ^ 0x80000000u) : ~o);
}
inline uint64_t OrderedFromDoubleBits(int64_t canonical_bits) {
  const uint64_t u = static_cast<uint64_t>(canonical_bits);
  return (u >> 63) ? ~u : (u ^ (uint64_t{1} << 63));
}
inline int64_t DoubleBitsFromOrdered(uint64_t o) {
  return static_cast<int64_t>((o >> 63) ? (o ^ (uint64_t{1} << 63)) : ~o);
}

// floatToIntBits / doubleToLongBits applied to raw bits (no float round trip).
inline int32_t CanonicalFloatBits(int32_t raw) {
  return (raw & 0x7fffffff) > 0x7f800000 ? java::kCanonicalFloatNaNBits : raw;
}
inline int64_t CanonicalDoubleBits(int64_t raw) {
  return (raw & 0x7fffffffffffffffLL) > 0x7ff0000000000000LL ? java::kCanonicalDoubleNaNBits : raw;
}

inline uint32_t OrderedFromFloat(float v) { return OrderedFromFloatBits(java::FloatToIntBits(v)); }
inline uint64_t OrderedFromDouble(double v) {
  return OrderedFromDoubleBits(java::DoubleToLongBits(v));
}

// The smallest and largest ordered value a fixed-width kind can hold.
uint64_t MinOrdered(KeyKind kind);
uint64_t MaxOrdered(KeyKind kind);

// Reads a stored fixed-width key (big-endian, `width` bytes at `p`) as its ordered value, the
// way Java's KeyDeserializer reads it (BOOLEAN: byte == 1 is true, anything else false).
inline uint64_t DecodeOrdered(KeyKind kind, const uint8_t* p) {
  switch (kind) {
    case KeyKind::kBool:
      return p[0] == 1 ? 1 : 0;
    case KeyKind::kInt8:
      return OrderedFromSigned(static_cast<int8_t>(p[0]));
    case KeyKind::kInt16:
      return OrderedFromSigned(static_cast<int16_t>(io::LoadU16BE(p)));
    case KeyKind::kInt32:
      return OrderedFromSigned(static_cast<int32_t>(io::LoadU32BE(p)));
    case KeyKind::kInt64:
      return OrderedFromSigned(static_cast<int64_t>(io::LoadU64BE(p)));
    case KeyKind::kFloat:
      return OrderedFromFloatBits(CanonicalFloatBits(static_cast<int32_t>(io::LoadU32BE(p))));
    case KeyKind::kDouble:
      return OrderedFromDoubleBits(CanonicalDoubleBits(static_cast<int64_t>(io::LoadU64BE(p))));
    case KeyKind::kString:
      break;
  }
  return 0;
}

// Writes the key bytes Java writes for an ordered value. Floats/doubles get the canonical bit
// pattern; the writer substitutes the raw bits of the first NaN it saw (see key_collector.h).
void EncodeOrdered(KeyKind kind, uint64_t ordered, uint8_t* out);

// A human-readable key, for Describe(): numbers in decimal, strings quoted.
std::string FormatKey(const KeySpec& spec, const uint8_t* key, size_t size);

}  // namespace pyfileindex::index::range_bitmap
