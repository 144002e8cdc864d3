// Code assignment: sort the distinct keys of a column and give every non-null row the code
// (ascending rank) of its key -- what Java's TreeMap + iteration order produces, done in bulk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pyfileindex::index::range_bitmap {

// Fixed-width keys as ordered integers (key_kind.h), U = uint32_t or uint64_t.
template <typename U>
struct FixedCodes {
  std::vector<U> distinct;      // ascending
  std::vector<uint32_t> codes;  // one per input key, same order
};

// Consumes `keys` (its memory is reused). Small key ranges use a direct-address table, wide
// ones an LSD radix sort over only the bytes the range needs; both are linear time.
template <typename U>
FixedCodes<U> AssignFixedCodes(std::vector<U> keys);

// Distinct strings, deduplicated as rows arrive (strings are copied into an arena, once each).
class StringKeyTable {
 public:
  // The id of `bytes` (ids are dense, in order of first appearance).
  uint32_t Intern(std::string_view bytes);

  size_t size() const { return offsets_.size(); }
  std::string_view Get(uint32_t id) const {
    return std::string_view(arena_.data() + offsets_[id], lengths_[id]);
  }
  size_t arena_bytes() const { return arena_.size(); }

 private:
  void Grow();

  std::vector<char> arena_;
  std::vector<uint64_t> offsets_;
  std::vector<uint32_t> lengths_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> slots_;  // id + 1, 0 = empty; open addressing, power-of-two size
};

struct StringCodes {
  std::vector<uint32_t> sorted_ids;  // ids of the distinct strings, ascending (unsigned bytes)
  std::vector<uint32_t> codes;       // one per input id, same order
};

// Sorts the table's strings (Paimon BinaryString order: unsigned bytes, then shorter first)
// and maps `ids` (consumed) to codes.
StringCodes AssignStringCodes(const StringKeyTable& table, std::vector<uint32_t> ids);

}  // namespace pyfileindex::index::range_bitmap
