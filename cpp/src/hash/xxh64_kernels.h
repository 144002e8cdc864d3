// Xxh64Many's kernels one by one (internal): Xxh64Many runs the one this CPU supports best,
// so tests call each of them directly to check every kernel the machine can run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pyfileindex::hash::detail {

// Same contracts as the Xxh64Many overloads. Call a vector kernel only where its
// Has*Kernel() is true.
void Xxh64ManySorted(const std::string_view* values, size_t count, uint64_t* out);
void Xxh64ManySorted(const char* data, const int32_t* offsets, size_t count, uint64_t* out);
void Xxh64ManySorted(const char* data, const int64_t* offsets, size_t count, uint64_t* out);

bool HasAvx512Kernel();
void Xxh64ManyAvx512(const std::string_view* values, size_t count, uint64_t* out);
void Xxh64ManyAvx512(const char* data, const int32_t* offsets, size_t count, uint64_t* out);
void Xxh64ManyAvx512(const char* data, const int64_t* offsets, size_t count, uint64_t* out);

bool HasAvx2Kernel();
void Xxh64ManyAvx2(const std::string_view* values, size_t count, uint64_t* out);
void Xxh64ManyAvx2(const char* data, const int32_t* offsets, size_t count, uint64_t* out);
void Xxh64ManyAvx2(const char* data, const int64_t* offsets, size_t count, uint64_t* out);

}  // namespace pyfileindex::hash::detail
