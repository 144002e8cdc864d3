#include "java/compute_if_absent_order.h"

#include <algorithm>
#include <cstring>

namespace pyfileindex::java {

namespace {

// java.util.HashMap constants.
constexpr size_t kInitialCapacity = 16;
constexpr size_t kInitialThreshold = 12;
constexpr size_t kTreeifyThreshold = 8;
// Past this many keys the table nears Java's maximum capacity, whose resize rule differs: the
// replay handles it.
constexpr size_t kMaxChainOnlyKeys = size_t{1} << 28;

uint32_t SpreadBits(int32_t hash_code) {
  return static_cast<uint32_t>(JavaHashMapOrder::Spread(hash_code));
}

// Whether no bucket of a `capacity`-slot table holds kTreeifyThreshold of the first `count`
// keys. Every key inserted while the table had this capacity found in its bin only earlier
// keys of the same bucket, so then none of them made treeifyBin run.
bool NoBinReachesTreeify(const int32_t* hash_codes, size_t count, size_t capacity,
                         uint8_t* per_bucket) {
  if (count < kTreeifyThreshold) return true;
  std::memset(per_bucket, 0, capacity);
  const uint32_t mask = static_cast<uint32_t>(capacity - 1);
  for (size_t id = 0; id < count; ++id) {
    if (++per_bucket[SpreadBits(hash_codes[id]) & mask] == kTreeifyThreshold) return false;
  }
  return true;
}

}  // namespace

std::optional<std::vector<uint32_t>> ChainOnlyComputeIfAbsentOrder(const int32_t* hash_codes,
                                                                   size_t count,
                                                                   bool hit_after_last_insert,
                                                                   memory::Scratch scratch) {
  if (count == 0) return std::vector<uint32_t>();
  if (count > kMaxChainOnlyKeys) return std::nullopt;
  // The table sizes the map goes through without treeifyBin: 16 slots at the first call; a
  // call that finds size > threshold doubles both first. Keys 0..threshold are inserted at or
  // below each capacity.
  size_t last_capacity = kInitialCapacity;
  for (size_t threshold = kInitialThreshold; threshold + 1 < count; threshold *= 2) {
    last_capacity *= 2;
  }
  std::vector<uint8_t> own_counts;
  uint8_t* const counts = scratch.TakeOr(last_capacity, &own_counts);
  size_t capacity = kInitialCapacity;
  size_t threshold = kInitialThreshold;
  for (;;) {
    const size_t inserted_by_now = std::min(count, threshold + 1);
    if (!NoBinReachesTreeify(hash_codes, inserted_by_now, capacity, counts)) return std::nullopt;
    if (inserted_by_now == count) break;
    capacity *= 2;
    threshold *= 2;
  }
  if (hit_after_last_insert && count > threshold) capacity *= 2;

  // Counting sort by final bucket; ids placed newest first within each bucket.
  const uint32_t mask = static_cast<uint32_t>(capacity - 1);
  std::vector<uint32_t> own_bucket_end;
  uint32_t* const bucket_end = scratch.TakeOr(capacity + 1, &own_bucket_end);
  std::fill(bucket_end, bucket_end + capacity + 1, 0u);
  for (size_t id = 0; id < count; ++id) ++bucket_end[(SpreadBits(hash_codes[id]) & mask) + 1];
  for (size_t b = 1; b <= capacity; ++b) bucket_end[b] += bucket_end[b - 1];
  // bucket_end[b + 1] is now where bucket b ends; filling each bucket from its end backwards
  // with ids in ascending order leaves the newest first.
  std::vector<uint32_t> order(count);
  uint32_t* const ends = bucket_end + 1;
  for (size_t id = 0; id < count; ++id) {
    order[--ends[SpreadBits(hash_codes[id]) & mask]] = static_cast<uint32_t>(id);
  }
  return order;
}

std::vector<uint32_t> ReplayedComputeIfAbsentOrder(const int32_t* hash_codes, size_t count,
                                                   bool hit_after_last_insert,
                                                   const JavaHashMapOrder::KeyCompare& compare) {
  JavaHashMapOrder map(JavaHashMapOrder::Mode::kComputeIfAbsent, compare);
  for (size_t id = 0; id < count; ++id) map.InsertNew(hash_codes[id]);
  if (hit_after_last_insert) map.TouchExisting();
  return map.IterationOrder();
}

std::vector<uint32_t> ComputeIfAbsentOrder::IterationOrder(
    const JavaHashMapOrder::KeyCompare& compare, memory::Scratch scratch) const {
  std::optional<std::vector<uint32_t>> order = ChainOnlyComputeIfAbsentOrder(
      hash_codes_.data(), size(), hit_after_last_insert_, scratch);
  if (order) return std::move(*order);
  return ReplayedComputeIfAbsentOrder(hash_codes_.data(), size(), hit_after_last_insert_,
                                      compare);
}

}  // namespace pyfileindex::java
