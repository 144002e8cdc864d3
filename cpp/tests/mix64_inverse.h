// The inverse of hash::Mix64, for tests that build keys landing in chosen table slots.
#pragma once

#include <cstdint>

namespace pyfileindex::testing {

// The inverse of an odd multiplier modulo 2^64 (Newton's iteration).
inline uint64_t InverseMod64(uint64_t odd) {
  uint64_t inverse = odd;
  for (int i = 0; i < 6; ++i) inverse *= 2 - odd * inverse;
  return inverse;
}

// The key whose hash::Mix64 is `mixed`.
inline uint64_t UnMix64(uint64_t mixed) {
  uint64_t h = mixed * InverseMod64(0x94D049BB133111EBull);
  h ^= (h >> 31) ^ (h >> 62);  // undoes h ^= h >> 31
  return h * InverseMod64(0xBF58476D1CE4E5B9ull);
}

}  // namespace pyfileindex::testing
