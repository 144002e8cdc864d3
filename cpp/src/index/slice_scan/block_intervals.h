// Row intervals of one 65536-row block: the form sorted and clustered columns take (run
// containers), combined without expanding anything into words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pyfileindex/status.h"
#include "roaring/roaring_view.h"

namespace pyfileindex::index::slice_scan {

using roaring::RoaringView;

// Half-open intervals [v[2i], v[2i+1]) within one block, sorted and disjoint.
using Intervals = std::vector<uint32_t>;

// What a walk over slices learns of the runs it read: views parsed with
// RoaringView::RunCheck::kOnUse are checked here container by container, as the walk reads
// them. The reads cut a damaged run at its block's end, so the walk stays inside its buffers;
// its answer is then Corrupt (status()).
class RunsRead {
 public:
  // Container i of `view` is about to be read.
  void Note(const RoaringView& view, size_t i) { inside_ = inside_ && view.RunsEndInside(i); }
  // OK, or Corrupt when a container noted holds a run past its block.
  Status status() const;

 private:
  bool inside_ = true;
};

// Container i of `view` as intervals: runs as they are, consecutive array values joined
// (a bitmap container is not read: callers expand those into words).
void ToIntervals(const RoaringView& view, size_t i, Intervals* out);

// Whether a walk on intervals should go on to words at container i of `slice`, with
// `tie_intervals` intervals in its ties so far. A step on intervals costs per interval, a
// step on words per word of the block: a bitmap container, or an array or run container (or
// ties) of more intervals than a word step touches under sparse ties, is read as words. (The
// shuffled rows of a small file give array containers of thousands of single-row intervals.)
bool ReadAsWords(const RoaringView& slice, size_t i, size_t tie_intervals);

// x split by s into the parts inside and outside s (either output may be null). Sorted,
// disjoint inputs give sorted, disjoint outputs; any input stays within bounds and linear.
void SplitBy(const Intervals& x, const Intervals& s, Intervals* inside, Intervals* outside);

// The rows SplitBy(x, s, ...) would put inside s, counted without writing them.
uint32_t RowsInside(const Intervals& x, const Intervals& s);

// Sets the bits of the intervals in `words` (1024 words, host order).
void SetIntervals(const Intervals& v, uint64_t* words);

// Pieces collected in any order (disjoint or not) sorted and joined where they overlap or
// touch: what BlockBuilder::AddIntervals takes.
void SortAndJoin(Intervals* v);

// The rows the intervals hold.
uint32_t IntervalRows(const Intervals& v);

}  // namespace pyfileindex::index::slice_scan
