// Java's float/double <-> bit-pattern conversions.
//
// Float.floatToIntBits / Double.doubleToLongBits collapse every NaN to one canonical pattern;
// Paimon relies on that for hashCode, equals and DataOutput.writeFloat/writeDouble.
#pragma once

#include <cstdint>
#include <cstring>

namespace pyfileindex::java {

constexpr int32_t kCanonicalFloatNaNBits = 0x7fc00000;
constexpr int64_t kCanonicalDoubleNaNBits = 0x7ff8000000000000LL;

inline int32_t FloatToRawIntBits(float v) {
  int32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

inline int64_t DoubleToRawLongBits(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

// NaN test on the bits, so it holds under -ffast-math too.
inline int32_t FloatToIntBits(float v) {
  int32_t bits = FloatToRawIntBits(v);
  return (bits & 0x7fffffff) > 0x7f800000 ? kCanonicalFloatNaNBits : bits;
}

inline int64_t DoubleToLongBits(double v) {
  int64_t bits = DoubleToRawLongBits(v);
  return (bits & 0x7fffffffffffffffLL) > 0x7ff0000000000000LL ? kCanonicalDoubleNaNBits : bits;
}

inline float IntBitsToFloat(int32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

inline double LongBitsToDouble(int64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace pyfileindex::java
