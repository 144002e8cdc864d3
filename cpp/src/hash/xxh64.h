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

// out[i] = Xxh64(values[i]) (seed 0) for i < count <= kXxh64ManyMax. Two to three times as
// fast as one call per value when lengths vary: with AVX-512 (else AVX2), values below 32 bytes
// are hashed thirty-two (twelve) at a time, one per vector lane; otherwise values are hashed
// grouped by the length of their tail, so no branch by length is mispredicted and consecutive
// hashes overlap.
constexpr size_t kXxh64ManyMax = 1024;
void Xxh64Many(const std::string_view* values, size_t count, uint64_t* out);

// The same for values in Arrow's string layout: value i is data[offsets[i], offsets[i + 1])
// (offsets must not decrease). Read in place: no view is made per value.
void Xxh64Many(const char* data, const int32_t* offsets, size_t count, uint64_t* out);
void Xxh64Many(const char* data, const int64_t* offsets, size_t count, uint64_t* out);

}  // namespace pyfileindex::hash
