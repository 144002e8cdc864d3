#include "index/range_bitmap/ordered_key_interner.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "hash/mix64.h"
#include "hash/table_seed.h"
#include "index/range_bitmap/tuning.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using tuning::kCachedSlots;
using tuning::kCachedWindow;
using tuning::kFirstSlotsGuessMax;
using tuning::kFirstWindow;
using tuning::kHandBackWindow;
using tuning::kMaxWindow;
using tuning::kMinSlots;
using tuning::kPrefetchRows;
using tuning::kWindowPageEntries;

bool AllZero(const uint32_t* p, size_t n) {
  uint32_t any = 0;
  for (size_t i = 0; i < n; ++i) any |= p[i];
  return any == 0;
}

// Stable LSD radix sort of `order` (ids) by keys[id] - min, 11 bits a pass over the `bits`
// low bits that vary; histograms of every pass come from one scan of the keys.
template <typename U>
void RadixSortIds(const std::vector<U>& keys, U min, int bits, std::vector<uint32_t>* order) {
  constexpr int kDigitBits = 11;
  constexpr uint32_t kDigits = 1u << kDigitBits;
  const size_t n = keys.size();
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  std::vector<uint32_t> histograms(static_cast<size_t>(passes) * kDigits, 0);
  for (const U key : keys) {
    const U k = static_cast<U>(key - min);
    for (int p = 0; p < passes; ++p) ++histograms[p * kDigits + ((k >> (kDigitBits * p)) & (kDigits - 1))];
  }
  std::vector<uint32_t> scratch(n);
  for (int p = 0; p < passes; ++p) {
    uint32_t* h = histograms.data() + static_cast<size_t>(p) * kDigits;
    if (std::any_of(h, h + kDigits, [n](uint32_t c) { return c == n; })) continue;
    uint32_t sum = 0;
    for (uint32_t d = 0; d < kDigits; ++d) {
      const uint32_t count = h[d];
      h[d] = sum;
      sum += count;
    }
    const int shift = kDigitBits * p;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t id = (*order)[i];
      scratch[h[(static_cast<U>(keys[id] - min) >> shift) & (kDigits - 1)]++] = id;
    }
    order->swap(scratch);
  }
}

}  // namespace

template <typename U>
OrderedKeyInterner<U>::OrderedKeyInterner() : seed_(hash::TableSeed()) {}

template <typename U>
void OrderedKeyInterner<U>::ExpectRows(uint64_t rows) {
  expected_rows_ = std::max(expected_rows_, rows);
}

template <typename U>
void OrderedKeyInterner<U>::InternMany(const U* keys, size_t n, uint32_t* ids) {
  rows_seen_ += n;
  if (ascending_) {
    // Sorted columns (timestamps, ids): a key is new exactly when it is above the last one,
    // and ids in order of first occurrence are already the ranks. No table at all.
    size_t i = 0;
    for (; i < n; ++i) {
      const U key = keys[i];
      if (count_ > 0 && key <= last_) {
        if (key < last_) break;
        ids[i] = static_cast<uint32_t>(count_ - 1);
        continue;
      }
      keys_.push_back(key);
      last_ = key;
      ids[i] = static_cast<uint32_t>(count_++);
    }
    if (i == n) return;
    LeaveAscending();
    keys += i;
    ids += i;
    n -= i;
  }
  if (!direct_) {
    InternHashedMany(keys, n, ids);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    // A window past the caches: fetch the entry of a row ahead, so the misses of rows that
    // bring a new key (a branch the CPU cannot foresee) do not come one after another.
    if (window_size_ > kCachedWindow && i + kPrefetchRows < n) {
      const uint64_t ahead = static_cast<U>(keys[i + kPrefetchRows] - window_base_);
      __builtin_prefetch(&window_[std::min(ahead, window_size_ - 1)]);
    }
    const uint64_t offset = static_cast<U>(keys[i] - window_base_);
    if (offset < window_size_) {
      const uint32_t entry = window_[offset];
      if (entry != 0) {
        ids[i] = entry - 1;
        continue;
      }
    }
    ids[i] = InternDirect(keys[i]);
    if (!direct_) {
      InternHashedMany(keys + i + 1, n - i - 1, ids + i + 1);
      return;
    }
  }
}

template <typename U>
uint32_t OrderedKeyInterner<U>::InternDirect(U key) {
  uint64_t offset = static_cast<U>(key - window_base_);
  if (window_size_ == 0 || offset >= window_size_) {
    if (!WidenWindow(key)) {
      SwitchToHashed();
      return InternHashed(key);
    }
    offset = static_cast<U>(key - window_base_);
  }
  uint32_t& entry = window_[offset];
  if (entry == 0) entry = static_cast<uint32_t>(++count_);
  return entry - 1;
}

