// Rows whose code c has lo <= c <= hi, in one top-down walk over the bit slices (O'Neil and
// Quass's range evaluation), one 65536-row block at a time. A code is whatever unsigned value
// a bit-sliced index holds: range-bitmap's dictionary codes, or the numbers in bsi's slices.
//
// From the most significant slice down, each block keeps the rows whose code so far equals
// the bounds' common prefix; where the bounds part, it keeps the rows tied with the lower
// bound (A) and those tied with the upper bound (B), and every row that leaves a tie on the
// inside joins the answer. Each slice is read once (Java's gte + lte formulas read the common
// slices twice), a set whose bound has no more 1 (lower) / 0 (upper) bits joins the answer
// whole, and a block stops as soon as both ties are empty; once they are sparse only the
// slice words under them are read. Blocks whose EBM is a run container (no NULLs in them:
// sorted and clustered data too) are walked on intervals while their slices are runs or
// arrays, without expanding anything into words.
//
// The answer equals Java's gte(lo) AND lte(hi) over the same slices (both are exact
// comparisons of the slices' binary value), including for damaged slices.
#pragma once

#include <cstdint>
#include <vector>

#include "pyfileindex/status.h"
#include "roaring/roaring_view.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index::slice_scan {

using roaring::RoaringView;

class CodeRangeScan {
 public:
  // Over `slice_count` slices (1..64). No lower bound: lo = 0; no upper bound: hi = all ones
  // (2^slice_count - 1). Requires lo <= hi < 2^slice_count and not (lo = 0 and hi = all
  // ones): that range is the EBM itself.
  CodeRangeScan(int slice_count, uint64_t lo, uint64_t hi);

  // The walk reads slices [lowest_slice(), slice_count) only.
  int lowest_slice() const { return lowest_slice_; }

  // The rows; `slices[i]` must be set for every slice the walk reads. Views parsed with
  // RoaringView::RunCheck::kOnUse are checked container by container as the walk reads them:
  // Corrupt when one holds a run past its block.
  Result<roaring::Bitmap32> Run(const RoaringView& ebm, const RoaringView* const* slices) const;
  // The same over views whose runs Parse checked whole (RunCheck::kAtParse): the walk cannot
  // meet a damaged run, so there is no error to return.
  roaring::Bitmap32 RunOverCheckedViews(const RoaringView& ebm,
                                        const RoaringView* const* slices) const;

  // How a step changes the ties; see scan_ops.h for the masks.
  struct Step {
    int slice;
    bool split;  // the bounds part here: B = A & s, A = A & ~s
    bool a_live, b_live;  // sets the step updates (before it)
    bool a_bit, b_bit;  // the bound's bit: the tie keeps rows whose slice bit equals it
    bool a_gain, b_gain;  // rows leaving the tie are inside the range
    bool a_done, b_done;  // after the step the tie joins the answer whole
  };
  const std::vector<Step>& steps() const { return steps_; }

 private:
  // The walk's rows; *runs Corrupt when a container it read holds a run past its block.
  roaring::Bitmap32 Walk(const RoaringView& ebm, const RoaringView* const* slices,
                         Status* runs) const;

  std::vector<Step> steps_;
  int lowest_slice_ = 0;
};

}  // namespace pyfileindex::index::slice_scan
