// The bloom-filter writer's tuning constants, in one place. None of them changes the bytes
// written (the bits a value sets follow Java's rules alone); they trade build time against
// the build's memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyfileindex::index::bloom_filter::tuning {

// --- setting bits (bloom_probes.{h,cc}) -------------------------------------------------

// In a bit set of several MiB nearly every probe misses the cache and the TLB: probes are
// prefetched a few hashes ahead there, so those misses overlap. A set that fits the
// last-level cache only pays for the prefetches, so smaller sets go without.
inline constexpr uint32_t kPrefetchMinBitSetBytes = uint32_t{8} << 20;
inline constexpr size_t kPrefetchHashesAhead = 8;

// The AVX2 path computes the positions of eight hashes at once on the stack, for up to this
// many hash functions; filters with more (rare: k follows from fpp) take the scalar path.
inline constexpr int32_t kMaxAvx2HashFunctions = 32;

// --- dropping repeats before they are hashed or set (recent_hashes.h, recent_values.h) ---

// RecentHashes: the table's slots (8 bytes each: 8 KiB stays in the first-level cache), and
// the blocks (of FastHash::kHashBlock hashes) it pauses for after a block of mostly new hashes.
inline constexpr size_t kRecentHashSlots = 1024;
inline constexpr uint32_t kRecentHashesPauseBlocks = 16;

// RecentValues: values longer than this many bytes are always kept (hashed); shorter ones are
// recognised from their exact bytes, held in a slot's four words.
inline constexpr size_t kRecentValueMaxBytes = 32;
// Blocks (of up to FastHash::kHashBlock values) the table pauses for after a block where more
// than a quarter of the values are new; blocks where nearly all are new double the pause, up
// to the maximum. A column whose values repeat only far apart never pays for the table: its
// checks, at most one block in kRecentValuesMaxPauseBlocks + 1, are then too rare to cost
// anything.
inline constexpr uint32_t kRecentValuesPauseBlocks = 16;
inline constexpr uint32_t kRecentValuesMaxPauseBlocks = 256;
// A table grows once, from a quarter of its largest size to all of it, when a large file
// keeps missing in it (after this many consulted rows): a thousand distinct values thrash a
// small table, which then costs more than hashing every row, while a table a few times the
// values' count pays. Its memory counts against the index's (the build's peak), so the
// largest table takes at most a third of the bit set's bytes, and 2^kRecentValuesMaxSlotBits
// slots at most; a filter too small for 2^kRecentValuesMinSlotBits slots goes without.
inline constexpr int kRecentValuesMaxSlotBits = 12;
inline constexpr int kRecentValuesMinSlotBits = 6;
inline constexpr uint64_t kRecentValuesGrowAfterRows = uint64_t{1} << 16;

}  // namespace pyfileindex::index::bloom_filter::tuning
