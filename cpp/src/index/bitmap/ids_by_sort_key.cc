#include "index/bitmap/ids_by_sort_key.h"

#include <algorithm>
#include <array>

namespace pyfileindex::index::bitmap {

namespace {

// Below this many keys a comparison sort is as fast and needs no digit counts.
constexpr size_t kRadixFrom = 2048;
constexpr int kDigitBits = 11;
constexpr int kDigits = (64 + kDigitBits - 1) / kDigitBits;
constexpr size_t kBuckets = size_t{1} << kDigitBits;

uint32_t DigitOf(uint64_t key, int d) {
  return static_cast<uint32_t>((key >> (d * kDigitBits)) & (kBuckets - 1));
}

}  // namespace

std::vector<uint32_t> IdsBySortKey(uint64_t* keys, size_t n, memory::Scratch scratch) {
  std::vector<uint32_t> ids(n);
  for (uint32_t id = 0; id < n; ++id) ids[id] = id;
  if (n < kRadixFrom) {
    std::sort(ids.begin(), ids.end(), [keys](uint32_t a, uint32_t b) {
      return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
    });
    std::vector<uint64_t> by_id(keys, keys + n);
    for (size_t i = 0; i < n; ++i) keys[i] = by_id[ids[i]];
    return ids;
  }
  // Every digit's counts in one read of the keys.
  std::vector<std::array<uint32_t, kBuckets>> counts(kDigits);
  for (auto& digit : counts) digit.fill(0);
  for (size_t i = 0; i < n; ++i) {
    for (int d = 0; d < kDigits; ++d) ++counts[d][DigitOf(keys[i], d)];
  }
  std::vector<uint64_t> own_keys;
  std::vector<uint32_t> own_ids;
  uint64_t* from_keys = keys;
  uint64_t* to_keys = scratch.TakeOr(n, &own_keys);
  uint32_t* from_ids = ids.data();
  uint32_t* to_ids = scratch.TakeOr(n, &own_ids);
  for (int d = 0; d < kDigits; ++d) {
    std::array<uint32_t, kBuckets>& count = counts[d];
    if (count[DigitOf(from_keys[0], d)] == n) continue;  // every key has this digit
    uint32_t start = 0;
    for (uint32_t& c : count) {
      const uint32_t here = c;
      c = start;
      start += here;
    }
    // Stable: equal digits keep the order of the previous pass (ids ascending at first).
    for (size_t i = 0; i < n; ++i) {
      const uint32_t at = count[DigitOf(from_keys[i], d)]++;
      to_keys[at] = from_keys[i];
      to_ids[at] = from_ids[i];
    }
    std::swap(from_keys, to_keys);
    std::swap(from_ids, to_ids);
  }
  if (from_keys != keys) std::copy(from_keys, from_keys + n, keys);
  if (from_ids != ids.data()) std::copy(from_ids, from_ids + n, ids.data());
  return ids;
}

}  // namespace pyfileindex::index::bitmap
