// The writer's key dictionaries: distinct non-null keys -> dense ids (0, 1, ... in order of
// first occurrence), noting what the java.util.HashMap.computeIfAbsent call Java's writer makes
// for every non-null row needs to know (the keys' hash codes, the hits that may resize), so the
// final Java iteration order can be worked out (java/compute_if_absent_order.h).
//
// Own open-addressing tables keyed by the normalised key (no per-row allocation; strings are
// copied once, on first occurrence, into an arena).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "hash/mix64.h"
#include "hash/table_bytes.h"
#include "hash/table_seed.h"
#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/tuning.h"
#include "io/byte_writer.h"
#include "io/endian.h"
#include "java/compute_if_absent_order.h"
#include "memory/growing_vector.h"
#include "memory/scratch.h"
#include "memory/zeroed_array.h"

namespace pyfileindex::index::bitmap {

// What the meta writer needs to know about the keys, by id.
class WriterKeys {
 public:
  virtual ~WriterKeys() = default;
  virtual KeyKind kind() const = 0;
  virtual size_t size() const = 0;
  virtual KeyRef key(uint32_t id) const = 0;
  // Key ids in java.util.HashMap iteration order. Working arrays come from `scratch` where
  // they fit.
  std::vector<uint32_t> JavaOrder(memory::Scratch scratch = memory::Scratch()) const {
    return JavaOrderIn(scratch);
  }
  // All key ids, sorted ascending by the key class's compareTo (working arrays as JavaOrder).
  std::vector<uint32_t> SortedIds(memory::Scratch scratch = memory::Scratch()) const {
    return SortedIdsIn(scratch);
  }
  // After the last Intern: the lookup table's memory, which is no longer read, as scratch for
  // JavaOrder and SortedIds (its pages are resident already). Valid while the dictionary is,
  // until ReleaseLookup.
  virtual memory::Scratch LookupMemory() = 0;
  // Starts loading what key(id) reads: `bytes` false its place, true (some keys later, once
  // the place is cached) the key itself. Keys held by value need nothing.
  virtual void PrefetchKey(uint32_t /*id*/, bool /*bytes*/) const {}
  // Whether SortedIds() is 0, 1, ... (the keys came in ascending order).
  virtual bool IdsAreSorted() const { return false; }
  // Heap bytes the dictionary holds (tables, keys, their Java hash codes).
  virtual size_t MemoryBytes() const = 0;

 private:
  // JavaOrder and SortedIds (the default argument is the callers', in one place).
  virtual std::vector<uint32_t> JavaOrderIn(memory::Scratch scratch) const = 0;
  virtual std::vector<uint32_t> SortedIdsIn(memory::Scratch scratch) const = 0;
};

// Numeric keys (everything but strings), held as 64 key bits (see bitmap_key.h).
//
// While keys arrive in ascending order (a file sorted by this column), a key is new exactly
// when it is above the last one, as for strings: no table, no hashing, and the ids are the
// sorted order. The first key below the last builds the table over the keys so far.
class NumericKeyDictionary final : public WriterKeys {
 public:
  explicit NumericKeyDictionary(KeyKind kind);
  NumericKeyDictionary(const NumericKeyDictionary&) = delete;
  NumericKeyDictionary& operator=(const NumericKeyDictionary&) = delete;

