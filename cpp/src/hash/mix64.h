// Mix64: spreads the bits of a 64-bit key over the whole word, for open-addressing tables
// that take their slot from the top bits.
#pragma once

#include <cstdint>

namespace pyfileindex::hash {

// Multiply, fold, multiply (SplitMix64's finalizer without its first fold). A single
// Fibonacci multiply clusters strided keys (arithmetic sequences, the bit patterns of doubles)
// into long probe chains; the fold between two multiplies spreads them as random keys are.
inline uint64_t Mix64(uint64_t bits) {
  uint64_t h = bits * 0xBF58476D1CE4E5B9ull;
  h ^= h >> 31;
  return h * 0x94D049BB133111EBull;
}

}  // namespace pyfileindex::hash