template <typename U>
bool OrderedKeyInterner<U>::WidenWindow(U key) {
  const uint64_t limit =
      std::min(kMaxWindow, std::max(kFirstWindow, 2 * std::max(expected_rows_, rows_seen_)));
  U low = key, high = key;
  if (window_size_ > 0) {
    low = std::min(window_base_, key);
    high = std::max(static_cast<U>(window_base_ + (window_size_ - 1)), key);
  }
  if (static_cast<uint64_t>(high - low) >= limit) return false;
  const uint64_t needed = static_cast<uint64_t>(high - low) + 1;
  const uint64_t size = std::min(limit, std::max({needed, 2 * window_size_, kFirstWindow}));
  // Slack split evenly on both sides: columns grow both ways from their first key.
  const uint64_t slack = (size - needed) / 2;
  U base = static_cast<U>(low) < slack ? U{0} : static_cast<U>(low - slack);
  const U max_base = static_cast<U>(std::numeric_limits<U>::max() - (size - 1));
  if (base > max_base) base = max_base;

  Table window(static_cast<size_t>(size));
  if (window_size_ > 0) {
    uint32_t* to = window.get() + static_cast<U>(window_base_ - base);
    for (uint64_t at = 0; at < window_size_; at += kWindowPageEntries) {
      const size_t n =
          static_cast<size_t>(std::min<uint64_t>(kWindowPageEntries, window_size_ - at));
      if (!AllZero(window_.get() + at, n)) std::memcpy(to + at, window_.get() + at, 4 * n);
    }
  }
  window_ = std::move(window);
  window_base_ = base;
  window_size_ = size;
  return true;
}

template <typename U>
void OrderedKeyInterner<U>::LeaveAscending() {
  ascending_ = false;
  // The keys so far (ascending, by id) go into a window when it can span them, else into
  // the hash table, which indexes keys_ as it is.
  const auto covers = [this](U key) {
    return static_cast<uint64_t>(static_cast<U>(key - window_base_)) < window_size_;
  };
  if (WidenWindow(keys_.front()) && (covers(keys_.back()) || WidenWindow(keys_.back()))) {
    for (uint32_t id = 0; id < count_; ++id) {
      window_[static_cast<U>(keys_[id] - window_base_)] = id + 1;
    }
    std::vector<U>().swap(keys_);
    direct_ = true;
    return;
  }
  window_.reset();
  window_size_ = 0;
  direct_ = false;
  GrowSlots();
}

template <typename U>
void OrderedKeyInterner<U>::SwitchToHashed() {
  direct_ = false;
  keys_.resize(count_);
  for (uint64_t at = 0; at < window_size_; at += kWindowPageEntries) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(kWindowPageEntries, window_size_ - at));
    const uint32_t* page = window_.get() + at;
    if (AllZero(page, n)) continue;
    for (size_t i = 0; i < n; ++i) {
      if (page[i] != 0) keys_[page[i] - 1] = static_cast<U>(window_base_ + (at + i));
    }
  }
  window_.reset();
  window_size_ = 0;
  GrowSlots();
}

template <typename U>
uint64_t OrderedKeyInterner<U>::HashOf(U key) const {
  return hash::Mix64(uint64_t{key} ^ seed_);
}

template <typename U>
uint64_t OrderedKeyInterner<U>::SlotFor(U key, uint64_t hash, uint32_t id) const {
  // 32-bit keys sit whole in the slot; wider ones leave 32 bits of their hash there, and a
  // slot whose bits match is confirmed against the key.
  const uint64_t tag = kWholeKeyInSlot ? uint64_t{key} : (hash & 0xFFFFFFFFu);
  return tag << 32 | id;
}

template <typename U>
void OrderedKeyInterner<U>::GrowSlots() {
  // A first table sized for an eighth of the rows expected to be distinct (capped): growing
  // from small rehashes every key several times over.
  const uint64_t first_guess = std::min<uint64_t>(std::max(expected_rows_, rows_seen_) / 8,
                                                  kFirstSlotsGuessMax);
  size_t size = std::max(kMinSlots, slots_.size());
  if (slots_.empty()) {
    while (size < 2 * first_guess) size *= 2;
  }
  while (size < 2 * (count_ + 1)) size *= 2;
  if (size == slots_.size()) return;
  slots_.assign(size, kEmptySlot);
  shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(size));
  const size_t mask = size - 1;
  for (uint32_t id = 0; id < count_; ++id) {
    const uint64_t hash = HashOf(keys_[id]);
    size_t slot = static_cast<size_t>(hash >> shift_);
    while (slots_[slot] != kEmptySlot) slot = (slot + 1) & mask;
    slots_[slot] = SlotFor(keys_[id], hash, id);
  }
}

