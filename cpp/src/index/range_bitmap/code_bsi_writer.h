// Serializes the bit-sliced index over dictionary codes (Paimon's BitSliceIndexBitmap.Appender,
// built with min = 0, max = cardinality - 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "index/range_bitmap/packed_row_ids.h"
#include "roaring/dense_roaring_encoder.h"
#include "roaring/interval_bitmap_writer.h"

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
  // nor a block of words per slice. `validity` null: every row up to ends[runs - 1] holds a
  // key; then no block of words is used at all (AddValidRuns).
  void AddRuns(uint16_t key, const uint64_t* validity, const uint32_t* ends,
               const uint32_t* codes, size_t runs);

  // Bytes of the section.
  size_t size() const;
  // Writes the section (size() bytes) to `out`, releasing each bitmap once written.
  void WriteTo(uint8_t* out);

 private:
  size_t HeaderSize() const;
  // AddRuns without null rows: each slice's container straight from the runs whose code has
  // its bit (DenseRoaringEncoder::AddIntervals).
  void AddValidRuns(uint16_t key, const uint32_t* ends, const uint32_t* codes, size_t runs);

  int slices_;
  int code_bits_;  // slices that can hold a bit of a code
  roaring::DenseRoaringEncoder ebm_;
  std::vector<roaring::DenseRoaringEncoder> slice_encoders_;
  // One block of every code slice (AddBlock), or of one slice (AddRuns): sized on first use.
  std::vector<uint64_t> slice_words_;
  std::vector<uint32_t> intervals_;  // AddValidRuns: one slice's intervals of the block
};

// The same section for blocks that all keep their ids as runs and hold no null row (a sorted
// or clustered column without nulls): measured in one walk over the runs and written in a
// second, straight into the output. Nothing is held per container, so the slices are never
// resident beside the output (CodeBsi keeps them whole until WriteTo).
class RunCodeBsi {
 public:
  // Block b (rows from 65536 * b) is blocks[b], each has_runs(); `map` turns a run's id into
  // its code (nullptr: ids are codes). Both are read again by WriteTo.
  RunCodeBsi(int64_t cardinality, const std::vector<PackedRowIds>* blocks, const uint32_t* map);

  size_t size() const;
  void WriteTo(uint8_t* out);

 private:
  // visit(key, bounds, count) with each block's intervals of slice `slice` (kEbm: its rows).
  static constexpr int kEbm = -1;
  template <typename Visit>
  void ForEachBlock(int slice, Visit&& visit);

  int slices_;
  int code_bits_;
  const std::vector<PackedRowIds>* blocks_;
  const uint32_t* map_;
  roaring::IntervalBitmapShape ebm_;
  std::vector<roaring::IntervalBitmapShape> slice_shapes_;
  std::vector<uint32_t> intervals_;  // one block's intervals of one slice
};

}  // namespace pyfileindex::index::range_bitmap