  // The id of `bits`, added if new. Call once per non-null row, in row order.
  uint32_t Intern(uint64_t bits) {
    const uint32_t entry = WindowEntry(window_entries_.get(), window_, bits);
    if (entry != 0) {
      if (touch_pending_) Touch();
      return entry - 1;
    }
    return InternHashed(bits);
  }
  // Ids of the keys key_of(from), key_of(from + 1), ... (each handed to take(j, id)) while
  // they are already in and inside the direct window, with no HashMap hit pending (a hit
  // then changes nothing): returns the first j it did not take, or `count`. The window stays
  // in registers and the loop branches only on what a known key never does (Intern reloads the
  // window every row, as the stores of ids might change it).
  template <typename KeyOf, typename Take>
  int64_t KnownIdsInWindow(int64_t from, int64_t count, KeyOf key_of, Take take) const {
    if (touch_pending_) return from;
    const uint32_t* const entries = window_entries_.get();
    const WindowShape window = window_;
    auto take_known = [&](auto index_of) {
      for (int64_t j = from; j < count; ++j) {
        const uint32_t entry = EntryAt(entries, window, index_of(key_of(j)));
        if (entry == 0) return j;
        take(j, entry - 1);
      }
      return count;
    };
    // Consecutive keys (the usual codes) skip the multiply.
    if (window.step == 1) return take_known([&](uint64_t bits) { return bits - window.base; });
    return take_known([&](uint64_t bits) { return WindowIndex(window, bits); });
  }
  // About `count` keys are expected in all (DistinctSample): the keys, their Java hash codes
  // and the lookup table are sized for them at once instead of doubling towards them.
  void ExpectKeys(size_t count);
  // Whether the direct window is open (integer keys, after the first hashed lookups).
  bool HasWindow() const { return window_.size != 0; }
  // The step between the keys the window covers (1 until it opens).
  uint64_t WindowStep() const { return window_.step; }
  uint32_t InternHashed(uint64_t bits) {
    if (ascending_) {
      // Counted towards the window, which opens only once the keys stop ascending: a sorted
      // column's keys would make its pages resident for lookups that need no table.
      if (hashed_lookups_ + 1 < tuning::kWindowAfterLookups) ++hashed_lookups_;
      uint32_t id;
      if (InternAscending(bits, &id)) return id;
    }
    if (++hashed_lookups_ == tuning::kWindowAfterLookups) OpenWindow();
    const uint64_t hash = HashOf(bits);
    size_t slot = SlotIndex(hash);
    for (;;) {
      const Slot& s = slots_[slot];
      if (s.id == kEmpty) return Insert(bits, hash, slot);
      if (s.hash == hash) {  // HashOf is one-to-one: equal hashes are equal keys
        if (touch_pending_) Touch();
        return s.id;
      }
      slot = (slot + 1) & mask_;
    }
  }

  // What Intern does for a key already in (callers that take a run of equal rows at once):
  // noting Java's computeIfAbsent call on a present key.
  void NoteHit() {
    if (touch_pending_) Touch();
  }

  // Once the table outgrows the caches, callers prefetch the slot of a key a few rows ahead.
  bool IsLarge() const { return slots_.size() > tuning::kLargeTableSlots; }
  void Prefetch(uint64_t bits) const {
    __builtin_prefetch(&slots_[SlotIndex(HashOf(bits))]);
  }

  KeyKind kind() const override { return kind_; }
  size_t size() const override { return keys_.size(); }
  KeyRef key(uint32_t id) const override {
    KeyRef k;
    k.bits = keys_[id];
    return k;
  }
  memory::Scratch LookupMemory() override {
    return memory::Scratch(slots_.data(), slots_.size() * sizeof(Slot));
  }
  bool IdsAreSorted() const override { return ascending_; }
  size_t MemoryBytes() const override;
  // The keys' bits by id, moved out: the dictionary is only to be destroyed afterwards.
  memory::GrowingVector<uint64_t> TakeKeys() { return std::move(keys_); }

 private:
  std::vector<uint32_t> JavaOrderIn(memory::Scratch scratch) const override;
  std::vector<uint32_t> SortedIdsIn(memory::Scratch scratch) const override;

  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  // While ascending_: the id of `bits` if it is the last key or above it (a new key); false
  // when it is below (the table is built, ascending_ is over).
  bool InternAscending(uint64_t bits, uint32_t* id);
  // Adds a new key and its HashMap call; returns its id.
  uint32_t Append(uint64_t bits);
  // Leaves ascending order: a table over every key so far, at most 3/4 full.
  void BuildTable();
  // 12 bytes, not 16: a million keys take 2^21 slots, the writer's largest part after the
  // rows (x86 and ARM load the unaligned key at no cost).
  struct __attribute__((packed)) Slot {
    uint64_t hash;  // HashOf(the key's bits)
    uint32_t id;
  };
  static_assert(sizeof(Slot) == 12, "a packed slot");

  // One-to-one (Mix64 is invertible), so slots hold the hash in place of the key: a lookup
  // compares the hash it computed for the slot anyway, and a growing table places its slots
  // from their hashes without mixing the keys again.
  uint64_t HashOf(uint64_t bits) const { return hash::Mix64(bits ^ seed_); }
  // The slot a hash starts its probe at: its top bits.
  size_t SlotIndex(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }
  uint32_t Insert(uint64_t bits, uint64_t hash, size_t slot);
  void Touch();
  void Grow();
  void RehashTo(unsigned log2);  // 2^log2 slots, more than now

