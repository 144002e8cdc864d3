#include "roaring/block_builder.h"

#include "roaring/block_ops.h"
#include "roaring/checked_alloc.h"
#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

using namespace ::roaring::internal;  // CRoaring's container layer

BlockBuilder::BlockBuilder() : bitmap_(Checked(roaring_bitmap_create())) {}

BlockBuilder::~BlockBuilder() {
  if (pending_ != nullptr) bitset_container_free(pending_);
  roaring_bitmap_free(bitmap_);
}

uint64_t* BlockBuilder::Words() {
  if (pending_ == nullptr) pending_ = Checked(bitset_container_create_uninitialized());
  return pending_->words;
}

void BlockBuilder::CommitWords(uint16_t key, uint32_t cardinality) {
  pending_->cardinality = static_cast<int32_t>(cardinality);
  ra_append(&bitmap_->high_low_container, key, pending_, BITSET_CONTAINER_TYPE);
  pending_ = nullptr;
}

void BlockBuilder::CommitBlock(uint16_t key) {
  const BlockOps& ops = Ops();
  const uint32_t cardinality = ops.cardinality(pending_->words);
  if (cardinality == 0) return;  // Words() keeps the block for the next one
  if (cardinality > kArrayMaxValues) {
    CommitWords(key, cardinality);
  } else {
    // positions() writes up to two entries past the values: the array's slack.
    ops.positions(pending_->words, AddArray(key, cardinality, 2));
  }
}

uint16_t* BlockBuilder::AddArray(uint16_t key, uint32_t cardinality, uint32_t slack) {
  array_container_t* array =
      Checked(array_container_create_given_capacity(static_cast<int32_t>(cardinality + slack)));
  array->cardinality = static_cast<int32_t>(cardinality);
  ra_append(&bitmap_->high_low_container, key, array, ARRAY_CONTAINER_TYPE);
  return array->array;
}

void BlockBuilder::AddIntervals(uint16_t key, const uint32_t* bounds, size_t count) {
  if (count == 0) return;
  const uint32_t card = IntervalsCardinality(bounds, count);
  if (card == 0) return;
  // The smallest of the three encodings (runs on a tie: the fewest values to touch).
  const uint64_t run_bytes = 4 * uint64_t{count};
  const uint64_t array_bytes = card <= kArrayMaxValues ? 2 * uint64_t{card} : UINT64_MAX;
  const uint64_t bitset_bytes = 8192;
  if (run_bytes <= array_bytes && run_bytes <= bitset_bytes) {
    run_container_t* run = Checked(run_container_create_given_capacity(static_cast<int32_t>(count)));
    for (size_t i = 0; i < count; ++i) {
      run->runs[i].value = static_cast<uint16_t>(bounds[2 * i]);
      run->runs[i].length = static_cast<uint16_t>(bounds[2 * i + 1] - bounds[2 * i] - 1);
    }
    run->n_runs = static_cast<int32_t>(count);
    ra_append(&bitmap_->high_low_container, key, run, RUN_CONTAINER_TYPE);
  } else if (array_bytes <= bitset_bytes) {
    array_container_t* array =
        Checked(array_container_create_given_capacity(static_cast<int32_t>(card)));
    uint16_t* out = array->array;
    for (size_t i = 0; i < count; ++i) {
      for (uint32_t v = bounds[2 * i]; v < bounds[2 * i + 1]; ++v) *out++ = static_cast<uint16_t>(v);
    }
    array->cardinality = static_cast<int32_t>(card);
    ra_append(&bitmap_->high_low_container, key, array, ARRAY_CONTAINER_TYPE);
  } else {
    bitset_container_t* bits = Checked(bitset_container_create());
    for (size_t i = 0; i < count; ++i) bitset_set_range(bits->words, bounds[2 * i], bounds[2 * i + 1]);
    bits->cardinality = static_cast<int32_t>(card);
    ra_append(&bitmap_->high_low_container, key, bits, BITSET_CONTAINER_TYPE);
  }
}

Bitmap32 BlockBuilder::Finish() {
  roaring_bitmap_t* done = bitmap_;
  bitmap_ = Checked(roaring_bitmap_create());
  return Bitmap32(done);
}

}  // namespace pyfileindex::roaring
