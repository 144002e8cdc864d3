// Hashing and comparing byte strings for the writers' own hash tables (not Java's hashes):
// short keys (ids, codes, names of 8-32 bytes) are the common case, so both are inline and
// never call into libc for a variable-length copy or compare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/endian.h"

namespace pyfileindex::hash {

// A fast, well-mixed 64-bit hash from a table's seed (hash/table_seed.h): MurmurHash64A-style
// mixing of 8-byte words, the 1..7 tail bytes loaded without a variable-length copy.
inline uint64_t TableBytesHash(uint64_t seed, std::string_view bytes) {
  constexpr uint64_t kMul = 0xC6A4A7935BD1E995ull;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  uint64_t h = seed ^ (n * kMul);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t k = io::LoadU64LE(p + i) * kMul;
    k ^= k >> 47;
    h = (h ^ (k * kMul)) * kMul;
  }
  const size_t r = n - i;
  if (r > 0) {
    const uint8_t* t = p + i;
    uint64_t k;
    if (r >= 4) {  // two overlapping 4-byte loads cover 4..7 bytes
      k = io::LoadU32LE(t) | (uint64_t{io::LoadU32LE(t + r - 4)} << 32);
    } else {
      k = t[0] | (uint64_t{t[r / 2]} << 8) | (uint64_t{t[r - 1]} << 16);
    }
    h = (h ^ k) * kMul;
  }
  h ^= h >> 47;
  h *= kMul;
  h ^= h >> 47;
  return h;
}

// a == b, for a table's probe loop: a libc memcmp call costs ~50 instructions per row on short
// keys (profiled), more than the rest of the lookup.
inline bool SameBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(a.data());
  const uint8_t* q = reinterpret_cast<const uint8_t*>(b.data());
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
      if (io::LoadU64LE(p + i) != io::LoadU64LE(q + i)) return false;
    }
    return io::LoadU64LE(p + n - 8) == io::LoadU64LE(q + n - 8);  // overlapping tail
  }
  if (n >= 4) {
    return io::LoadU32LE(p) == io::LoadU32LE(q) &&
           io::LoadU32LE(p + n - 4) == io::LoadU32LE(q + n - 4);
  }
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

}  // namespace pyfileindex::hash
