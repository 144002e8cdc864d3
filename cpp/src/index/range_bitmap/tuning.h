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

// --- fixed-width keys (ordered_key_interner.cc) --------------------------------------------

// The direct window over key values: it starts this wide, and grows (doubling, to cover new
// keys) while it spans at most max(kFirstWindow, 2 x the rows) values and kMaxWindow at most.
// Only the pages of values that occur become resident, so a window costs address space more
// than memory; tied to the rows, a small file never maps a large one, and the cap keeps the
// address space of one writer bounded.
inline constexpr uint64_t kFirstWindow = uint64_t{1} << 16;
inline constexpr uint64_t kMaxWindow = uint64_t{1} << 26;
// Window entries per page-sized step when copying or scanning a window: pages without a key
// are skipped, so they never become resident.
inline constexpr size_t kWindowPageEntries = 1024;
// Windows from this many entries hand their pages back as they are ranked; a smaller one's
// memory is left to the next file's writer, which would fault it in again.
inline constexpr uint64_t kHandBackWindow = uint64_t{1} << 20;
// The ranked window is handed back this many entries at a time: a system call per stretch.
inline constexpr uint64_t kHandBackStretchEntries = uint64_t{64} << 10;

// The hash table's smallest size, and the cap on its first guess (an eighth of the rows
// expected, as slots for distinct keys): growing from small rehashes every key several times
// over, while a guess from the rows alone would map a large table for a column of few keys.
inline constexpr size_t kMinSlots = 1024;
inline constexpr uint64_t kFirstSlotsGuessMax = uint64_t{1} << 16;

// Past these sizes a window's or table's lookups miss the caches: the rows kPrefetchRows
// further on are prefetched (a table's slot twice as far, then the key behind it).
inline constexpr uint64_t kCachedWindow = uint64_t{1} << 16;
inline constexpr size_t kCachedSlots = size_t{1} << 16;
inline constexpr size_t kPrefetchRows = 16;

}  // namespace pyfileindex::index::range_bitmap::tuning
