// Counts the heap bytes live during one fuzz input, so a target can assert that what a reader
// holds is bounded by the bytes it was given: damage must not cost more memory than the input
// justifies. Under AddressSanitizer every allocation is seen (malloc included, CRoaring's
// too) through the sanitizer's allocation hooks; without it, operator new and delete are
// replaced and only C++ allocations are seen.
#pragma once

#include <cstddef>

namespace pyfileindex::fuzz {

// Starts a measurement: the peak is counted from the bytes live now.
void StartMeasuring();
// The most bytes live at once above the start, since StartMeasuring().
size_t PeakBytesSinceStart();
// Aborts (a crash the fuzzer keeps) when the peak passed kMemoryPerInputByte * input_size +
// kMemorySlack, naming `what`.
void CheckMemoryBound(size_t input_size, const char* what);

// The counters the allocation hooks feed.
void CountAllocated(size_t bytes);
void CountFreed(size_t bytes);

// Bytes a reader may hold per input byte, and a constant for what does not grow with the input
// (tables of fixed size, a result over the 2^31 rows a file may claim: about 16 bytes for each
// of its 2^15 roaring containers).
inline constexpr size_t kMemoryPerInputByte = 32;
inline constexpr size_t kMemorySlack = size_t{16} << 20;

}  // namespace pyfileindex::fuzz
