// Serializes the bit-sliced index over dictionary codes (Paimon's BitSliceIndexBitmap.Appender,
// built with min = 0, max = cardinality - 1).
#pragma once

#include <cstdint>
#include <vector>

namespace pyfileindex::index::range_bitmap {

// Java: max(1, 64 - numberOfLeadingZeros(long max)) with max = cardinality - 1 sign-extended,
// so an index without keys (max = -1) has 64 slices.
int SliceCount(int64_t cardinality);

// Appends the BSI section for rows [0, row_count). Bit r of `validity` (LSB-first words, at
// least ceil(row_count / 64) of them, zero past row_count) marks a row with a key; `codes`
// holds those rows' codes, in row order, each < cardinality.
void WriteCodeBsi(uint32_t row_count, int64_t cardinality, const uint64_t* validity,
                  const uint32_t* codes, std::vector<uint8_t>* out);

}  // namespace pyfileindex::index::range_bitmap
