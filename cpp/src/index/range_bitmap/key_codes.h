// Code assignment: sort the distinct keys of a column and give every non-null row the code
// (ascending rank) of its key -- what Java's TreeMap + iteration order produces, done in bulk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "hash/table_seed.h"

namespace pyfileindex::index::range_bitmap {

// Fixed-width keys as ordered integers (key_kind.h), U = uint32_t or uint64_t.
template <typename U>
struct FixedCodes {
  std::vector<U> distinct;      // ascending
  std::vector<uint32_t> codes;  // one per input key, same order
};

// Consumes `keys` (its memory is reused). Keys already ascending are coded in one pass; else
// small key ranges use a direct-address table, wide ones with few distinct keys a hash table
// (then only the distinct keys are sorted), the rest an LSD radix sort over only the bytes the
// range needs.
template <typename U>
FixedCodes<U> AssignFixedCodes(std::vector<U> keys);

// Distinct strings, deduplicated as rows arrive (strings are copied into an arena, once each).
// A lookup touches one slot and, on a tag match, the string's arena bytes; Prefetch() lets a
// caller overlap the slot misses of several rows.
class StringKeyTable {
 public:
  uint64_t Hash(std::string_view bytes) const;  // seeded (hash/table_seed.h)
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty())
      __builtin_prefetch(&slots_[static_cast<size_t>(hash) & (slots_.size() - 1)]);
  }
  // The id of `bytes` (ids are dense, in order of first appearance); `hash` = Hash(bytes).
  uint32_t Intern(std::string_view bytes, uint64_t hash);
  uint32_t Intern(std::string_view bytes) { return Intern(bytes, Hash(bytes)); }

  size_t size() const { return offsets_.size(); }
  std::string_view Get(uint32_t id) const { return At(offsets_[id]); }

 private:
  struct Slot {
    uint32_t tag = 0;        // high hash bits
    uint32_t id_plus_1 = 0;  // 0: empty
    uint64_t offset = 0;     // of the string in the arena
  };
  // Arena entries: 4-byte length, then the bytes.
  std::string_view At(uint64_t offset) const {
    uint32_t length;
    std::memcpy(&length, arena_.data() + offset, 4);
    return std::string_view(arena_.data() + offset + 4, length);
  }
  void Grow();

  uint64_t seed_ = hash::TableSeed();
  std::vector<char> arena_;
  std::vector<uint64_t> offsets_;  // by id
  std::vector<Slot> slots_;        // open addressing, power-of-two size, at most half full
};

struct StringCodes {
  std::vector<uint32_t> sorted_ids;  // ids of the distinct strings, ascending (unsigned bytes)
  std::vector<uint32_t> codes;       // one per input id, same order
};

// Sorts the table's strings (Paimon BinaryString order: unsigned bytes, then shorter first)
// and maps `ids` (consumed) to codes.
StringCodes AssignStringCodes(const StringKeyTable& table, std::vector<uint32_t> ids);

}  // namespace pyfileindex::index::range_bitmap
