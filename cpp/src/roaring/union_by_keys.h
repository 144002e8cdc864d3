// UnionByKeys: the union of many bitmaps, one 16-bit key at a time, each key the cheapest way
// its containers allow.
//
// A bitmap index answers IN with the union of the listed keys' bitmaps: rare keys' rows are a
// few array containers per 65536 rows, and ORing them through a whole 65536-bit block (as
// CRoaring's or_many does) costs a block's fill and scans for a few hundred values. The inputs
// are RoaringViews, so an index's bitmaps are united where they lie in its bytes, never
// copied into CRoaring containers first (RoaringView::Over lends the same view of a Bitmap32).
#pragma once

#include <optional>
#include <vector>

#include "roaring/bitmap32.h"
#include "roaring/roaring_view.h"

namespace pyfileindex::roaring {

// The union of `inputs`, key by key:
//   - the key's containers are all arrays of 4096 values or fewer together (the union is an
//     array): up to four are merged as sorted arrays, more are set in a block that is read
//     back and cleared only where they fell;
//   - otherwise they are ORed into a block (arrays bit by bit, bitmaps word by word), kept as
//     an array or a bitmap container by its count.
// Nullopt when an input holds run containers: their union is left to CRoaring, which keeps
// runs. The views' arrays must ascend strictly (CheckPortableContent checks a view's bytes).
std::optional<Bitmap32> UnionByKeys(const std::vector<const RoaringView*>& inputs);

}  // namespace pyfileindex::roaring
