// The "ordered" view of fixed-width keys: an unsigned integer whose natural order is Java's
// comparator order for the key's class (signed integers, Boolean false < true,
// Float/Double.compare total order: -0.0 < 0.0, every NaN one key above +Infinity). Sorting,
// dictionary search and literal placement work on it, so no per-kind comparator runs on hot
// paths. All inline: these run per row.
#pragma once

#include <cstdint>

#include "java/float_bits.h"

namespace pyfileindex::index::keys {

constexpr uint64_t OrderedFromSigned(int64_t v) {
  return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
}
constexpr int64_t SignedFromOrdered(uint64_t u) {
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

// Over canonical (floatToIntBits / doubleToLongBits) bit patterns.
constexpr uint32_t OrderedFromFloatBits(int32_t canonical_bits) {
  const uint32_t u = static_cast<uint32_t>(canonical_bits);
  return (u & 0x80000000u) ? ~u : (u ^ 0x80000000u);
}
constexpr int32_t FloatBitsFromOrdered(uint32_t o) {
  return static_cast<int32_t>((o & 0x80000000u) ? (o ^ 0x80000000u) : ~o);
}
constexpr uint64_t OrderedFromDoubleBits(int64_t canonical_bits) {
  const uint64_t u = static_cast<uint64_t>(canonical_bits);
  return (u >> 63) ? ~u : (u ^ (uint64_t{1} << 63));
}
constexpr int64_t DoubleBitsFromOrdered(uint64_t o) {
  return static_cast<int64_t>((o >> 63) ? (o ^ (uint64_t{1} << 63)) : ~o);
}

// floatToIntBits / doubleToLongBits applied to raw bits (no float round trip).
constexpr int32_t CanonicalFloatBits(int32_t raw) {
  return (raw & 0x7fffffff) > 0x7f800000 ? java::kCanonicalFloatNaNBits : raw;
}
constexpr int64_t CanonicalDoubleBits(int64_t raw) {
  return (raw & 0x7fffffffffffffffLL) > 0x7ff0000000000000LL ? java::kCanonicalDoubleNaNBits : raw;
}

inline uint32_t OrderedFromFloat(float v) { return OrderedFromFloatBits(java::FloatToIntBits(v)); }
inline uint64_t OrderedFromDouble(double v) {
  return OrderedFromDoubleBits(java::DoubleToLongBits(v));
}

}  // namespace pyfileindex::index::keys
