#include "java/compute_if_absent_order.h"

#include <algorithm>
#include <cstring>

namespace pyfileindex::java {

namespace {

// java.util.HashMap constants.
constexpr size_t kInitialCapacity = 16;
constexpr size_t kInitialThreshold = 12;
constexpr size_t kTreeifyThreshold = 8;
constexpr size_t kMinTreeifyCapacity = 64;
// Past this many keys the table nears Java's maximum capacity, whose resize rule differs: the
// replay handles it.
constexpr size_t kMaxClassWiseKeys = size_t{1} << 28;

uint32_t SpreadBits(int32_t hash_code) {
  return static_cast<uint32_t>(JavaHashMapOrder::Spread(hash_code));
}

// The capacity of the table after `count` insertions and, if `hit_after_last_insert`, one more
// call (the resize it runs first). Keys 0..threshold are inserted at or below each capacity.
size_t FinalCapacity(size_t count, bool hit_after_last_insert) {
  size_t capacity = kInitialCapacity;
  size_t threshold = kInitialThreshold;
  for (; threshold + 1 < count; threshold *= 2) capacity *= 2;
  if (hit_after_last_insert && count > threshold) capacity *= 2;
  return capacity;
}

// Marks in `filled` (a byte per bucket of the `final_capacity`-slot table) every final bucket
// whose keys shared a bin of kTreeifyThreshold keys at some table size: treeifyBin ran on that
// bin. A bin of a `capacity`-slot table holds the keys of one class (spread hash modulo
// `capacity`), and their final buckets are the class's buckets of the final table.
enum class Fills {
  kNone,
  kSome,
  kOnSmallTable,  // a bin filled on a table under 64 slots: treeifyBin resized the whole map
};
Fills MarkFilledClasses(const int32_t* hash_codes, size_t count, size_t final_capacity,
                       uint8_t* per_bucket, uint8_t* filled) {
  std::memset(filled, 0, final_capacity);
  Fills fills = Fills::kNone;
  size_t capacity = kInitialCapacity;
  size_t threshold = kInitialThreshold;
  for (;; capacity *= 2, threshold *= 2) {
    // Every key inserted while the table had this capacity found in its bin only earlier keys
    // of its class; a bin reaching the threshold here did not reach it at a smaller capacity.
    const size_t inserted_by_now = std::min(count, threshold + 1);
    if (inserted_by_now >= kTreeifyThreshold) {
      std::memset(per_bucket, 0, capacity);
      const uint32_t mask = static_cast<uint32_t>(capacity - 1);
      for (size_t id = 0; id < inserted_by_now; ++id) {
        const uint32_t bucket = SpreadBits(hash_codes[id]) & mask;
        if (per_bucket[bucket] == kTreeifyThreshold || ++per_bucket[bucket] < kTreeifyThreshold) {
          continue;
        }
        if (capacity < kMinTreeifyCapacity) return Fills::kOnSmallTable;
        fills = Fills::kSome;
        if (filled[bucket]) continue;  // a coarser class holding this one is marked already
        for (size_t b = bucket; b < final_capacity; b += capacity) filled[b] = 1;
      }
    }
    if (inserted_by_now == count) return fills;
  }
}

// Replaces, in `order` (the counting sort's, by final bucket), the keys of the marked buckets
// by their order in a replay of those keys alone, made with the whole map's table sizes.
void ReplayFilledClasses(const int32_t* hash_codes, size_t count, bool hit_after_last_insert,
                         const JavaHashMapOrder::KeyCompare& compare, uint32_t mask,
                         const uint8_t* filled, std::vector<uint32_t>* order,
                         size_t* replayed) {
  std::vector<uint32_t> ids;  // the replay's key ids, in the whole map's ids
  for (size_t id = 0; id < count; ++id) {
    if (filled[SpreadBits(hash_codes[id]) & mask]) ids.push_back(static_cast<uint32_t>(id));
  }
  if (replayed != nullptr) *replayed = ids.size();
  if (ids.empty()) return;
  JavaHashMapOrder::KeyCompare by_whole_ids;
  if (compare) {
    by_whole_ids = [&compare, &ids](uint32_t a, uint32_t b) { return compare(ids[a], ids[b]); };
  }
  JavaHashMapOrder classes(JavaHashMapOrder::Mode::kComputeIfAbsent, by_whole_ids);
  for (uint32_t id : ids) {
    classes.GrowAsWholeMapAt(id);  // the call inserting key `id` finds `id` keys in the map
    classes.InsertNew(hash_codes[id]);
  }
  classes.GrowAsWholeMapAt(hit_after_last_insert ? count : count - 1);
  // Both orders visit the marked buckets in ascending order with the same keys in each, so
  // the replay's order fills the counting sort's places of marked keys one after another.
  const std::vector<uint32_t> replay_order = classes.IterationOrder();
  size_t next = 0;
  for (uint32_t& id : *order) {
    if (filled[SpreadBits(hash_codes[id]) & mask]) id = ids[replay_order[next++]];
  }
}

}  // namespace

std::optional<std::vector<uint32_t>> ClassWiseComputeIfAbsentOrder(
    const int32_t* hash_codes, size_t count, bool hit_after_last_insert,
    const JavaHashMapOrder::KeyCompare& compare, memory::Scratch scratch, size_t* replayed) {
  if (replayed != nullptr) *replayed = 0;
  if (count == 0) return std::vector<uint32_t>();
  if (count > kMaxClassWiseKeys) return std::nullopt;
  const size_t capacity = FinalCapacity(count, hit_after_last_insert);
  std::vector<uint8_t> own_counts, own_filled;
  uint8_t* const per_bucket = scratch.TakeOr(capacity, &own_counts);
  uint8_t* const filled = scratch.TakeOr(capacity, &own_filled);
  const Fills fills = MarkFilledClasses(hash_codes, count, capacity, per_bucket, filled);
  if (fills == Fills::kOnSmallTable) return std::nullopt;

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
  if (fills == Fills::kSome) {
    ReplayFilledClasses(hash_codes, count, hit_after_last_insert, compare, mask, filled, &order,
                        replayed);
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
  std::optional<std::vector<uint32_t>> order = ClassWiseComputeIfAbsentOrder(
      hash_codes_.data(), size(), hit_after_last_insert_, compare, scratch);
  if (order) return std::move(*order);
  return ReplayedComputeIfAbsentOrder(hash_codes_.data(), size(), hit_after_last_insert_,
                                      compare);
}

}  // namespace pyfileindex::java
