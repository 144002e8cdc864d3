// Writes a bitmap whose blocks come as intervals of set bits straight into its portable bytes
// (Java RoaringBitmap.serialize), holding nothing per container: the caller walks its blocks
// twice, once into an IntervalBitmapShape (how many containers, whether any is a run
// container, the bodies' bytes: the size), then again into an IntervalBitmapWriter over the
// output. Bitmaps of a sorted column's row runs encode this way in time and memory of their
// intervals, with no block of words and no copy of the bytes beside the output.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

class IntervalBitmapShape {
 public:
  // A block of `count` intervals [bounds[2k], bounds[2k + 1]) (ascending, neither overlapping
  // nor touching, within the block); an empty one adds no container.
  void Add(const uint32_t* bounds, size_t count);
  size_t SerializedSize() const { return head().bytes() + body_bytes_; }
  PortableHead head() const { return PortableHead{containers_, has_run_}; }

 private:
  size_t containers_ = 0;
  size_t body_bytes_ = 0;
  bool has_run_ = false;
};

class IntervalBitmapWriter {
 public:
  // Writes to out[0, shape.SerializedSize()), which the same blocks, added in the same order,
  // fill exactly.
  IntervalBitmapWriter(const IntervalBitmapShape& shape, uint8_t* out);
  // Block `key` (ascending) as IntervalBitmapShape::Add took it.
  void Add(uint16_t key, const uint32_t* bounds, size_t count);

 private:
  uint8_t* out_;
  uint8_t* descriptors_;
  uint8_t* offsets_;  // null: the head has no offset table
  uint8_t* body_;     // where the next container's body goes
  size_t next_ = 0;   // containers written
};

}  // namespace pyfileindex::roaring
