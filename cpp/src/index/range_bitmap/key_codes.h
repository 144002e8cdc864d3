// String keys of the range-bitmap writer: distinct strings interned as rows arrive, then
// ranked (a key's code is its rank) -- what Java's TreeMap iteration order produces, in bulk.
// Fixed-width keys: ordered_key_interner.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "hash/table_bytes.h"
#include "hash/table_seed.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

// Distinct strings, deduplicated as rows arrive (strings are copied into an arena, once each,
// in order of first appearance). While the strings arrive in ascending order (sorted files)
// there is no lookup table: a string is new when above the last one, and ids are ranks. At
// the first string below the last, a table is built over the arena: a lookup touches one slot
// and, on a tag match, the string's arena entry (its length, id and bytes side by side);
// Prefetch() lets a caller overlap the slot misses of several rows.
class StringKeyTable {
 public:
  uint64_t Hash(std::string_view bytes) const { return hash::TableBytesHash(seed_, bytes); }
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty())
      __builtin_prefetch(&slots_[static_cast<size_t>(hash) & (slots_.size() - 1)]);
  }
  // Every string so far came in ascending order (ids are ranks): Intern needs no hash.
  bool ascending() const { return ascending_; }
  // While ascending(): the id of `bytes` when it is not below the last string; false, and
  // ascending() no longer, when it is (then Intern it).
  bool InternAscending(std::string_view bytes, uint32_t* id);
  // The id of `bytes` (ids are dense, in order of first appearance); `hash` = Hash(bytes).
  // Throws std::length_error past 16 GiB of distinct strings (the slots' 32-bit positions).
  uint32_t Intern(std::string_view bytes, uint64_t hash);
  uint32_t Intern(std::string_view bytes) { return Intern(bytes, Hash(bytes)); }

  size_t size() const { return count_; }
  // Frees the lookup table once every key is in (Intern must not be called afterwards).
  void DropLookups() { memory::ReleaseVector(&slots_); }
  // While ascending(), once the strings before `unit` are read for the last time: hands their
  // pages back in large pieces (they read as empty afterwards).
  void HandBackBefore(uint32_t unit);
  // Frees everything, handing large buffers' pages back.
  void Release() {
    DropLookups();
    memory::ReleaseVector(&arena_);
    count_ = 0;
    ascending_ = true;
    handed_back_ = 0;
  }

  // Strings are named by their arena position (in kUnit steps: 32 bits) rather than by id, so
  // no table from id to position is kept. ForEachUnit visits them in id order.
  template <typename Visit>
  void ForEachUnit(Visit&& visit) const {
    for (uint64_t offset = 0; offset < arena_.size(); offset = NextEntry(offset)) {
      visit(static_cast<uint32_t>(offset / kUnit));
    }
  }
  std::string_view At(uint32_t unit) const { return BytesAt(uint64_t{unit} * kUnit); }
  uint32_t IdOf(uint32_t unit) const { return IdAt(uint64_t{unit} * kUnit); }

 private:
  // Arena entries start on kUnit boundaries: 4-byte length, 4-byte id, then the bytes.
  static constexpr uint64_t kUnit = 4;
  static constexpr uint64_t kEntryHead = 8;
  // 8 bytes, half of a slot holding a 64-bit arena offset: 100k keys take 2 MiB, not 4.
  struct Slot {
    uint32_t tag = 0;          // high hash bits
    uint32_t unit_plus_1 = 0;  // the entry's arena offset / kUnit, + 1; 0: empty
  };
  std::string_view BytesAt(uint64_t offset) const {
    uint32_t length;
    std::memcpy(&length, arena_.data() + offset, 4);
    return std::string_view(arena_.data() + offset + kEntryHead, length);
  }
  uint32_t IdAt(uint64_t offset) const {
    uint32_t id;
    std::memcpy(&id, arena_.data() + offset + 4, 4);
    return id;
  }
  uint64_t NextEntry(uint64_t offset) const {
    return offset + (kEntryHead + BytesAt(offset).size() + kUnit - 1) / kUnit * kUnit;
  }
  // Appends the entry of a new string; returns its id.
  uint32_t Append(std::string_view bytes);
  uint32_t Insert(std::string_view bytes, uint32_t tag, Slot* slot);
  void Grow();

  uint64_t seed_ = hash::TableSeed();
  std::vector<char> arena_;
  size_t count_ = 0;
  bool ascending_ = true;
  uint64_t last_offset_ = 0;  // while ascending: the last string's entry
  uint64_t handed_back_ = 0;  // arena bytes handed back by HandBackBefore
  std::vector<Slot> slots_;   // open addressing, power-of-two size, at most half full
};

struct StringRanks {
  std::vector<uint32_t> sorted;  // arena units of the distinct strings, ascending (unsigned bytes)
  // By id: the string's position in `sorted`; empty when the strings came ascending (an id is
  // its rank).
  std::vector<uint32_t> rank;
};

// Sorts the table's strings (Paimon BinaryString order: unsigned bytes, then shorter first).
StringRanks RankStrings(const StringKeyTable& table);

}  // namespace pyfileindex::index::range_bitmap
