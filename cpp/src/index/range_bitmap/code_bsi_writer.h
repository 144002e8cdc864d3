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

// The BSI section, built a 65536-row block at a time and then written.
class CodeBsi {
 public:
  // `blocks`: how many blocks will be added (room is taken for them up front).
  CodeBsi(int64_t cardinality, size_t blocks);

  // Adds the block of rows [65536 * key, 65536 * key + 65536); blocks in ascending order.
  // Bit r of `validity` (kBlockWords words) marks row r as holding a key, whose code (less
  // than the cardinality) is codes[r]. `codes` is read for every row of each 64-row word with a
  // key in it; the codes of rows without a key are ignored.
  void AddBlock(uint16_t key, const uint64_t* validity, const uint32_t* codes);
  // The same for a block given as `runs` runs of one code: run i covers the rows up to
  // ends[i] (ascending, from the end of run i - 1 or row 0) with code codes[i]. Each slice is
  // set a run at a time in one block of words, so a sorted block needs neither a code per row
  // nor a block of words per slice.
  void AddRuns(uint16_t key, const uint64_t* validity, const uint32_t* ends,
               const uint32_t* codes, size_t runs);

  // Bytes of the section.
  size_t size() const;
  // Writes the section (size() bytes) to `out`, releasing each bitmap once written.
  void WriteTo(uint8_t* out);

 private:
  size_t HeaderSize() const;

  int slices_;
  int code_bits_;  // slices that can hold a bit of a code
  roaring::DenseRoaringEncoder ebm_;
  std::vector<roaring::DenseRoaringEncoder> slice_encoders_;
  // One block of every code slice (AddBlock), or of one slice (AddRuns): sized on first use.
  std::vector<uint64_t> slice_words_;
};

}  // namespace pyfileindex::index::range_bitmap
