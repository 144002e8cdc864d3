#include "index/range_bitmap/key_codes.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "java/hash_codes.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

bool StringKeyTable::InternAscending(std::string_view bytes, uint32_t* id) {
  if (count_ > 0) {
    const std::string_view last = BytesAt(last_offset_);
    if (::pyfileindex::hash::SameBytes(last, bytes)) {
      *id = static_cast<uint32_t>(count_ - 1);
      return true;
    }
    if (java::BinaryStringCompareTo(bytes, last) < 0) {
      // Out of order: from here on strings are looked up in a table over the arena.
      ascending_ = false;
      Grow();
      return false;
    }
  }
  last_offset_ = arena_.size();
  *id = Append(bytes);
  return true;
}

uint32_t StringKeyTable::Intern(std::string_view bytes, uint64_t hash) {
  if (ascending_) {
    ascending_ = false;
    Grow();
  }
  if (2 * (count_ + 1) > slots_.size()) Grow();
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

uint32_t StringKeyTable::Append(std::string_view bytes) {
  const uint64_t offset = arena_.size();
  if (offset / kUnit >= 0xFFFFFFFFu) {
    throw std::length_error("range-bitmap: the distinct strings of one file exceed 16 GiB");
  }
  const uint32_t id = static_cast<uint32_t>(count_++);
  const uint32_t length = static_cast<uint32_t>(bytes.size());
  const uint64_t entry = (kEntryHead + bytes.size() + kUnit - 1) / kUnit * kUnit;
  if (offset + entry > arena_.capacity()) {
    // Grown by hand so the outgrown buffer's pages are handed back: freed heap memory stays
    // resident, and the buffers a doubling arena leaves behind add up to its own size.
    std::vector<char> grown;
    grown.reserve(std::max<size_t>(2 * arena_.capacity(), offset + entry));
    grown.assign(arena_.begin(), arena_.end());
    memory::ReturnPages(arena_.data(), arena_.capacity());
    arena_.swap(grown);
  }
  arena_.resize(offset + entry);
  std::memcpy(arena_.data() + offset, &length, 4);
  std::memcpy(arena_.data() + offset + 4, &id, 4);
  if (!bytes.empty()) std::memcpy(arena_.data() + offset + kEntryHead, bytes.data(), bytes.size());
  return id;
}

uint32_t StringKeyTable::Insert(std::string_view bytes, uint32_t tag, Slot* slot) {
  const uint64_t offset = arena_.size();
  const uint32_t id = Append(bytes);
  slot->tag = tag;
  slot->unit_plus_1 = static_cast<uint32_t>(offset / kUnit + 1);
  return id;
}

void StringKeyTable::Grow() {
  size_t size = slots_.empty() ? 1024 : 2 * slots_.size();
  while (size < 2 * (count_ + 1)) size *= 2;  // the whole arena, when leaving ascending order
  std::vector<Slot> slots(size);
  const size_t mask = size - 1;
  ForEachUnit([&](uint32_t unit) {
    const uint64_t hash = Hash(At(unit));
    size_t at = static_cast<size_t>(hash) & mask;
    while (slots[at].unit_plus_1 != 0) at = (at + 1) & mask;
    slots[at].tag = static_cast<uint32_t>(hash >> 32);
    slots[at].unit_plus_1 = unit + 1;
  });
  slots_.swap(slots);
  memory::ReleaseVector(&slots);
}

void StringKeyTable::HandBackBefore(uint32_t unit) {
  // Pieces end at 256 KiB-aligned addresses: whole pages, and a system call per few thousand
  // strings. A small arena is left to the allocator (see memory::ReleaseVector).
  constexpr uintptr_t kPiece = uintptr_t{256} << 10;
  if (arena_.capacity() < memory::kReleaseVectorMinBytes) return;
  const uintptr_t base = reinterpret_cast<uintptr_t>(arena_.data());
  const uintptr_t until = (base + uint64_t{unit} * kUnit) & ~(kPiece - 1);
  if (until <= base + handed_back_) return;
  memory::ReturnPages(arena_.data() + handed_back_, until - base - handed_back_);
  handed_back_ = until - base;
}

StringRanks RankStrings(const StringKeyTable& table) {
  StringRanks out;
  out.sorted.reserve(table.size());
  table.ForEachUnit([&out](uint32_t unit) { out.sorted.push_back(unit); });
  if (table.ascending()) return out;  // id order is the sorted order already
  std::sort(out.sorted.begin(), out.sorted.end(), [&table](uint32_t a, uint32_t b) {
    return java::BinaryStringCompareTo(table.At(a), table.At(b)) < 0;
  });
  out.rank.resize(table.size());
  for (uint32_t code = 0; code < out.sorted.size(); ++code) {
    out.rank[table.IdOf(out.sorted[code])] = code;
  }
  return out;
}

}  // namespace pyfileindex::index::range_bitmap
