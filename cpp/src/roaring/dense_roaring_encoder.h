// Writes a bitmap, given as dense 65536-bit blocks, directly in Java RoaringBitmap's portable
// bytes -- without building a roaring bitmap first.
//
// The range-bitmap and bsi writers build their EBM and bit slices in Java with add() only, so
// Java's container kind depends on the final content alone (JavaContainerKind,
// portable_layout.h).
// Encoding from blocks lets a writer turn a block of rows into slice bits at once, instead of
// adding rows to many roaring bitmaps one by one, and keeps each slice at its final size.
// Tests prove the bytes equal roaring::Bitmap32::Serialize() (Paimon's
// RoaringBitmap32.serialize) on random content.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/block_ops.h"
#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

class DenseRoaringEncoder {
 public:
  // `java_containers` false: plain array/bitmap containers (no run search), for bitmaps that
  // are only read back, never compared with Java bytes.
  explicit DenseRoaringEncoder(bool java_containers = true) : java_containers_(java_containers) {}

  // Adds the container for high bits `key` from `words` (bit v of the block is bit v & 63 of
  // words[v >> 6]). Keys must be added in ascending order; an empty block adds nothing.
  void AddBlock(uint16_t key, const uint64_t* words);
  // The same container from its set bits as `count` intervals [bounds[2k], bounds[2k + 1]):
  // ascending, neither overlapping nor touching, within the block. No block of words is
  // filled or scanned: rows that come as runs (a sorted column) encode in time and memory
  // proportional to the intervals.
  void AddIntervals(uint16_t key, const uint32_t* bounds, size_t count);

  // Bytes of the portable format.
  size_t SerializedSize() const;
  // Writes the portable format (SerializedSize() bytes) to `out`.
  void WriteTo(uint8_t* out) const;
  // Frees the encoded containers (after they were written).
  void Release();
  // WriteTo then Release, the container bodies moved out piece by piece: the bitmap is never
  // resident twice.
  void MoveTo(uint8_t* out);
  // Room for `blocks` more blocks of any content, taken once the bitmap holds kReserveFrom
  // bytes: a large bitmap growing block by block then never copies itself into a larger
  // buffer, and a small one takes no page of its own (only the pages used become resident).
  void ReserveBlocks(size_t blocks);

  uint64_t cardinality() const { return cardinality_; }

 private:
  struct Container {
    uint16_t key;
    uint16_t card_minus_1;
    ContainerKind kind;
    uint32_t body_offset;  // into body_
  };

  // A container of `card` values in `runs` runs (Java's choice of kind, its place in body_,
  // room reserved); false for an empty block, which adds nothing. FinishContainer records it
  // once its body is written.
  bool StartContainer(uint16_t key, uint32_t card, uint32_t runs, Container* c);
  void FinishContainer(const Container& c, uint32_t card);

  std::vector<Container> containers_;
  std::vector<uint8_t> body_;  // container bodies, back to back
  size_t reserve_blocks_ = 0;  // blocks ReserveBlocks announced, room not yet taken
  uint64_t cardinality_ = 0;
  bool has_run_ = false;
  bool java_containers_ = true;
};

}  // namespace pyfileindex::roaring
