// RowList / RowSets: the rows of every distinct key (and of the nulls), collected in row order.
//
// A key's rows are appended to a plain growable array (amortised: no allocation per row) and
// serialized at the end straight from that sorted array (java_roaring_encoder.h). The writer
// keeps the rows of rare keys this way (frequent ones: container_rows.h). A key's first two
// entries are stored inline, so neither a key with one or two rows nor a key whose rows are
// one run (a sorted column) allocates anything; a key whose pending
// array reaches tuning::kRowListFlushEntries moves it into a roaring bitmap, which bounds memory for frequent
// keys at roughly what Java's bitmaps take.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "index/bitmap/java_roaring_encoder.h"
#include "index/bitmap/tuning.h"
#include "memory/growing_vector.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index::bitmap {

// The first heap arrays of many row lists (tuning::kFirstRowListCapacity entries each), carved
// from a few large chunks. Most keys of a high-cardinality column get a third row: a small
// malloc (and later free) per key costs more than its rows do. Blocks are never handed back
// one by one; they all go with their ListBlocks.
class ListBlocks {
 public:
  ListBlocks() = default;
  ListBlocks(ListBlocks&& other) noexcept { *this = std::move(other); }
  ListBlocks& operator=(ListBlocks&& other) noexcept;
  ListBlocks(const ListBlocks&) = delete;
  ListBlocks& operator=(const ListBlocks&) = delete;

  static constexpr uint32_t kBlockEntries = tuning::kFirstRowListCapacity;

  uint32_t* Take() {
    if (left_ == 0) NewChunk();
    --left_;
    uint32_t* block = next_;
    next_ += kBlockEntries;
    return block;
  }

 private:
  void NewChunk();

  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
  uint32_t* next_ = nullptr;
  size_t left_ = 0;  // blocks left in the last chunk
};

class RowList {
 public:
  // Rows are below 2^31 (Java counts rows in an int), so bit 31 of an entry marks the end of
  // a run: entries [a, b | kRunEnd] stand for rows a..b. A key whose rows cluster (a sorted
  // column) then keeps two entries per run instead of one per row.
  static constexpr uint32_t kRunEnd = kRunEndMark;

  RowList() : heap_(nullptr) {}
  ~RowList();
  RowList(RowList&& other) noexcept;
  RowList& operator=(RowList&& other) noexcept;
  RowList(const RowList&) = delete;
  RowList& operator=(const RowList&) = delete;

  // `row` must be greater than every row appended before. A list outgrowing its inline
  // entries takes its first array from `blocks` when given (which must outlive the list's
  // use of it), else from malloc.
  void Append(uint32_t row, ListBlocks* blocks = nullptr) {
    uint32_t* const e = mutable_entries();
    if (size_ > 0) {
      uint32_t& last = e[size_ - 1];
      if ((last & ~kRunEnd) + 1 == row) {
        if ((last & kRunEnd) != 0) {  // extends a run
          last = row | kRunEnd;
          return;
        }
        row |= kRunEnd;  // a start and its successor: the start of a run
      }
    }
    if (size_ < (capacity_ == 0 ? kInlineEntries : capacity_)) {
      e[size_++] = row;
    } else {
      AppendSlow(row, blocks);
    }
  }

  // Rows first .. first + count - 1 (`count` >= 1), above every row appended before: two
  // entries however long the run.
  void AppendRun(uint32_t first, uint32_t count, ListBlocks* blocks = nullptr);

  void PrefetchTail() const {
    if (capacity_ > 0) __builtin_prefetch(heap_ + size_, 1);
  }
  // The first entries, for a reader of the whole list (serialization).
  void PrefetchHead() const {
    if (capacity_ > 0) __builtin_prefetch(heap_);
  }

  uint64_t Count() const;
  // visit(first, last) for the rows ascending, as runs within a container span (single
  // rows: first == last); runs may continue one another.
  template <typename Visit>
  void ForEachPiece(Visit&& visit) const;
  bool IsSingle() const { return !HasFlushed() && size_ == 1; }
  uint32_t OnlyRow() const { return entries()[0]; }  // IsSingle()
  uint32_t FirstRow() const;  // Count() >= 1

  // Java's RoaringBitmap32.serialize() size of the rows, then writing those bytes to `out`
  // (which releases the rows).
  size_t SerializedSize();
  void SerializeTo(uint8_t* out);
  // The list as entries (rows, or run ends marked kRunEnd) only, none in a bitmap yet: those
  // can be moved out (MoveEntriesTo) and serialized later with SerializeEntries.
  bool AllPending() const { return !HasFlushed(); }
  // Up to two entries, held in the list itself: nothing on the heap.
  bool IsInline() const { return capacity_ == 0; }
  uint32_t PendingEntries() const { return size_; }
  // Copies the entries to `out` (PendingEntries() of them) and frees the list. AllPending().
  void MoveEntriesTo(uint32_t* out);
  // RoaringBitmap32.serialize() size and bytes of entries moved out of a list.
  static size_t SerializedSizeOfEntries(const uint32_t* entries, size_t n);
  static void SerializeEntries(const uint32_t* entries, size_t n, uint8_t* out);

