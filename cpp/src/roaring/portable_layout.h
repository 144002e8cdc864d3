// How a bitmap's portable bytes (Java RoaringBitmap.serialize) are laid out when they are
// written without a roaring bitmap: Java's choice of container kind, the head (cookie, run
// flags, descriptors, offsets) and container bodies from intervals. Shared by the writers that
// encode straight from blocks (dense_roaring_encoder.h, interval_bitmap_writer.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/block_ops.h"

namespace pyfileindex::roaring {

enum class ContainerKind : uint8_t { kArray, kBitmap, kRun };

inline constexpr uint32_t kBitmapBytes = 8 * kBlockWords;  // a bitmap container's body

// The kind Java's runOptimize() leaves a container of `card` values in `runs` runs in, for
// bitmaps built with add() only (spec: VERIFIED-roaring-hashmap.md Q1):
//   card <= 4096: run iff 2 + 4*runs < 2*card, else array;
//   card >  4096: run iff 2 + 4*runs < 8192,   else bitmap.
// More than 2047 runs never make a run container (callers that skip the run search pass more).
// Inline: the bitmap writer asks once per container it closes.
inline ContainerKind JavaContainerKind(uint32_t card, uint32_t runs) {
  const uint64_t run_bytes = 2 + 4 * uint64_t{runs};
  if (card <= kArrayMaxValues) {
    return run_bytes < 2 * uint64_t{card} ? ContainerKind::kRun : ContainerKind::kArray;
  }
  return run_bytes < kBitmapBytes ? ContainerKind::kRun : ContainerKind::kBitmap;
}
// Bytes of that container's body.
inline uint32_t ContainerBodyBytes(ContainerKind kind, uint32_t card, uint32_t runs) {
  switch (kind) {
    case ContainerKind::kRun: return 2 + 4 * runs;
    case ContainerKind::kArray: return 2 * card;
    case ContainerKind::kBitmap: break;
  }
  return kBitmapBytes;
}

// The head of a bitmap of `containers` containers, `has_run` if any is a run container.
struct PortableHead {
  static constexpr size_t kNoOffsetThreshold = 4;  // run-flavoured heads: offsets from 4

  size_t containers = 0;
  bool has_run = false;

  size_t bytes() const {
    const size_t n = containers;
    if (!has_run) return 8 + 8 * n;
    return 4 + (n + 7) / 8 + 4 * n + (has_offsets() ? 4 * n : 0);
  }
  // Whether the head carries the offset table (always without runs; with runs from 4
  // containers).
  bool has_offsets() const { return !has_run || containers >= kNoOffsetThreshold; }
  // Writes the cookie (and count) and clears the run flags; returns where the descriptors
  // begin (key, cardinality - 1; 4 bytes each), followed by the offsets if has_offsets().
  uint8_t* WriteStart(uint8_t* out) const;
  // Marks container i a run container (has_run only), given WriteStart's `out`.
  static void SetRunFlag(uint8_t* out, size_t i) {
    out[4 + i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
};

// Values in `count` intervals [bounds[2k], bounds[2k + 1]).
uint32_t IntervalsCardinality(const uint32_t* bounds, size_t count);

// Appends [begin, end) to intervals `bounds` (ascending), joined to the last one if it ends
// at `begin`: runs of rows, some of them adjacent, become the intervals below.
inline void AppendInterval(std::vector<uint32_t>* bounds, uint32_t begin, uint32_t end) {
  if (!bounds->empty() && bounds->back() == begin) {
    bounds->back() = end;
  } else {
    bounds->insert(bounds->end(), {begin, end});
  }
}

// Writes a bitmap container's body: the block's 1024 words (host order), little-endian.
void WriteWordsBody(const uint64_t* words, uint8_t* out);

// Writes the body of a container of `kind` whose values are the `count` intervals
// [bounds[2k], bounds[2k + 1]) (ascending, neither overlapping nor touching, within one
// block) holding `card` values: ContainerBodyBytes(kind, card, count) bytes.
void WriteIntervalsBody(ContainerKind kind, const uint32_t* bounds, size_t count, uint8_t* out);

}  // namespace pyfileindex::roaring
