#include "index/bitmap/key_dictionary.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "index/bitmap/ids_by_sort_key.h"
#include "io/endian.h"
#include "java/hash_codes.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

namespace {

template <typename Vector>
size_t HeapBytes(const Vector& v) {
  return v.capacity() * sizeof(typename Vector::value_type);
}

// Slots (a power of two, >= 2^kFirstTableSlotsLog2) for `count` keys at most 3/4 full.
unsigned TableLog2For(size_t count) {
  unsigned log2 = tuning::kFirstTableSlotsLog2;
  while ((size_t{1} << log2) * 3 < count * 4) ++log2;
  return log2;
}

// Rebuilds an open-addressing table at 2^log2 slots (more than it has), placing every id by
// `slot_of` (which reads *shift, set by then).
template <typename Slots, typename SlotOf>
void Rehash(Slots* slots, size_t* mask, unsigned* shift, unsigned log2, SlotOf slot_of,
            const typename Slots::value_type& empty_slot) {
  using SlotT = typename Slots::value_type;
  const uint32_t empty = empty_slot.id;
  Slots old = std::move(*slots);
  const size_t capacity = size_t{1} << log2;
  slots->assign(capacity, empty_slot);
  *mask = capacity - 1;
  *shift = 64 - log2;
  for (const SlotT& s : old) {
    if (s.id == empty) continue;
    size_t i = slot_of(s);
    while ((*slots)[i].id != empty) i = (i + 1) & *mask;
    (*slots)[i] = s;
  }
}

// Builds an open-addressing table over ids [0, count), with room for `room` keys (>= count)
// at most 3/4 full: entry_of(id) gives the id's first slot (from *shift, set by then) and
// what its slot holds.
template <typename Slots, typename EntryOf>
void BuildTableOver(Slots* slots, size_t* mask, unsigned* shift, size_t count, size_t room,
                    const typename Slots::value_type& empty_slot, EntryOf entry_of) {
  const unsigned log2 = TableLog2For(std::max(count, room));
  slots->assign(size_t{1} << log2, empty_slot);
  *mask = slots->size() - 1;
  *shift = 64 - log2;
  for (uint32_t id = 0; id < count; ++id) {
    const auto [slot, entry] = entry_of(id);
    size_t i = slot;
    while ((*slots)[i].id != empty_slot.id) i = (i + 1) & *mask;
    (*slots)[i] = entry;
  }
}

}  // namespace

// ---- numeric --------------------------------------------------------------------------------

NumericKeyDictionary::NumericKeyDictionary(KeyKind kind)
    : kind_(kind) {}

std::vector<uint32_t> NumericKeyDictionary::JavaOrderIn(memory::Scratch scratch) const {
  return order_.IterationOrder(
      [this](uint32_t a, uint32_t b) { return CompareKeys(kind_, key(a), key(b)); }, scratch);
}

bool NumericKeyDictionary::InternAscending(uint64_t bits, uint32_t* id) {
  if (!keys_.empty()) {
    const uint64_t last = keys_.back();
    if (bits == last) {
      NoteHit();
      *id = static_cast<uint32_t>(keys_.size() - 1);
      return true;
    }
    if (NumericSortKey(kind_, bits) < NumericSortKey(kind_, last)) {
      ascending_ = false;
      BuildTable();
      return false;
    }
  }
  *id = Append(bits);
  return true;
}

uint32_t NumericKeyDictionary::Append(uint64_t bits) {
  const uint32_t id = static_cast<uint32_t>(keys_.size());
  NoteInWindow(bits, id);
  keys_.push_back(bits);
  order_.InsertNew(NumericJavaHash(kind_, bits));
  touch_pending_ = order_.HitMatters();
  return id;
}

uint32_t NumericKeyDictionary::Insert(uint64_t bits, uint64_t hash, size_t slot) {
  const uint32_t id = Append(bits);
  slots_[slot] = Slot{hash, id};
  if (keys_.size() * 4 > slots_.size() * 3) Grow();  // load <= 0.75
  return id;
}

void NumericKeyDictionary::BuildTable() {
  BuildTableOver(&slots_, &mask_, &shift_, keys_.size(), expected_keys_, Slot{0, kEmpty},
                 [this](uint32_t id) {
    const uint64_t hash = HashOf(keys_[id]);
    return std::make_pair(SlotIndex(hash), Slot{hash, id});
  });
}

