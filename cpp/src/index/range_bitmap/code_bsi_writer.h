// Serializes the bit-sliced index over dictionary codes (Paimon's BitSliceIndexBitmap.Appender,
// built with min = 0, max = cardinality - 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/dense_roaring_encoder.h"

namespace pyfileindex::index::range_bitmap {

// Java: max(1, 64 - numberOfLeadingZeros(long max)) with max = cardinality - 1 sign-extended,
// so an index without keys (max = -1) has 64 slices.
int SliceCount(int64_t cardinality);

// The BSI section for rows [0, row_count), encoded and ready to be written. Bit r of
// `validity` (LSB-first words, at least ceil(row_count / 64) of them, zero past row_count)
// marks a row with a key; `codes` holds those rows' codes, in row order, each < cardinality.
class CodeBsi {
 public:
  CodeBsi(uint32_t row_count, int64_t cardinality, const uint64_t* validity,
          const uint32_t* codes);

  // Bytes of the section.
  size_t size() const;
  // Writes the section (size() bytes) to `out`, releasing each bitmap once written.
  void WriteTo(uint8_t* out);

 private:
  size_t HeaderSize() const;

  int slices_;
  roaring::DenseRoaringEncoder ebm_;
  std::vector<roaring::DenseRoaringEncoder> slice_encoders_;
};

// Appends the BSI section to `out` (CodeBsi in one step).
void WriteCodeBsi(uint32_t row_count, int64_t cardinality, const uint64_t* validity,
                  const uint32_t* codes, std::vector<uint8_t>* out);

}  // namespace pyfileindex::index::range_bitmap
