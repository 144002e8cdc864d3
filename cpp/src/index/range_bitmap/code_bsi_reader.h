// Lazy reader of the code bit-slice index (Paimon's BitSliceIndexBitmap).
//
// Open() reads the small header only. Range and equality selections read the EBM and the bit
// slices they need in place (RoaringView, no copy) in one top-down walk (code_range_scan.h),
// and so does TopN (code_top_k.h). Everything loaded is cached and shared read-only by later
// calls and threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "sync/lazy_cell.h"
#include "roaring/roaring_view.h"
#include "io/byte_span.h"
#include "pyfileindex/status.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index::range_bitmap {

using roaring::RoaringView;

using roaring::Bitmap32;
using sync::LazyCell;

class CodeBsiReader {
 public:
  // `bsi`: the BSI section (to the end of the payload). `cardinality` and `row_count` come from
  // the index header; the slice count must be the one Java writes for that cardinality.
  static Result<std::unique_ptr<CodeBsiReader>> Open(io::ByteSpan bsi, int64_t cardinality,
                                                     uint32_t row_count);

  int slice_count() const { return slice_count_; }

  // Rows with a key (the existence bitmap).
  Result<const Bitmap32*> Ebm() const;

  // Rows whose code c has low <= c <= high (bounds are clamped to the dictionary's codes).
  // Equal to Java's eq / gt / gte and not(...) compositions over the slices.
  Result<Bitmap32> CodesBetween(int64_t low, int64_t high) const;

  // Rows whose code is one of `codes` (ascending, distinct; codes outside the dictionary
  // match nothing), in one walk over the slices for all of them (code_set_scan.h).
  Result<Bitmap32> CodesIn(const std::vector<int64_t>& codes) const;

  // Rows whose code c has wanted[c] (codes beyond `wanted` are not wanted), read by decoding
  // every row's code from all slices: the way to select many scattered codes, where one
  // CodesBetween per run of codes would walk the slices again for each run.
  Result<Bitmap32> RowsWithCodeIn(const std::vector<bool>& wanted) const;

  // Java topK (`largest`) / bottomK: the k keyed rows of `found` (all keyed rows if null) with
  // the largest / smallest codes. When the k-th code is tied, `strict` keeps only the tied rows
  // with the highest positions so exactly k rows remain; otherwise all tied rows are kept.
  Result<Bitmap32> TopK(uint64_t k, const Bitmap32* found, bool strict, bool largest) const;

  // The code of `row`, read from the slices that hold it (slice i holds the rows whose code
  // has bit i); -1 when the row has no key (NULL).
  Result<int64_t> CodeOfRow(uint32_t row) const;

  // Slices read so far, as views or as bitmaps (for tests of laziness).
  size_t LoadedSlices() const { return loaded_slices_.load(); }

 private:
  struct Extent {
    uint32_t offset;  // from the start of `body_`
    uint32_t length;
  };

  CodeBsiReader() = default;
  Result<Bitmap32> Load(Extent extent, const char* what) const;
  Result<RoaringView> LoadView(Extent extent, const char* what, RoaringView::RunCheck runs) const;
  Result<const RoaringView*> EbmView() const;
  Result<const RoaringView*> SliceView(int i) const;

  io::ByteSpan body_;
  uint32_t row_count_ = 0;
  int64_t cardinality_ = 0;
  int slice_count_ = 0;
  Extent ebm_extent_{0, 0};
  std::unique_ptr<Extent[]> slice_extents_;
  LazyCell<Bitmap32> ebm_;
  LazyCell<RoaringView> ebm_view_;
  std::unique_ptr<LazyCell<RoaringView>[]> slice_views_;
  mutable std::atomic<size_t> loaded_slices_{0};
};

// The `n` smallest values of `bitmap` (all of it when it has at most n).
Bitmap32 FirstN(const Bitmap32& bitmap, uint64_t n);

}  // namespace pyfileindex::index::range_bitmap