void NumericKeyDictionary::OpenWindow() {
  const bool integral = kind_ != KeyKind::kFloat && kind_ != KeyKind::kDouble;
  if (!integral || keys_.empty()) return;
  // The keys' range and common step (the bits are the keys sign-extended: distances from the
  // lowest are exact as unsigned differences).
  int64_t low = static_cast<int64_t>(keys_[0]);
  int64_t high = low;
  for (const uint64_t bits : keys_) {
    low = std::min(low, static_cast<int64_t>(bits));
    high = std::max(high, static_cast<int64_t>(bits));
  }
  uint64_t step = 0;
  for (const uint64_t bits : keys_) step = std::gcd(step, bits - static_cast<uint64_t>(low));
  // One key, too few keys to trust a step, or a step so large the window would wrap.
  if (step == 0 || keys_.size() < tuning::kStepEvidenceKeys || step > ~uint64_t{0} / tuning::kWindowKeys) {
    step = 1;
  }
  WindowShape window;
  window.step = step;
  window.shift = static_cast<unsigned>(__builtin_ctzll(step));
  const uint64_t odd = step >> window.shift;
  // odd^-1 modulo 2^64 by Newton's iteration: odd is its own inverse modulo 8, and each
  // round doubles the correct low bits (3, 6, 12, 24, 48, 96).
  window.inverse = odd;
  for (int round = 0; round < 5; ++round) window.inverse *= 2 - odd * window.inverse;
  // Around the keys so far when they fit, with as much room below them as above (a window
  // around the first key alone would leave out the top of a domain whose first key is near
  // its bottom: those keys would be hashed on every row); else around the first key. The
  // bits wrap: any base works.
  const uint64_t span_steps = (static_cast<uint64_t>(high) - static_cast<uint64_t>(low)) / step;
  window.base = span_steps < tuning::kWindowKeys
                    ? static_cast<uint64_t>(low) - (tuning::kWindowKeys - 1 - span_steps) / 2 * step
                    : keys_[0] - tuning::kWindowKeys / 2 * step;
  window.size = tuning::kWindowKeys;
  window_entries_ = memory::ZeroedArray<uint32_t>(tuning::kWindowKeys);
  window_ = window;
  for (uint32_t id = 0; id < keys_.size(); ++id) NoteInWindow(keys_[id], id);
}

void NumericKeyDictionary::Touch() {
  order_.NoteHit();
  touch_pending_ = false;
}

void NumericKeyDictionary::Grow() { RehashTo(64 - shift_ + 1); }

void NumericKeyDictionary::RehashTo(unsigned log2) {
  Rehash(&slots_, &mask_, &shift_, log2,
         [this](const Slot& s) { return SlotIndex(s.hash); }, Slot{0, kEmpty});
}

void NumericKeyDictionary::ExpectKeys(size_t count) {
  if (count <= keys_.size()) return;
  expected_keys_ = count;
  keys_.reserve(count);
  order_.Reserve(count);
  if (ascending_) return;  // no table yet: BuildTable sizes it
  const unsigned log2 = TableLog2For(count);
  if (log2 > 64 - shift_) RehashTo(log2);
}

size_t NumericKeyDictionary::MemoryBytes() const {
  // The window is mapped memory of its own, given back when freed: not counted.
  return HeapBytes(slots_) + HeapBytes(keys_) + order_.MemoryBytes();
}

std::vector<uint32_t> NumericKeyDictionary::SortedIdsIn(memory::Scratch scratch) const {
  if (ascending_) {  // every key came above the one before
    std::vector<uint32_t> ids(keys_.size());
    std::iota(ids.begin(), ids.end(), 0u);
    return ids;
  }
  const size_t n = keys_.size();
  std::vector<uint64_t> own_sort_keys;
  uint64_t* const sort_keys = scratch.TakeOr(n, &own_sort_keys);
  for (uint32_t id = 0; id < n; ++id) sort_keys[id] = NumericSortKey(kind_, keys_[id]);
  return IdsBySortKey(sort_keys, n, scratch);
}

// ---- strings --------------------------------------------------------------------------------

StringKeyDictionary::StringKeyDictionary(bool expect_ascending)
    : ascending_(expect_ascending),
      offsets_{0} {
  if (!ascending_) BuildTable();
}

std::vector<uint32_t> StringKeyDictionary::JavaOrderIn(memory::Scratch scratch) const {
  return order_.IterationOrder(
      [this](uint32_t a, uint32_t b) { return java::BinaryStringCompareTo(View(a), View(b)); },
      scratch);
}

bool StringKeyDictionary::InternAscending(std::string_view bytes, uint32_t* id) {
  const size_t count = size();
  if (count > 0) {
    const std::string_view last = View(static_cast<uint32_t>(count - 1));
    if (SameBytes(last, bytes)) {
      NoteHit();
      *id = static_cast<uint32_t>(count - 1);
      return true;
    }
    if (java::BinaryStringCompareTo(bytes, last) < 0) {
      ascending_ = false;
      BuildTable();
      return false;
    }
  }
  *id = Append(bytes);
  return true;
}

