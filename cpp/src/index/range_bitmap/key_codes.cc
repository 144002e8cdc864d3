#include "index/range_bitmap/key_codes.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "hash/mix64.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::range_bitmap {

namespace {

// Direct-address tables stay below this many entries (4 bytes each).
constexpr uint64_t kDenseMaxRange = uint64_t{1} << 26;

template <typename U>
FixedCodes<U> AssignDense(std::vector<U> keys, U min, uint64_t range) {
  FixedCodes<U> out;
  // table[k - min]: 1 if present, then rewritten to the code.
  std::vector<uint32_t> table(static_cast<size_t>(range) + 1, 0);
  for (U k : keys) table[static_cast<size_t>(k - min)] = 1;
  uint32_t code = 0;
  for (size_t v = 0; v < table.size(); ++v) {
    if (table[v] != 0) {
      table[v] = code++;
      out.distinct.push_back(static_cast<U>(min + static_cast<U>(v)));
    }
  }
  if constexpr (std::is_same_v<U, uint32_t>) {
    // Each key becomes its code where it lies: no second per-row array.
    for (uint32_t& k : keys) k = table[static_cast<size_t>(k - min)];
    out.codes = std::move(keys);
  } else {
    std::vector<uint32_t> codes(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) codes[i] = table[static_cast<size_t>(keys[i] - min)];
    out.codes = std::move(codes);
  }
  return out;
}

// Stable LSD radix sort of (key - min, index) by key, 11 bits per pass (2048-entry histograms
// stay in L1), over only the `bits` low bits the key range needs.
constexpr int kDigitBits = 11;
constexpr uint32_t kDigits = 1u << kDigitBits;

template <typename U>
FixedCodes<U> AssignRadix(std::vector<U> keys, U min, int bits) {
  const size_t n = keys.size();
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  std::vector<uint32_t> index(n);
  std::vector<uint32_t> histograms(static_cast<size_t>(passes) * kDigits, 0);
  for (size_t i = 0; i < n; ++i) {
    const U k = static_cast<U>(keys[i] - min);
    keys[i] = k;
    index[i] = static_cast<uint32_t>(i);
    for (int p = 0; p < passes; ++p) {
      ++histograms[p * kDigits + ((k >> (kDigitBits * p)) & (kDigits - 1))];
    }
  }
  std::vector<U> keys_tmp(n);
  std::vector<uint32_t> index_tmp(n);
  for (int p = 0; p < passes; ++p) {
    uint32_t* h = histograms.data() + static_cast<size_t>(p) * kDigits;
    // A digit every key shares cannot reorder anything.
    if (std::any_of(h, h + kDigits, [n](uint32_t c) { return c == n; })) continue;
    uint32_t sum = 0;
    for (uint32_t d = 0; d < kDigits; ++d) {
      const uint32_t count = h[d];
      h[d] = sum;
      sum += count;
    }
    const int shift = kDigitBits * p;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t at = h[(keys[i] >> shift) & (kDigits - 1)]++;
      keys_tmp[at] = keys[i];
      index_tmp[at] = index[i];
    }
    keys.swap(keys_tmp);
    index.swap(index_tmp);
  }
  keys_tmp = std::vector<U>();

  FixedCodes<U> out;
  std::vector<uint32_t>& codes = index_tmp;  // reuse: codes by original position
  codes.resize(n);
  uint32_t code = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i] != keys[i - 1]) ++code;
    if (i == 0 || keys[i] != keys[i - 1]) out.distinct.push_back(static_cast<U>(keys[i] + min));
    codes[index[i]] = code;
  }
  out.codes = std::move(codes);
  return out;
}

// Keys already in ascending order (timestamps, ids, sorted files): a code is the number of
// key changes before the row. The order check stops at the first descent, before allocating.
// 32-bit keys become their codes where they lie (keys are consumed only on success).
template <typename U>
bool AssignAscending(std::vector<U>& keys, FixedCodes<U>* out) {
  const size_t n = keys.size();
  if (!std::is_sorted(keys.begin(), keys.end())) return false;
  std::vector<uint32_t> own_codes;
  if constexpr (!std::is_same_v<U, uint32_t>) own_codes.resize(n);
  uint32_t* codes;
  if constexpr (std::is_same_v<U, uint32_t>) {
    codes = keys.data();
  } else {
    codes = own_codes.data();
  }
  uint32_t code = 0;
  U previous = keys[0];
  out->distinct.push_back(previous);
  codes[0] = 0;
  for (size_t i = 1; i < n; ++i) {
    const U k = keys[i];
    if (k != previous) {
      ++code;
      out->distinct.push_back(k);
      previous = k;
    }
    codes[i] = code;
  }
  if constexpr (std::is_same_v<U, uint32_t>) {
    out->codes = std::move(keys);
  } else {
    out->codes = std::move(own_codes);
  }
  return true;
}

// Wide-range keys with few distinct values (prices, rounded measurements): each row's key is
// looked up in a small open-addressing table, and only the distinct keys are sorted. Gives up
// (false) once more than an eighth of the rows, or more than kHashedMaxDistinct keys, are
// distinct: there the radix sort wins, and the table stays small enough (<= 1.5 MB) that a
// failed attempt costs little next to the sort.
constexpr size_t kHashedMaxShare = 8;
constexpr size_t kHashedMaxDistinct = size_t{1} << 16;
constexpr size_t kHashedMinRows = 4096;
// Probe steps allowed per row on average: keys built to collide (Mix64 can be inverted)
// would otherwise chain thousands of slots for every row.
constexpr size_t kHashedMaxProbesPerRow = 8;
constexpr uint32_t kEmptySlot = ~uint32_t{0};

