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

// --- expected keys (distinct_estimate.h) --------------------------------------------------

// Once a column has this many keys at the start of a piece (its lookup table has grown past its
// first size), a sample of the batch's remaining rows estimates the keys to come, and the
// per-key arrays are sized for them. A column that stays below never pays for the sample.
inline constexpr size_t kEstimateFromKeys = size_t{1} << 10;
// Rows sampled, in pairs of neighbours (a column in runs of equal keys, sorted or clustered,
// then repeats within its pairs instead of looking as if every row brought a new key). Enough
// that a domain of a million keys shows about 30 repeats; fewer than the minimum (a batch's
// last rows) estimate nothing.
inline constexpr int64_t kEstimateSampleRows = int64_t{1} << 13;
inline constexpr int64_t kEstimateMinSampleRows = int64_t{1} << 10;
// The arrays are sized for this much more than the keys the estimate says are still to come:
// it leans low, and an array that outgrows its size near the end of a file costs a full copy
// for a few keys.
inline constexpr double kEstimateMargin = 1.25;

// --- key dictionaries (key_dictionary.{h,cc}) --------------------------------------------

// A dictionary's hash table starts with 2^this slots: enough for a low-cardinality column
// without growing, small enough that a writer per column costs little.
inline constexpr unsigned kFirstTableSlotsLog2 = 10;
// Past this many slots a table outgrows the caches: callers prefetch the slots (and, for
// strings, the key bytes) of keys a few rows ahead.
inline constexpr size_t kLargeTableSlots = size_t{1} << 16;
// Integer keys of a small domain get a direct table (the window) over this many values:
// a key's id in one load, no hashing; only the pages of values that occur become resident.
inline constexpr uint64_t kWindowKeys = uint64_t{1} << 16;
// The window opens (over the keys so far) once this many lookups went to the hash table:
// a sorted column looks a key up once per run, and a window opened for its few keys, spread
// over the whole window, would make every page of it resident: more than the index itself.
inline constexpr uint64_t kWindowAfterLookups = 4096;
// The first lookup inserts the first key; the window is centred on it, so it opens later.
static_assert(kWindowAfterLookups > 1, "the window opens once a key is in");
// A window step other than 1 needs this many keys on it: a few keys of a dense domain (a
// clustered column's first runs) share a divisor by chance, and the keys between them would
// then miss the window for good.
inline constexpr size_t kStepEvidenceKeys = 32;

// --- row stores (row_sets.{h,cc}, container_rows.cc) -------------------------------------

// A rare key's row list first holds this many entries, in a block carved from a large chunk
// (ListBlocks: no malloc call or header per key) where the column's keys keep few rows; lists
// of columns with more rows a key start in a malloc'd array of the next size. Past the block,
// lists move to malloc'd arrays of
// 4k + 2 entries (16k + 8 bytes), which fill malloc's 16-byte-aligned chunks exactly (glibc:
// 8 bytes of header): a key with 10 rows takes a 64-byte chunk, not the 80 bytes that 16
// entries would, a difference that adds up over a million such keys. Lists double from
// there: growing by half takes twice the reallocations, which glibc serves from its slow
// paths, and doubling leaves the peak where it was (the lists are freed before the payload is
// written).
inline constexpr uint32_t kFirstRowListCapacity = 6;
// A rare key's pending row list moves into a roaring bitmap at this many entries, which
// bounds the memory of a key that turns out frequent at about what Java's bitmap takes.
inline constexpr uint32_t kRowListFlushEntries = uint32_t{1} << 14;
// A frequent key's body (its closed containers, then the open one's rows at 2 bytes each)
// first takes this many bytes, then doubles; a body shrunk at a container span's end keeps
// this much room past its closed containers. A small start keeps a column of thousands of
// keys small; doubling keeps a frequent key's reallocations few.
inline constexpr size_t kFirstContainerBodyBytes = 64;

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

// The meta is staged in pieces of this many bytes before they go to the payload: the staging
// buffer's pages count at the build's peak, beside the payload, and a small index's meta
// would touch as much of a larger buffer as it has bytes.
inline constexpr size_t kMetaPieceBytes = size_t{4} << 10;

// From this many rare keys, the row lists held inline in the lists' array are gathered (into
// 12 bytes a key) before the payload is written, so that array (16 bytes a key) can go first.
// For fewer keys the gathered copy would only add to the peak.
inline constexpr size_t kGatherInlineListsFromKeys = size_t{1} << 17;

// Rare keys' rows gathered into one array are written out of it this many entries at a time,
// the written entries' pages handed back after each stretch: a system call per stretch, and
// the gathered copy shrinks as the payload grows.
inline constexpr size_t kGatheredEntriesPerReturn = size_t{64} << 10;

}  // namespace pyfileindex::index::bitmap::tuning
