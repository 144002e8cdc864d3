// Rows with the k largest or smallest codes (Paimon's BitSliceIndexBitmap topK / bottomK), in
// one top-down walk over the bit slices read in place, one 65536-row block at a time.
//
// Java keeps G, rows certainly among the k, and E, rows tied so far (at first every keyed row
// of the selection). From the most significant slice down, the rows of E that win on the
// slice's bit (set for topK, clear for bottomK) either all join G, when G stays below k with
// them, or become E. Here each block computes its winners and their count; once the total is
// known they are moved into G or become E. A block holds E and G as row intervals while its
// EBM and the slices it meets are runs or arrays (sorted and clustered columns), else as
// words, visiting only the non-zero words once E is sparse; blocks whose E empties drop out.
#pragma once

#include <cstdint>

#include "pyfileindex/status.h"
#include "roaring/roaring_view.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index::range_bitmap {

using roaring::RoaringView;

// G and E after the walk (all of E when it has at most k rows to begin with). `strict` cuts
// the tie at the k-th code to the tied rows with the highest positions, so exactly k remain
// (Java drops E's lowest positions). `found` (may be null) restricts the rows considered;
// `slices[i]` must be set for every i < slice_count. Views parsed with
// RoaringView::RunCheck::kOnUse are checked container by container as the walk reads them:
// Corrupt when one holds a run past its block.
Result<roaring::Bitmap32> TopKWalk(const RoaringView& ebm, const RoaringView* const* slices,
                                   int slice_count, const roaring::Bitmap32* found, uint64_t k,
                                   bool strict, bool largest);

}  // namespace pyfileindex::index::range_bitmap
