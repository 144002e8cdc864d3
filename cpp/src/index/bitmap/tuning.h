// The bitmap writer's tuning constants, in one place. None of them changes the bytes written
// (those follow Java's rules alone); they trade build time against the build's memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring/container_span.h"

namespace pyfileindex::index::bitmap::tuning {

// --- ingest (values -> per-key rows) ---------------------------------------------------

// Rows whose per-row scratch (key ids, offsets of the valid rows, hashes) is held at once.
// Pieces are aligned to row numbers and divide a container's span, so a piece never spans two
// containers; and the scratch stays in the core's cache whatever the caller's batch size.
inline constexpr int64_t kScratchRows = int64_t{1} << 14;
static_assert(roaring::kRowsPerContainer % kScratchRows == 0);

// The first this many distinct keys keep their rows as containers; later keys as row lists.
// In low-cardinality columns the frequent keys come first and a container holds their rows at
// two bytes a row; a rare key's few rows are cheaper as a list than as a container with its
// own heap block and record.
inline constexpr size_t kFrequentKeys = size_t{1} << 12;

// Rows sampled (at a piece's start and middle) to decide whether a numeric piece comes in long
// runs of equal keys, and how many of them must repeat the row before. The run path costs a
// lookup, an append and a mispredicted loop exit per run, so it only pays for runs longer than
// about a dozen rows: a sorted or clustered column.
inline constexpr int64_t kRunSampleRows = 32;
inline constexpr int64_t kRunSampleRepeats = kRunSampleRows - 3;

// Rows sampled at a string piece's start to decide whether most rows equal the row before
// (a sorted or clustered column): then a row takes the previous row's id after one compare.
inline constexpr size_t kRepeatSampleRows = 32;

// How many rows ahead a row's dictionary slot (or a rare key's row list) is prefetched; the
// key bytes found in the slot (or the list's last entry) are prefetched at half that distance,
// once the slot itself is likely cached.
inline constexpr int64_t kPrefetchRows = 16;

// At the start of this container span, each frequent key's room is reserved for the rows the
// caller announced, at the rate of its spans so far: enough spans to project from, early
// enough that the rooms are not grown by doubling many times.
inline constexpr uint32_t kSpansBeforeReserving = 4;

// --- memory (only when the caller's policy allows trimming the C library's heap) -------

// A dictionary holding this many heap bytes hands the free heap back after it is freed (and
// after the rows are): its many small blocks would otherwise stay resident under the payload.
// Below it a trim, which walks the whole heap, costs more than it returns, and a task writing
// file after file would only fault the pages in again for the next file.
inline constexpr size_t kTrimAfterDictionaryBytes = size_t{2} << 20;
// The same for the rare keys' row lists: after freeing the lists of this many keys, or this
// many bytes of them.
inline constexpr size_t kTrimAfterRareKeys = size_t{1} << 17;
inline constexpr size_t kTrimAfterRareBytes = size_t{8} << 20;

// --- layout --------------------------------------------------------------------------------

// From this many rare keys, the row lists held inline in the lists' array are gathered (into
// 12 bytes a key) before the payload is written, so that array (16 bytes a key) can go first.
// For fewer keys the gathered copy would only add to the peak.
inline constexpr size_t kGatherInlineListsFromKeys = size_t{1} << 17;

// Rare keys' rows gathered into one array are written out of it this many entries at a time,
// the written entries' pages handed back after each stretch: a system call per stretch, and
// the gathered copy shrinks as the payload grows.
inline constexpr size_t kGatheredEntriesPerReturn = size_t{64} << 10;

}  // namespace pyfileindex::index::bitmap::tuning
