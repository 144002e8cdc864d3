// XXH64: the 64-bit xxHash function (seeded), as published by its author.
//
// Paimon's bloom-filter index hashes CHAR/VARCHAR/BINARY/VARBINARY values with XXH64 and seed 0
// (not XXH3), so this must be the exact standard function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pyfileindex::hash {

// XXH64 of `size` bytes at `data` (which may be null when size is 0).
uint64_t Xxh64(const void* data, size_t size, uint64_t seed = 0);

inline uint64_t Xxh64(std::string_view bytes, uint64_t seed = 0) {
  return Xxh64(bytes.data(), bytes.size(), seed);
}

}  // namespace pyfileindex::hash
