// The values of a Bitmap32 as maximal ranges, read container by container: a run container
// gives its runs, a bitset container its words' runs of set bits, so a bitmap of a few long
// ranges (the rows of NOT, IS NOT NULL or a wide range predicate) costs its runs, not its
// rows: 2^31 rows in one range took seconds value by value.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "roaring/bitmap32.h"

namespace pyfileindex::roaring {

// [begin, end) ranges, ascending, none adjacent to the next.
std::vector<std::pair<uint64_t, uint64_t>> ValueRanges(const Bitmap32& bitmap);

}  // namespace pyfileindex::roaring
