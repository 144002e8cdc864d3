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

std::vector<uint32_t> IdsBySortKey(std::vector<uint64_t> keys) {
  const size_t n = keys.size();
  std::vector<uint32_t> ids(n);
  for (uint32_t id = 0; id < n; ++id) ids[id] = id;
  if (n < kRadixFrom) {
    std::sort(ids.begin(), ids.end(), [&keys](uint32_t a, uint32_t b) {
      return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
    });
    return ids;
  }
  // Every digit's counts in one read of the keys.
  std::vector<std::array<uint32_t, kBuckets>> counts(kDigits);
  for (auto& digit : counts) digit.fill(0);
  for (uint64_t key : keys) {
    for (int d = 0; d < kDigits; ++d) ++counts[d][DigitOf(key, d)];
  }
  std::vector<uint64_t> to_keys(n);
  std::vector<uint32_t> to_ids(n);
  for (int d = 0; d < kDigits; ++d) {
    std::array<uint32_t, kBuckets>& count = counts[d];
    if (count[DigitOf(keys[0], d)] == n) continue;  // every key has this digit
    uint32_t start = 0;
    for (uint32_t& c : count) {
      const uint32_t here = c;
      c = start;
      start += here;
    }
    // Stable: equal digits keep the order of the previous pass (ids ascending at first).
    for (size_t i = 0; i < n; ++i) {
      const uint32_t at = count[DigitOf(keys[i], d)]++;
      to_keys[at] = keys[i];
      to_ids[at] = ids[i];
    }
    keys.swap(to_keys);
    ids.swap(to_ids);
  }
  return ids;
}

}  // namespace pyfileindex::index::bitmap
