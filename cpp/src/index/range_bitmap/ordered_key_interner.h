// Distinct fixed-width keys -> dense ids (0, 1, ... in order of first occurrence), as rows
// arrive, and at the end each id's rank among the sorted keys: what the range-bitmap writer
// needs to keep a few bits per row instead of the row's key.
//
// Keys are ordered integers (key_kind.h: unsigned order = the key type's order), U = uint32_t
// or uint64_t. While keys arrive in ascending order (sorted files) none of the tables below is
// built: a key is new when above the last, and ids are ranks. Then one of two representations:
//  * a direct table over a window of key values, entries id + 1: one load per row, no keys
//    kept (a key is its position), sorted by a scan. The window grows to cover new keys while
//    it spans at most max(65536, 2 x rows) values (2^26 at most); only the pages of values
//    that occur become resident (memory/zeroed_array.h). Codes, enums, small ids, timestamps.
//  * past that, an open-addressing table over the keys held by id, sorted at the end by a
//    radix sort of the ids. A slot (8 bytes) holds the id and, for 32-bit keys, the key
//    itself (a lookup is one cache miss), for wider ones 32 bits of its hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "memory/zeroed_array.h"

namespace pyfileindex::index::range_bitmap {

template <typename U>
class OrderedKeyInterner {
 public:
  OrderedKeyInterner();
  OrderedKeyInterner(const OrderedKeyInterner&) = delete;
  OrderedKeyInterner& operator=(const OrderedKeyInterner&) = delete;
  OrderedKeyInterner(OrderedKeyInterner&&) = default;
  OrderedKeyInterner& operator=(OrderedKeyInterner&&) = default;

  // The column is expected to hold about this many rows in all (widens the direct window's
  // limit; rows interned so far count too).
  void ExpectRows(uint64_t rows);
  // ids[i] = the id of keys[i]; keys not seen before get the next ids, in order.
  void InternMany(const U* keys, size_t n, uint32_t* ids);

  size_t size() const { return count_; }

  struct Ranked {
    std::vector<U> sorted;       // the distinct keys, ascending
    std::vector<uint32_t> rank;  // by id: the key's position in `sorted`
  };
  // Sorts the keys and leaves the interner empty (its tables are freed on the way, so the
  // result and the tables are not resident at once).
  Ranked TakeRanked();

 private:
  using Table = memory::ZeroedArray<uint32_t>;

  uint32_t InternDirect(U key);
  bool WidenWindow(U key);
  void LeaveAscending();
  void SwitchToHashed();
  void InternHashedMany(const U* keys, size_t n, uint32_t* ids);
  uint32_t InternHashed(U key);
  void GrowSlots();
  uint64_t HashOf(U key) const;
  uint64_t SlotFor(U key, uint64_t hash, uint32_t id) const;
  Ranked TakeRankedDirect();
  Ranked TakeRankedHashed();

  size_t count_ = 0;
  uint64_t rows_seen_ = 0;
  uint64_t expected_rows_ = 0;

  // Keys ascending so far: held in keys_ (by id, which is their rank), no table. Left for the
  // window or the hash table at the first key below the last.
  bool ascending_ = true;
  U last_ = 0;
  bool direct_ = true;
  Table window_;  // window_[key - window_base_] = id + 1, 0: not seen
  U window_base_ = 0;
  uint64_t window_size_ = 0;  // 0 until the first key

  static constexpr bool kWholeKeyInSlot = sizeof(U) == 4;
  static constexpr uint64_t kEmptySlot = ~uint64_t{0};
  uint64_t seed_;
  // tag << 32 | id, kEmptySlot where free; power-of-two size, at most half full.
  std::vector<uint64_t> slots_;
  unsigned shift_ = 64;
  std::vector<U> keys_;  // by id, while ascending or once hashed
};

}  // namespace pyfileindex::index::range_bitmap
