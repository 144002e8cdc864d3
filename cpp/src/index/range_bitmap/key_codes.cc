#include "index/range_bitmap/key_codes.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "java/hash_codes.h"

namespace pyfileindex::index::range_bitmap {

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
    if (slot.tag == tag && ::pyfileindex::hash::SameBytes(At(slot.offset), bytes)) {
      return slot.id_plus_1 - 1;
    }
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
