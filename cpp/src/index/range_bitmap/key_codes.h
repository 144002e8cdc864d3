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

namespace pyfileindex::index::range_bitmap {

// Distinct strings, deduplicated as rows arrive (strings are copied into an arena, once each).
// A lookup touches one slot and, on a tag match, the string's arena entry (its length, id and
// bytes side by side); Prefetch() lets a caller overlap the slot misses of several rows.
class StringKeyTable {
 public:
  uint64_t Hash(std::string_view bytes) const { return hash::TableBytesHash(seed_, bytes); }
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty())
      __builtin_prefetch(&slots_[static_cast<size_t>(hash) & (slots_.size() - 1)]);
  }
  // The id of `bytes` (ids are dense, in order of first appearance); `hash` = Hash(bytes).
  // Throws std::length_error past 16 GiB of distinct strings (the slots' 32-bit positions).
  uint32_t Intern(std::string_view bytes, uint64_t hash);
  uint32_t Intern(std::string_view bytes) { return Intern(bytes, Hash(bytes)); }

  size_t size() const { return offsets_.size(); }
  // Frees the lookup table once every key is in (Intern must not be called afterwards);
  // Get() still works.
  void DropLookups() { slots_ = std::vector<Slot>(); }
  std::string_view Get(uint32_t id) const { return BytesAt(offsets_[id]); }

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
  uint32_t Insert(std::string_view bytes, uint32_t tag, Slot* slot);
  void Grow();

  uint64_t seed_ = hash::TableSeed();
  std::vector<char> arena_;
  std::vector<uint64_t> offsets_;  // by id
  std::vector<Slot> slots_;        // open addressing, power-of-two size, at most half full
};

struct StringRanks {
  std::vector<uint32_t> sorted_ids;  // ids of the distinct strings, ascending (unsigned bytes)
  std::vector<uint32_t> rank;        // by id: the string's position in sorted_ids
};

// Sorts the table's strings (Paimon BinaryString order: unsigned bytes, then shorter first).
StringRanks RankStrings(const StringKeyTable& table);

}  // namespace pyfileindex::index::range_bitmap