template <typename U>
uint32_t OrderedKeyInterner<U>::InternHashed(U key) {
  if (2 * (count_ + 1) > slots_.size()) GrowSlots();
  const size_t mask = slots_.size() - 1;
  const uint64_t hash = HashOf(key);
  const uint64_t wanted = SlotFor(key, hash, 0);
  for (size_t slot = static_cast<size_t>(hash >> shift_);; slot = (slot + 1) & mask) {
    const uint64_t entry = slots_[slot];
    if (entry == kEmptySlot) {
      const uint32_t id = static_cast<uint32_t>(count_++);
      slots_[slot] = wanted | id;
      keys_.push_back(key);
      return id;
    }
    if ((entry ^ wanted) >> 32 == 0) {
      const uint32_t id = static_cast<uint32_t>(entry);
      if (kWholeKeyInSlot || keys_[id] == key) return id;
    }
  }
}

template <typename U>
void OrderedKeyInterner<U>::InternHashedMany(const U* keys, size_t n, uint32_t* ids) {
  for (size_t i = 0; i < n; ++i) {
    if (slots_.size() > kCachedSlots) {
      // The slot of a row ahead is a cache miss, and for wide keys so is the key it names:
      // fetch the slot of a row far ahead and the key of a nearer one, whose slot has
      // arrived by now. (Only hints: a table grown meanwhile makes them useless, not wrong.)
      if (i + 2 * kPrefetchRows < n) {
        const U far_key = keys[i + 2 * kPrefetchRows];
        __builtin_prefetch(&slots_[static_cast<size_t>(HashOf(far_key) >> shift_)]);
      }
      if (!kWholeKeyInSlot && i + kPrefetchRows < n) {
        const U near_key = keys[i + kPrefetchRows];
        const uint64_t entry = slots_[static_cast<size_t>(HashOf(near_key) >> shift_)];
        if (entry != kEmptySlot) __builtin_prefetch(&keys_[static_cast<uint32_t>(entry)]);
      }
    }
    ids[i] = InternHashed(keys[i]);
  }
}

template <typename U>
typename OrderedKeyInterner<U>::Ranked OrderedKeyInterner<U>::TakeRanked() {
  Ranked ranked;
  if (ascending_) {
    ranked.sorted = std::move(keys_);
    ranked.rank.resize(ranked.sorted.size());
    std::iota(ranked.rank.begin(), ranked.rank.end(), 0u);
  } else {
    ranked = direct_ ? TakeRankedDirect() : TakeRankedHashed();
  }
  *this = OrderedKeyInterner();
  return ranked;
}

template <typename U>
typename OrderedKeyInterner<U>::Ranked OrderedKeyInterner<U>::TakeRankedDirect() {
  Ranked out;
  out.rank.resize(count_);
  out.sorted.reserve(count_);
  uint32_t next = 0;
  // The window is read once, front to back: each scanned stretch is handed back as the keys
  // grow, so window and keys are never both whole.
  constexpr uint64_t kStretch = tuning::kHandBackStretchEntries;
  for (uint64_t at = 0; at < window_size_; at += kWindowPageEntries) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(kWindowPageEntries, window_size_ - at));
    const uint32_t* page = window_.get() + at;
    if (!AllZero(page, n)) {
      for (size_t i = 0; i < n; ++i) {
        if (page[i] == 0) continue;
        out.rank[page[i] - 1] = next++;
        out.sorted.push_back(static_cast<U>(window_base_ + (at + i)));
      }
    }
    if (window_size_ >= kHandBackWindow && (at + kWindowPageEntries) % kStretch == 0) {
      memory::ReturnPages(window_.get() + (at + kWindowPageEntries - kStretch), 4 * kStretch);
    }
  }
  window_.reset();
  return out;
}

template <typename U>
typename OrderedKeyInterner<U>::Ranked OrderedKeyInterner<U>::TakeRankedHashed() {
  memory::ReleaseVector(&slots_);
  Ranked out;
  const size_t n = keys_.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (n > 1) {
    const auto [low, high] = std::minmax_element(keys_.begin(), keys_.end());
    const U min = *low;
    RadixSortIds(keys_, min, 64 - __builtin_clzll(uint64_t{static_cast<U>(*high - min)}), &order);
  }
  out.sorted.resize(n);
  for (size_t r = 0; r < n; ++r) out.sorted[r] = keys_[order[r]];
  memory::ReleaseVector(&keys_);
  out.rank.resize(n);
  for (size_t r = 0; r < n; ++r) out.rank[order[r]] = static_cast<uint32_t>(r);
  return out;
}

template class OrderedKeyInterner<uint32_t>;
template class OrderedKeyInterner<uint64_t>;

}  // namespace pyfileindex::index::range_bitmap