  // Integer columns of a small domain (codes, enums, small ids) are the usual bitmap-indexed
  // ones: a direct table over tuning::kWindowKeys values around the first keys answers their lookups
  // with one load, no hashing or probing. Entries hold id + 1 (0: not seen); only the pages
  // of values that occur ever become resident.
  //
  // The table's entries are `step` apart, the greatest common divisor of the distances between
  // the keys seen when it opens: timestamps in whole minutes, prices in multiples of 5 cents
  // or codes 10 apart fill consecutive entries (fewer cache lines, a far wider range) instead
  // of one in `step`. A key's entry is found without dividing: with step = 2^shift * odd and
  // `inverse` the inverse of odd modulo 2^64, x = key - base is a multiple of step exactly when
  // rotr(x * inverse, shift) <= (2^64 - 1) / step, and that value is then x / step; any other
  // x maps above it, so one bounds check against `size` rejects both kinds of misses.
  struct WindowShape {
    uint64_t base = 0;
    uint64_t size = 0;  // 0 until the window opens (never for floating-point keys)
    uint64_t step = 1;
    uint64_t inverse = 1;
    unsigned shift = 0;
  };
  void OpenWindow();
  // Where `bits` sits in the window: its entry's index, or a value >= window.size.
  static uint64_t WindowIndex(const WindowShape& window, uint64_t bits) {
    const uint64_t scaled = (bits - window.base) * window.inverse;
    return (scaled >> window.shift) | (scaled << ((64 - window.shift) & 63));
  }
  // The window's entry at `index` (id + 1), or 0: not seen, or outside the window.
  static uint32_t EntryAt(const uint32_t* entries, const WindowShape& window, uint64_t index) {
    return index < window.size ? entries[index] : 0;
  }
  static uint32_t WindowEntry(const uint32_t* entries, const WindowShape& window,
                              uint64_t bits) {
    return EntryAt(entries, window, WindowIndex(window, bits));
  }
  // Records key `bits` as id `id` in the window, if the window covers it.
  void NoteInWindow(uint64_t bits, uint32_t id) {
    const uint64_t index = WindowIndex(window_, bits);
    if (index < window_.size) window_entries_[index] = id + 1;
  }
  uint64_t hashed_lookups_ = 0;
  memory::ZeroedArray<uint32_t> window_entries_;
  WindowShape window_;

  KeyKind kind_;
  bool ascending_ = true;
  const uint64_t seed_ = hash::TableSeed();
  memory::GrowingVector<Slot> slots_;  // empty while ascending_
  size_t mask_ = 0;
  unsigned shift_ = 0;
  size_t expected_keys_ = 0;  // ExpectKeys: the table built on leaving ascending_ fits them
  memory::GrowingVector<uint64_t> keys_;  // by id
  java::ComputeIfAbsentOrder order_;  // Java's computeIfAbsent calls
  // Java resizes at the top of the next call after an insertion crossed the threshold; only
  // the first such call after the last insertion matters, so a hit is noted only while this is
  // set.
  bool touch_pending_ = false;
};

// CHAR/VARCHAR keys (Paimon BinaryString: raw UTF-8 bytes).
//
// While keys arrive in ascending order (a file sorted by this column), a key is new exactly
// when it is above the last one: there is no lookup table, no hashing, and the ids are the
// sorted order. The first key below the last builds the table over the keys so far.
class StringKeyDictionary final : public WriterKeys {
 public:
  // `expect_ascending` false starts with the table (tests compare the two ways).
  explicit StringKeyDictionary(bool expect_ascending = true);
  StringKeyDictionary(const StringKeyDictionary&) = delete;
  StringKeyDictionary& operator=(const StringKeyDictionary&) = delete;

  uint32_t Intern(std::string_view bytes) {
    uint32_t id;
    if (ascending_ && InternAscending(bytes, &id)) return id;
    return InternHashed(bytes, HashBytes(bytes));
  }
  // `h` must be HashBytes(bytes) (callers hash ahead to prefetch).
  uint32_t Intern(std::string_view bytes, uint64_t h) {
    uint32_t id;
    if (ascending_ && InternAscending(bytes, &id)) return id;
    return InternHashed(bytes, h);
  }
  uint32_t InternHashed(std::string_view bytes, uint64_t h) {
    size_t slot = SlotIndex(h);
    const uint32_t tag = TagOf(h);
    for (;;) {
      const Slot& s = slots_[slot];
      if (s.id == kEmpty) return Insert(bytes, h, slot);
      if (s.tag == tag && SameBytes(KeyAt(s), bytes)) {
        NoteHit();
        return s.id;
      }
      slot = (slot + 1) & mask_;
    }
  }

