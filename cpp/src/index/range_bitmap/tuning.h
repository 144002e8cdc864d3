// The range-bitmap writer's tuning constants, in one place. None of them changes the bytes
// written (those follow Java's rules alone); they trade build time against the build's memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring/container_span.h"

namespace pyfileindex::index::range_bitmap::tuning {

// Rows whose keys are mapped and interned at a time. The per-batch scratch (the rows' ordered
// keys and their ids) then stays in the first-level cache, and small beside the index of a
// sorted column of few keys, which is only a few bytes a key; a larger batch saves nothing on
// shuffled columns either. Divides a container's span, so a batch never spans two blocks.
inline constexpr uint32_t kInternBatchRows = 1024;
static_assert(roaring::kRowsPerContainer % kInternBatchRows == 0);

// Runs an open block collects before it keeps an id per row instead: no more than a full
// block keeps as runs when it closes (PackedRowIds keeps runs while their 8 bytes each take
// less than the block's packed ids: at least this many runs at one bit a row).
inline constexpr size_t kMaxOpenRuns = 1024;

// String rows hashed, and their table slots prefetched, before any of them is probed, so the
// cache misses of different rows overlap.
inline constexpr int64_t kStringHashGroup = 16;

}  // namespace pyfileindex::index::range_bitmap::tuning
