// BlockBuilder: a Bitmap32 assembled container by container, in ascending key order, straight
// from 65536-bit blocks or from sorted intervals -- no serialized bytes in between.
//
// Range-bitmap selections compute their answer one row block at a time; writing each block
// into the container that will hold it skips the encode + deserialize round trip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/bitmap32.h"

namespace pyfileindex::roaring {

class BlockBuilder {
 public:
  BlockBuilder();
  ~BlockBuilder();
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // 1024 host words for the next block, with unspecified content: the caller writes all of
  // them, then calls CommitWords. Valid until CommitWords.
  uint64_t* Words();
  // Adds the block written into Words(), holding `cardinality` (> 4096) values, as the
  // container for high bits `key`. Keys must ascend across all Commit/Add calls.
  void CommitWords(uint16_t key, uint32_t cardinality);
  // Adds the block written into Words() whatever it holds: nothing when empty, an array
  // container up to 4096 values, else the words in place.
  void CommitBlock(uint16_t key);
  // Adds an array container of `cardinality` (1..4096) values for `key` and returns its
  // storage, with room for `cardinality + slack` values: the caller writes the values there,
  // ascending, before the next call.
  uint16_t* AddArray(uint16_t key, uint32_t cardinality, uint32_t slack);
  // Adds the container for `key` holding the union of the half-open intervals
  // [bounds[2i], bounds[2i+1]) for i < count: sorted, disjoint, non-adjacent, within 65536.
  void AddIntervals(uint16_t key, const uint32_t* bounds, size_t count);

  // The bitmap built so far; the builder starts over empty.
  Bitmap32 Finish();

 private:
  roaring_bitmap_t* bitmap_;
  ::roaring::internal::bitset_container_t* pending_ = nullptr;  // Words()' container
};

}  // namespace pyfileindex::roaring
