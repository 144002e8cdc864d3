#include "index/range_bitmap/key_codes.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "java/hash_codes.h"

namespace pyfileindex::index::range_bitmap {

uint32_t StringKeyTable::Intern(std::string_view bytes, uint64_t hash) {
  if (2 * (offsets_.size() + 1) > slots_.size()) Grow();
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t at = static_cast<size_t>(hash) & mask;; at = (at + 1) & mask) {
    Slot& slot = slots_[at];
    if (slot.unit_plus_1 == 0) return Insert(bytes, tag, &slot);
    if (slot.tag == tag) {
      const uint64_t offset = uint64_t{slot.unit_plus_1 - 1} * kUnit;
      if (::pyfileindex::hash::SameBytes(BytesAt(offset), bytes)) return IdAt(offset);
    }
  }
}

uint32_t StringKeyTable::Insert(std::string_view bytes, uint32_t tag, Slot* slot) {
  const uint64_t offset = arena_.size();
  if (offset / kUnit >= 0xFFFFFFFFu) {
    throw std::length_error("range-bitmap: the distinct strings of one file exceed 16 GiB");
  }
  const uint32_t id = static_cast<uint32_t>(offsets_.size());
  const uint32_t length = static_cast<uint32_t>(bytes.size());
  const uint64_t entry = (kEntryHead + bytes.size() + kUnit - 1) / kUnit * kUnit;
  arena_.resize(offset + entry);
  std::memcpy(arena_.data() + offset, &length, 4);
  std::memcpy(arena_.data() + offset + 4, &id, 4);
  if (!bytes.empty()) std::memcpy(arena_.data() + offset + kEntryHead, bytes.data(), bytes.size());
  offsets_.push_back(offset);
  slot->tag = tag;
  slot->unit_plus_1 = static_cast<uint32_t>(offset / kUnit + 1);
  return id;
}

void StringKeyTable::Grow() {
  const size_t size = slots_.empty() ? 1024 : 2 * slots_.size();
  std::vector<Slot> slots(size);
  const size_t mask = size - 1;
  for (uint32_t id = 0; id < offsets_.size(); ++id) {
    const uint64_t hash = Hash(BytesAt(offsets_[id]));
    size_t at = static_cast<size_t>(hash) & mask;
    while (slots[at].unit_plus_1 != 0) at = (at + 1) & mask;
    slots[at].tag = static_cast<uint32_t>(hash >> 32);
    slots[at].unit_plus_1 = static_cast<uint32_t>(offsets_[id] / kUnit + 1);
  }
  slots_.swap(slots);
}

StringRanks RankStrings(const StringKeyTable& table) {
  StringRanks out;
  out.sorted_ids.resize(table.size());
  std::iota(out.sorted_ids.begin(), out.sorted_ids.end(), 0u);
  std::sort(out.sorted_ids.begin(), out.sorted_ids.end(), [&table](uint32_t a, uint32_t b) {
    return java::BinaryStringCompareTo(table.Get(a), table.Get(b)) < 0;
  });
  out.rank.resize(table.size());
  for (uint32_t code = 0; code < out.sorted_ids.size(); ++code) out.rank[out.sorted_ids[code]] = code;
  return out;
}

}  // namespace pyfileindex::index::range_bitmap
