// Java hashCode() and compareTo() of the key classes Paimon puts into java.util.HashMap.
//
// These decide HashMap iteration order (see java/java_hash_map.h), which leaks into index bytes,
// so each one must give exactly the Java value. Comparisons return a negative, zero or positive
// int like Java's; only the sign is meaningful.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/status.h"

namespace pyfileindex::java {

// ---- hashCode ------------------------------------------------------------------------------

inline int32_t IntegerHashCode(int32_t v) { return v; }
inline int32_t ShortHashCode(int16_t v) { return v; }  // sign-extended
inline int32_t ByteHashCode(int8_t v) { return v; }    // sign-extended
inline int32_t BooleanHashCode(bool v) { return v ? 1231 : 1237; }

// Long.hashCode: (int)(v ^ (v >>> 32)).
inline int32_t LongHashCode(int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  return static_cast<int32_t>(static_cast<uint32_t>(u ^ (u >> 32)));
}

inline int32_t FloatHashCode(float v) { return FloatToIntBits(v); }
inline int32_t DoubleHashCode(double v) { return LongHashCode(DoubleToLongBits(v)); }

// String.hashCode of the Java String holding the same text as `utf8`: h = 31*h + c over its
// UTF-16 code units (a supplementary character contributes both surrogates).
// InvalidArgument if `utf8` is not valid UTF-8.
Result<int32_t> StringHashCode(std::string_view utf8);

namespace murmur_internal {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

inline uint32_t MixK1(uint32_t k) {
  k *= 0xCC9E2D51u;
  k = Rotl32(k, 15);
  return k * 0x1B873593u;
}

inline uint32_t MixH1(uint32_t h, uint32_t k) {
  h ^= k;
  h = Rotl32(h, 13);
  return h * 5 + 0xE6546B64u;
}

inline uint32_t Fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

}  // namespace murmur_internal

// Paimon BinaryString.hashCode over its UTF-8 bytes: MurmurHash3 x86_32 with seed 42, but each
// tail byte (len % 4 of them) is sign-extended and mixed as a block of its own. Java reads the
// 4-byte words in native order, which is little-endian on every platform Paimon runs on.
inline int32_t BinaryStringHashCode(const uint8_t* data, size_t size) {
  using namespace murmur_internal;
  uint32_t h = 42;
  const size_t aligned = size & ~static_cast<size_t>(3);
  for (size_t i = 0; i < aligned; i += 4) h = MixH1(h, MixK1(io::LoadU32LE(data + i)));
  for (size_t i = aligned; i < size; ++i) {
    h = MixH1(h, MixK1(static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(data[i])))));
  }
  h ^= static_cast<uint32_t>(size);
  return static_cast<int32_t>(Fmix32(h));
}

inline int32_t BinaryStringHashCode(std::string_view bytes) {
  return BinaryStringHashCode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// ---- compareTo -----------------------------------------------------------------------------

// Integer/Long/Short/Byte.compare: signed numeric order.
inline int CompareSigned(int64_t a, int64_t b) { return (a > b) - (a < b); }

// Boolean.compare: false < true.
inline int BooleanCompare(bool a, bool b) { return static_cast<int>(a) - static_cast<int>(b); }

// Float.compare: numeric order, then by floatToIntBits as signed ints, so -0.0 < 0.0 and NaN
// (all NaNs equal) is greater than everything, +Infinity included.
inline int FloatCompare(float a, float b) {
  if (a < b) return -1;
  if (a > b) return 1;
  return CompareSigned(FloatToIntBits(a), FloatToIntBits(b));
}

// Double.compare: as FloatCompare with doubleToLongBits.
inline int DoubleCompare(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  return CompareSigned(DoubleToLongBits(a), DoubleToLongBits(b));
}

// String.compareTo of the Java Strings holding `a` and `b`: lexicographic over UTF-16 code
// units, then shorter first. Differs from UTF-8 byte order when a supplementary character
// (surrogates D800..DFFF) meets a character in U+E000..U+FFFF. Inputs must be valid UTF-8
// (check with io::ValidateUtf8); an invalid byte compares as U+FFFD, then by byte value.
int StringCompareTo(std::string_view a, std::string_view b);

// Paimon BinaryString.compareTo: unsigned bytes, then shorter first.
inline int BinaryStringCompareTo(const uint8_t* a, size_t a_size, const uint8_t* b,
                                 size_t b_size) {
  const size_t common = a_size < b_size ? a_size : b_size;
  if (common > 0) {
    int c = std::memcmp(a, b, common);  // memcmp compares as unsigned char
    if (c != 0) return c < 0 ? -1 : 1;
  }
  return (a_size > b_size) - (a_size < b_size);
}

inline int BinaryStringCompareTo(std::string_view a, std::string_view b) {
  return BinaryStringCompareTo(reinterpret_cast<const uint8_t*>(a.data()), a.size(),
                               reinterpret_cast<const uint8_t*>(b.data()), b.size());
}

}  // namespace pyfileindex::java