template <typename U>
bool AssignHashed(const std::vector<U>& keys, FixedCodes<U>* out) {
  const size_t n = keys.size();
  if (n < kHashedMinRows) return false;
  const size_t limit = std::min(n / kHashedMaxShare, kHashedMaxDistinct);
  int log_capacity = 1;
  while ((size_t{1} << log_capacity) < 2 * limit) ++log_capacity;  // load factor <= 1/2
  const size_t mask = (size_t{1} << log_capacity) - 1;
  std::vector<uint32_t> slot_ids(mask + 1, kEmptySlot);
  std::vector<U> slot_keys(mask + 1);
  std::vector<U> distinct;
  std::vector<uint32_t> ids;
  ids.reserve(n);  // pages are touched only as rows are coded: an early give-up stays cheap
  size_t probe_budget = 0;
  for (size_t i = 0; i < n; ++i) {
    const U k = keys[i];
    size_t slot = static_cast<size_t>(hash::Mix64(uint64_t{k}) >> (64 - log_capacity));
    probe_budget += kHashedMaxProbesPerRow;
    while (slot_ids[slot] != kEmptySlot && slot_keys[slot] != k) {
      if (probe_budget-- == 0) return false;
      slot = (slot + 1) & mask;
    }
    if (slot_ids[slot] == kEmptySlot) {
      if (distinct.size() == limit) return false;
      slot_ids[slot] = static_cast<uint32_t>(distinct.size());
      slot_keys[slot] = k;
      distinct.push_back(k);
    }
    ids.push_back(slot_ids[slot]);
  }
  std::vector<uint32_t> order(distinct.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&distinct](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
  std::vector<uint32_t> rank(distinct.size());
  out->distinct.resize(distinct.size());
  for (uint32_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = r;
    out->distinct[r] = distinct[order[r]];
  }
  for (uint32_t& id : ids) id = rank[id];
  out->codes = std::move(ids);
  return true;
}

}  // namespace

template <typename U>
FixedCodes<U> AssignFixedCodes(std::vector<U> keys) {
  if (keys.empty()) return FixedCodes<U>();
  FixedCodes<U> ascending;
  if (AssignAscending(keys, &ascending)) return ascending;
  const auto [min_it, max_it] = std::minmax_element(keys.begin(), keys.end());
  const U min = *min_it;
  const uint64_t range = static_cast<uint64_t>(*max_it - min);
  const uint64_t dense_limit = std::max<uint64_t>(uint64_t{1} << 16, 2 * uint64_t{keys.size()});
  if (range < dense_limit && range < kDenseMaxRange)
    return AssignDense(std::move(keys), min, range);
  FixedCodes<U> hashed;
  if (AssignHashed(keys, &hashed)) return hashed;
  const int bits = 64 - __builtin_clzll(range);  // range > 0 here
  return AssignRadix(std::move(keys), min, bits);
}

template FixedCodes<uint32_t> AssignFixedCodes(std::vector<uint32_t> keys);
template FixedCodes<uint64_t> AssignFixedCodes(std::vector<uint64_t> keys);

uint64_t StringKeyTable::Hash(std::string_view bytes) const {
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t h = seed_ ^ (n * 0xC2B2AE3D27D4EB4Full);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  if (n > 0) std::memcpy(&tail, p, n);
  h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 29;
  h *= 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

uint32_t StringKeyTable::Intern(std::string_view bytes, uint64_t hash) {
  if (2 * (offsets_.size() + 1) > slots_.size()) Grow();
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t at = static_cast<size_t>(hash) & mask;; at = (at + 1) & mask) {
    Slot& slot = slots_[at];
    if (slot.id_plus_1 == 0) {
      const uint32_t id = static_cast<uint32_t>(offsets_.size());
      const uint64_t offset = arena_.size();
      const uint32_t length = static_cast<uint32_t>(bytes.size());
      arena_.resize(offset + 4 + bytes.size());
      std::memcpy(arena_.data() + offset, &length, 4);
      if (!bytes.empty()) std::memcpy(arena_.data() + offset + 4, bytes.data(), bytes.size());
      offsets_.push_back(offset);
      slot.tag = tag;
      slot.id_plus_1 = id + 1;
      slot.offset = offset;
      return id;
    }
    if (slot.tag == tag && At(slot.offset) == bytes) return slot.id_plus_1 - 1;
  }
}

void StringKeyTable::Grow() {
  const size_t size = slots_.empty() ? 1024 : 2 * slots_.size();
  std::vector<Slot> slots(size);
  const size_t mask = size - 1;
  for (uint32_t id = 0; id < offsets_.size(); ++id) {
    const uint64_t hash = Hash(At(offsets_[id]));
    size_t at = static_cast<size_t>(hash) & mask;
    while (slots[at].id_plus_1 != 0) at = (at + 1) & mask;
    slots[at].tag = static_cast<uint32_t>(hash >> 32);
    slots[at].id_plus_1 = id + 1;
    slots[at].offset = offsets_[id];
  }
  slots_.swap(slots);
}

StringCodes AssignStringCodes(const StringKeyTable& table, std::vector<uint32_t> ids) {
  StringCodes out;
  out.sorted_ids.resize(table.size());
  std::iota(out.sorted_ids.begin(), out.sorted_ids.end(), 0u);
  std::sort(out.sorted_ids.begin(), out.sorted_ids.end(), [&table](uint32_t a, uint32_t b) {
    return java::BinaryStringCompareTo(table.Get(a), table.Get(b)) < 0;
  });
  std::vector<uint32_t> rank(table.size());
  for (uint32_t code = 0; code < out.sorted_ids.size(); ++code) rank[out.sorted_ids[code]] = code;
  for (uint32_t& id : ids) id = rank[id];
  out.codes = std::move(ids);
  return out;
}

}  // namespace pyfileindex::index::range_bitmap
