#include "index/bitmap/ids_by_sort_key.h"

#include <algorithm>

namespace pyfileindex::index::bitmap {

namespace {

// Below this many keys a comparison sort is as fast and needs no digit counts.
constexpr size_t kRadixFrom = 2048;
// Digits of at most this many bits: a digit's counts (8 KiB) stay in the core's cache, and a
// pass scatters the keys to no more places than the cache keeps lines open for (12-bit
// digits made 200k keys slower to sort in two passes than in three).
constexpr int kMaxDigitBits = 11;

// The keys' low `bits` bits in `digits` digits of `digit_bits` each.
struct Digits {
  int digits;
  int digit_bits;
  uint32_t Of(uint64_t key, int d) const {
    return static_cast<uint32_t>((key >> (d * digit_bits)) & ((uint64_t{1} << digit_bits) - 1));
  }
  size_t buckets() const { return size_t{1} << digit_bits; }
};

// As few digits as cover the bits in which the keys differ (the bits above are the same in
// every key and order nothing), as narrow as that number allows: keys spanning 2^23 take
// three passes of 8-bit digits, where 11-bit digits scattered to 8 times as many places.
Digits DigitsFor(int bits) {
  Digits out;
  out.digits = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
  out.digit_bits = (bits + out.digits - 1) / out.digits;
  return out;
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
  uint64_t differ = 0;
  for (size_t i = 0; i < n; ++i) differ |= keys[i] ^ keys[0];
  if (differ == 0) return ids;  // every key equal: ties stay by id
  const Digits digits = DigitsFor(64 - __builtin_clzll(differ));
  // Every digit's counts in one read of the keys.
  std::vector<uint32_t> counts(static_cast<size_t>(digits.digits) * digits.buckets(), 0);
  for (size_t i = 0; i < n; ++i) {
    for (int d = 0; d < digits.digits; ++d) ++counts[d * digits.buckets() + digits.Of(keys[i], d)];
  }
  std::vector<uint64_t> own_keys;
  std::vector<uint32_t> own_ids;
  uint64_t* from_keys = keys;
  uint64_t* to_keys = scratch.TakeOr(n, &own_keys);
  uint32_t* from_ids = ids.data();
  uint32_t* to_ids = scratch.TakeOr(n, &own_ids);
  for (int d = 0; d < digits.digits; ++d) {
    uint32_t* const count = counts.data() + d * digits.buckets();
    if (count[digits.Of(from_keys[0], d)] == n) continue;  // every key has this digit
    uint32_t start = 0;
    for (size_t b = 0; b < digits.buckets(); ++b) {
      const uint32_t here = count[b];
      count[b] = start;
      start += here;
    }
    // Stable: equal digits keep the order of the previous pass (ids ascending at first).
    for (size_t i = 0; i < n; ++i) {
      const uint32_t at = count[digits.Of(from_keys[i], d)]++;
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