  // About `count` keys of `bytes` bytes in all are expected (DistinctSample): sized for
  // them at once, as NumericKeyDictionary::ExpectKeys.
  void ExpectKeys(size_t count, size_t bytes);
  // What Intern does for a key already in (also for callers that remember ids): noting Java's
  // computeIfAbsent call on a present key.
  void NoteHit() {
    if (touch_pending_) Touch();
  }
  // Once the table outgrows the caches, callers prefetch by the HashBytes of keys ahead:
  // first the slot, then (once that is cached) the bytes of the key in it, which a hit
  // compares. Both are cache misses otherwise, and the bytes' miss comes last, unhidden.
  // (No table while the keys are ascending: not large.)
  bool IsLarge() const { return slots_.size() > tuning::kLargeTableSlots; }
  void Prefetch(uint64_t h) const { __builtin_prefetch(&slots_[SlotIndex(h)]); }
  void PrefetchKeyBytes(uint64_t h) const {
    // Empty slots hold position 0: a harmless prefetch, cheaper than a branch.
    __builtin_prefetch(arena_.data() + (slots_[SlotIndex(h)].where >> 16));
  }

  KeyKind kind() const override { return KeyKind::kString; }
  size_t size() const override { return offsets_.size() - 1; }
  KeyRef key(uint32_t id) const override {
    KeyRef k;
    k.bytes = View(id);
    return k;
  }
  void PrefetchKey(uint32_t id, bool bytes) const override {
    if (bytes) {
      __builtin_prefetch(arena_.data() + offsets_[id]);
    } else {
      __builtin_prefetch(&offsets_[id]);
    }
  }
  memory::Scratch LookupMemory() override {
    return memory::Scratch(slots_.data(), slots_.size() * sizeof(Slot));
  }
  bool IdsAreSorted() const override { return ascending_; }
  size_t MemoryBytes() const override;
  // After the last Intern and JavaOrder: frees the lookup table and the keys' hash codes, most
  // of the dictionary's memory, keeping the keys (key(), SortedIds()) for the meta.
  void ReleaseLookup();

  static bool SameBytes(std::string_view a, std::string_view b) { return hash::SameBytes(a, b); }
  uint64_t HashBytes(std::string_view bytes) const { return hash::TableBytesHash(seed_, bytes); }

 private:
  std::vector<uint32_t> JavaOrderIn(memory::Scratch scratch) const override;
  std::vector<uint32_t> SortedIdsIn(memory::Scratch scratch) const override;

  // The slot a hash starts its probe at: its top bits.
  size_t SlotIndex(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  // A key's arena position and length in one word, so a probe reads its bytes without
  // touching offsets_: position << 16 | length, or kLongKey for keys of 0xFFFF+ bytes.
  static constexpr uint64_t kLongKey = 0xFFFF;
  struct Slot {
    // The high 32 bits of the key's hash. The slot index is their top bits (tables have at most
    // 2^32 slots), so a growing table places its keys without hashing their bytes again; the
    // bits below the index still tell most keys of a probe sequence apart.
    uint32_t tag;
    uint32_t id;
    uint64_t where;
  };

  static uint32_t TagOf(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  std::string_view KeyAt(const Slot& s) const {
    const uint64_t length = s.where & kLongKey;
    if (length == kLongKey) return View(s.id);
    return std::string_view(arena_.data() + (s.where >> 16), length);
  }
  std::string_view View(uint32_t id) const {
    return std::string_view(arena_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  // While ascending_: the id of `bytes` if it is the last key or above it (a new key);
  // false when it is below (the table is built, ascending_ is over).
  bool InternAscending(std::string_view bytes, uint32_t* id);
  // Adds a new key's bytes, offset and HashMap call; returns its id.
  uint32_t Append(std::string_view bytes);
  uint32_t Insert(std::string_view bytes, uint64_t hash, size_t slot);
  // The slot of key `id` (in the arena already) whose HashBytes is `hash`.
  Slot SlotOf(uint32_t id, uint64_t hash) const;
  void Touch();
  void Grow();
  void RehashTo(unsigned log2);  // 2^log2 slots, more than now
  // Leaves ascending order: a table over every key so far, at most 3/4 full.
  void BuildTable();

  bool ascending_;
  const uint64_t seed_ = hash::TableSeed();
  memory::GrowingVector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 0;
  size_t expected_keys_ = 0;  // as NumericKeyDictionary's
  memory::GrowingVector<char> arena_;       // all distinct keys' bytes, back to back
  memory::GrowingVector<uint64_t> offsets_; // key id -> start in arena_; one extra end offset
  java::ComputeIfAbsentOrder order_;  // Java's computeIfAbsent calls
  bool touch_pending_ = false;
};

}  // namespace pyfileindex::index::bitmap