 private:
  void AppendSlow(uint32_t entry, ListBlocks* blocks);
  // Moves the pending entries into the flushed bitmap (runs as ranges), made at the first flush.
  void FlushToBitmap();
  const uint32_t* entries() const { return capacity_ == 0 ? inline_ : heap_; }
  uint32_t* mutable_entries() { return capacity_ == 0 ? inline_ : heap_; }
  // Once rows are flushed, the bitmap's pointer takes the first two entries of the heap
  // array, and heap_ and capacity_ describe the rest: capacities are 4k + 2 entries, so a
  // capacity that is a multiple of 4 marks that layout (no field, and no test on the append
  // path).
  static constexpr uint32_t kPointerEntries = sizeof(roaring::Bitmap32*) / sizeof(uint32_t);
  static_assert(kPointerEntries == 2, "a 4k + 2 capacity less the pointer is a multiple of 4");
  bool HasFlushed() const { return capacity_ != 0 && capacity_ % 4 == 0; }
  // A ListBlocks block holds the entries: no other array has its capacity (malloc'd first
  // arrays start at GrownCapacity of it, and flushed ones hold multiples of 4).
  bool InBlock() const { return capacity_ == ListBlocks::kBlockEntries; }
  roaring::Bitmap32* flushed() const;  // HasFlushed()
  uint32_t* HeapBlock() const { return HasFlushed() ? heap_ - kPointerEntries : heap_; }
  bool HasRuns() const;
  void Release();

  static constexpr uint32_t kInlineEntries = 2;
  // 16 bytes per key: with millions of keys, this struct is most of the writer's memory.
  union {
    uint32_t* heap_;                   // capacity_ > 0: pending entries (malloc'd)
    uint32_t inline_[kInlineEntries];  // capacity_ == 0: up to two entries, in the pointer's room
  };
  uint32_t size_ = 0;      // pending entries
  uint32_t capacity_ = 0;  // 0: the entries are inline
};
static_assert(sizeof(RowList) == 16, "a key's list: a pointer's room and two counts");

template <typename Visit>
void RowList::ForEachPiece(Visit&& visit) const {
  if (HasFlushed()) flushed()->ForEach([&visit](uint32_t row) { visit(row, row); });
  bitmap::ForEachPiece(entries(), size_, visit);
}

// One RowList per dense key id.
class RowSets {
 public:
  // Adds `row` to key `id`; ids are dense, a new id is exactly the number of keys so far.
  void Append(uint32_t id, uint32_t row) {
    if (id == lists_.size()) lists_.emplace_back();
    lists_[id].Append(row, blocks());
  }
  // Adds rows first .. first + count - 1 to key `id` (a valid id): RowList::AppendRun.
  void AppendRun(uint32_t id, uint32_t first, uint32_t count) {
    lists_[id].AppendRun(first, count, blocks());
  }
  // Whether lists reaching a third entry take a ListBlocks block (the default) or a malloc'd
  // array. A list outgrowing its block leaves it unused until the sets go: blocks pay where
  // most keys keep few rows.
  void UseBlocks(bool use) { use_blocks_ = use; }
  // Makes ids [0, count) valid (new keys start with no rows).
  void Resize(size_t count) {
    if (count > lists_.size()) lists_.resize(count);
  }
  // Room for `count` keys' lists, reserved, not made valid.
  void Reserve(size_t count) { lists_.reserve(count); }
  size_t size() const { return lists_.size(); }
  // Drops the lists of ids [0, count): the list of id `count` becomes id 0's.
  void DropFront(size_t count) {
    lists_.erase(lists_.begin(), lists_.begin() + static_cast<std::ptrdiff_t>(count));
  }
  // With many keys, each append misses the cache twice: on the key's list and on its last
  // entry. Callers prefetch the list a few rows ahead, then (once cached) its tail.
  void PrefetchList(uint32_t id) const {
    if (id < lists_.size()) __builtin_prefetch(&lists_[id]);
  }
  void PrefetchTail(uint32_t id) const {
    if (id < lists_.size()) lists_[id].PrefetchTail();
  }
  void PrefetchHead(uint32_t id) const {
    if (id < lists_.size()) lists_[id].PrefetchHead();
  }
  RowList& operator[](uint32_t id) { return lists_[id]; }
  const RowList& operator[](uint32_t id) const { return lists_[id]; }

 private:
  ListBlocks* blocks() { return use_blocks_ ? &blocks_ : nullptr; }

  // The lists before their blocks: a RowSets moved over this one drops the lists first.
  memory::GrowingVector<RowList> lists_;
  ListBlocks blocks_;
  bool use_blocks_ = true;
};

}  // namespace pyfileindex::index::bitmap