uint32_t StringKeyDictionary::Append(std::string_view bytes) {
  const uint32_t id = static_cast<uint32_t>(size());
  arena_.insert(arena_.end(), bytes.begin(), bytes.end());
  offsets_.push_back(arena_.size());
  order_.InsertNew(java::BinaryStringHashCode(bytes));
  touch_pending_ = order_.HitMatters();
  return id;
}

uint32_t StringKeyDictionary::Insert(std::string_view bytes, uint64_t hash, size_t slot) {
  const uint32_t id = Append(bytes);
  slots_[slot] = SlotOf(id, hash);
  if (size() * 4 > slots_.size() * 3) Grow();  // load <= 0.75
  return id;
}

StringKeyDictionary::Slot StringKeyDictionary::SlotOf(uint32_t id, uint64_t hash) const {
  const uint64_t length = std::min<uint64_t>(offsets_[id + 1] - offsets_[id], kLongKey);
  return Slot{TagOf(hash), id, uint64_t{offsets_[id]} << 16 | length};
}

void StringKeyDictionary::BuildTable() {
  BuildTableOver(&slots_, &mask_, &shift_, size(), expected_keys_, Slot{0, kEmpty, 0},
                 [this](uint32_t id) {
    const uint64_t h = HashBytes(View(id));
    return std::make_pair(SlotIndex(h), SlotOf(id, h));
  });
}

void StringKeyDictionary::Touch() {
  order_.NoteHit();
  touch_pending_ = false;
}

void StringKeyDictionary::Grow() { RehashTo(64 - shift_ + 1); }

void StringKeyDictionary::RehashTo(unsigned log2) {
  // The new slot index is the top bits of the tag (shift_ >= 32: at most 2^32 slots).
  Rehash(
      &slots_, &mask_, &shift_, log2,
      [this](const Slot& s) { return size_t{s.tag} >> (shift_ - 32); }, Slot{0, kEmpty, 0});
}

void StringKeyDictionary::ExpectKeys(size_t count, size_t bytes) {
  if (count <= size()) return;
  expected_keys_ = count;
  arena_.reserve(bytes);
  offsets_.reserve(count + 1);
  order_.Reserve(count);
  if (ascending_) return;  // no table yet: BuildTable sizes it
  const unsigned log2 = TableLog2For(count);
  if (log2 > 64 - shift_) RehashTo(log2);
}

void StringKeyDictionary::ReleaseLookup() {
  memory::ReleaseVector(&slots_);
  mask_ = 0;
  order_ = java::ComputeIfAbsentOrder();
}

size_t StringKeyDictionary::MemoryBytes() const {
  return HeapBytes(slots_) + HeapBytes(arena_) + HeapBytes(offsets_) + order_.MemoryBytes();
}

namespace {

// A string's first 8 bytes as a big-endian number, zero-padded: ordered as the strings are
// (BinaryString compares unsigned bytes, then lengths), with ties only between strings that
// share those bytes.
uint64_t PrefixKey(std::string_view bytes) {
  uint8_t head[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (!bytes.empty()) std::memcpy(head, bytes.data(), std::min<size_t>(bytes.size(), 8));
  return io::LoadU64BE(head);
}

}  // namespace

std::vector<uint32_t> StringKeyDictionary::SortedIdsIn(memory::Scratch scratch) const {
  const uint32_t n = static_cast<uint32_t>(size());
  if (ascending_) {  // every key came above the one before
    std::vector<uint32_t> ids(n);
    std::iota(ids.begin(), ids.end(), 0u);
    return ids;
  }
  // Ordered by the prefixes first (a radix sort), then only the ids of a shared prefix by
  // comparing whole strings: keys are distinct, so the order is the comparison sort's.
  std::vector<uint64_t> own_prefixes;
  uint64_t* const prefixes = scratch.TakeOr(n, &own_prefixes);
  for (uint32_t id = 0; id < n; ++id) prefixes[id] = PrefixKey(View(id));
  // The prefixes come back in the ids' order.
  std::vector<uint32_t> ids = IdsBySortKey(prefixes, n, scratch);
  for (uint32_t i = 0; i < n;) {
    const uint64_t prefix = prefixes[i];
    uint32_t j = i + 1;
    while (j < n && prefixes[j] == prefix) ++j;
    if (j - i > 1) {
      std::sort(ids.begin() + i, ids.begin() + j, [this](uint32_t a, uint32_t b) {
        return java::BinaryStringCompareTo(View(a), View(b)) < 0;
      });
    }
    i = j;
  }
  return ids;
}

}  // namespace pyfileindex::index::bitmap
