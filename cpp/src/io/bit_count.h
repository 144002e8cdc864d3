// Counting set bits without a popcount instruction.
//
// The library is built for baseline x86-64, where __builtin_popcount is a call into libgcc
// (a table lookup per byte); paths that count many words use this, or their own variant
// compiled for a CPU with the instruction (roaring/block_ops.cc picks one at run time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pyfileindex::io {

// The set bits of `x`, by adding neighbouring bit fields in the register (SWAR).
inline uint32_t PortablePopcount(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<uint32_t>((x * 0x0101010101010101ull) >> 56);
}

// The set bits of bytes[0, size), eight bytes at a time.
inline uint64_t CountSetBits(const uint8_t* bytes, size_t size) {
  uint64_t count = 0;
  size_t at = 0;
  for (; at + 8 <= size; at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + at, sizeof(word));
    count += PortablePopcount(word);
  }
  for (; at < size; ++at) count += PortablePopcount(bytes[at]);
  return count;
}

}  // namespace pyfileindex::io
