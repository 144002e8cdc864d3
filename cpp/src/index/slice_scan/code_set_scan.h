// Rows whose code is one of a set of codes, in one top-down walk over the bit slices per
// 65536-row block: the way to answer IN of many values without walking the slices once per
// value.
//
// From the most significant slice down, the codes that share the bits read so far share one
// tie (the block's rows whose code agrees with them so far). At each slice a tie whose codes
// all have the same bit there keeps the rows with that bit; a tie whose codes differ there
// splits in two. Each slice container of a block is located and expanded once for all ties,
// a tie that empties stops its branch, and once a tie is sparse only the slice words under
// it are read. After the last slice every tie holds the rows of exactly one code, and their
// union is the answer.
//
// The answer equals the union of the equality selections of each code over the same slices
// (each is an exact comparison of the slices' binary value with the code), damaged slices too.
#pragma once

#include <cstdint>
#include <vector>

#include "pyfileindex/status.h"
#include "roaring/bitmap32.h"
#include "roaring/roaring_view.h"

namespace pyfileindex::index::slice_scan {

using roaring::RoaringView;

class CodeSetScan {
 public:
  // Over `slice_count` slices (1..64); `codes` ascending, distinct, each below
  // 2^slice_count, at least one.
  CodeSetScan(int slice_count, std::vector<uint64_t> codes);

  // The rows; `slices[i]` must be set for every slice. Views parsed with
  // RoaringView::RunCheck::kOnUse are checked container by container as the walk reads them:
  // Corrupt when one holds a run past its block.
  Result<roaring::Bitmap32> Run(const RoaringView& ebm, const RoaringView* const* slices) const;

 private:
  int slice_count_;
  std::vector<uint64_t> codes_;
};

}  // namespace pyfileindex::index::slice_scan
