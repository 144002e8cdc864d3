#include "index/bitmap/row_sets.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "index/bitmap/java_roaring_encoder.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

namespace {
static_assert(tuning::kFirstRowListCapacity % 4 == 2,
              "a list's layout is read from its capacity (row_sets.h)");
uint32_t GrownCapacity(uint32_t capacity) {
  const uint32_t want = 2 * capacity;
  return (want + 1) / 4 * 4 + 2;
}
// A list without ListBlocks starts its heap array where a block's list goes next: never at a
// block's capacity, which marks a block (RowList::InBlock).
constexpr uint32_t kOwnFirstCapacity = 14;
static_assert(kOwnFirstCapacity % 4 == 2 && kOwnFirstCapacity != ListBlocks::kBlockEntries,
              "a list's layout is read from its capacity (row_sets.h)");
// 192 KiB a chunk: a few dozen chunks for a million keys.
constexpr size_t kBlocksPerChunk = 8192;
}  // namespace

ListBlocks& ListBlocks::operator=(ListBlocks&& other) noexcept {
  if (this != &other) {
    chunks_ = std::move(other.chunks_);
    next_ = other.next_;
    left_ = other.left_;
    other.chunks_.clear();
    other.next_ = nullptr;
    other.left_ = 0;
  }
  return *this;
}

void ListBlocks::NewChunk() {
  // Default-initialized: the blocks' entries are written before they are read.
  chunks_.emplace_back(new uint32_t[kBlocksPerChunk * kBlockEntries]);
  next_ = chunks_.back().get();
  left_ = kBlocksPerChunk;
}

RowList::~RowList() { Release(); }

RowList::RowList(RowList&& other) noexcept
    : heap_(nullptr), size_(0), capacity_(0) {
  *this = std::move(other);
}

RowList& RowList::operator=(RowList&& other) noexcept {
  if (this != &other) {
    Release();
    if (other.capacity_ > 0) {
      heap_ = other.heap_;
    } else {
      std::copy(other.inline_, other.inline_ + kInlineEntries, inline_);
    }
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.heap_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

roaring::Bitmap32* RowList::flushed() const {
  roaring::Bitmap32* bitmap;
  std::memcpy(&bitmap, heap_ - kPointerEntries, sizeof(bitmap));
  return bitmap;
}

void RowList::Release() {
  if (capacity_ > 0) {
    if (HasFlushed()) delete flushed();
    if (!InBlock()) std::free(HeapBlock());  // a block goes with its ListBlocks
  }
  heap_ = nullptr;
  size_ = capacity_ = 0;
}

void RowList::AppendRun(uint32_t first, uint32_t count, ListBlocks* blocks) {
  Append(first, blocks);
  if (count == 1) return;
  Append(first + 1, blocks);  // the last entry now ends a run at first + 1 ...
  uint32_t& last = mutable_entries()[size_ - 1];
  if ((last & kRunEnd) != 0) {
    last = (first + count - 1) | kRunEnd;  // ... which is moved to the run's end
    return;
  }
  // ... unless a flush into the bitmap fell between first and first + 1: row by row then.
  for (uint32_t row = first + 2; row < first + count; ++row) Append(row, blocks);
}

void RowList::AppendSlow(uint32_t entry, ListBlocks* blocks) {
  if (capacity_ == 0) {
    // A third entry: the inline ones move to a heap array.
    const uint32_t capacity = blocks != nullptr ? ListBlocks::kBlockEntries : kOwnFirstCapacity;
    uint32_t* rows = blocks != nullptr
                         ? blocks->Take()
                         : static_cast<uint32_t*>(std::malloc(capacity * sizeof(uint32_t)));
    if (rows == nullptr) throw std::bad_alloc();
    std::copy(inline_, inline_ + kInlineEntries, rows);
    heap_ = rows;
    capacity_ = capacity;
  } else if (InBlock()) {
    // Out of the block: on to a malloc'd array (the block stays with its ListBlocks).
    const uint32_t grown = GrownCapacity(capacity_);
    uint32_t* rows = static_cast<uint32_t*>(std::malloc(size_t{grown} * sizeof(uint32_t)));
    if (rows == nullptr) throw std::bad_alloc();
    std::copy(heap_, heap_ + size_, rows);
    heap_ = rows;
    capacity_ = grown;
  } else if (size_ >= tuning::kRowListFlushEntries) {
    // A frequent key: its rows so far go into a bitmap (compact for dense rows). The new
    // entry cannot end a run whose start is in the bitmap now.
    FlushToBitmap();
    entry &= ~kRunEnd;
  } else {
    const uint32_t head = HasFlushed() ? kPointerEntries : 0;  // the block's pointer entries
    const uint32_t grown = GrownCapacity(capacity_ + head);
    void* bigger = std::realloc(HeapBlock(), size_t{grown} * sizeof(uint32_t));
    if (bigger == nullptr) throw std::bad_alloc();
    heap_ = static_cast<uint32_t*>(bigger) + head;
    capacity_ = grown - head;
  }
  heap_[size_++] = entry;
}

void RowList::FlushToBitmap() {
  // Only a heap array is ever flushed (kRowListFlushEntries pending entries, or a flushed list).
  const bool first_flush = !HasFlushed();
  roaring::Bitmap32* bitmap = first_flush ? new roaring::Bitmap32() : flushed();
  const uint32_t* e = entries();
  size_t plain_from = 0;  // entries [plain_from, i) hold no run end: added in bulk
  for (size_t i = 0; i < size_; ++i) {
    if ((e[i] & kRunEnd) == 0) continue;
    if (i - 1 > plain_from) bitmap->AddMany(e + plain_from, i - 1 - plain_from);
    bitmap->AddRange(e[i - 1], uint64_t{e[i] & ~kRunEnd} + 1);
    plain_from = i + 1;
  }
  if (size_ > plain_from) bitmap->AddMany(e + plain_from, size_ - plain_from);
  size_ = 0;
  if (first_flush) {  // the array's first two entries now hold the bitmap's pointer
    std::memcpy(heap_, &bitmap, sizeof(bitmap));
    heap_ += kPointerEntries;
    capacity_ -= kPointerEntries;
  }
}

uint64_t RowList::Count() const {
  uint64_t count = HasFlushed() ? flushed()->Cardinality() : 0;
  const uint32_t* e = entries();
  for (size_t i = 0; i < size_; ++i) {
    count += (e[i] & kRunEnd) == 0 ? 1 : (e[i] & ~kRunEnd) - e[i - 1];
  }
  return count;
}

uint32_t RowList::FirstRow() const {
  if (HasFlushed() && !flushed()->IsEmpty()) return flushed()->Minimum();
  return entries()[0];  // never a run end
}

void RowList::MoveEntriesTo(uint32_t* out) {
  std::copy(entries(), entries() + size_, out);
  Release();
}

namespace {
bool AnyRunEnd(const uint32_t* entries, size_t n) {
  return std::any_of(entries, entries + n, [](uint32_t v) { return (v & RowList::kRunEnd) != 0; });
}
}  // namespace

size_t RowList::SerializedSizeOfEntries(const uint32_t* entries, size_t n) {
  return AnyRunEnd(entries, n) ? JavaRoaringSizeOfRuns(entries, n) : JavaRoaringSize(entries, n);
}

void RowList::SerializeEntries(const uint32_t* entries, size_t n, uint8_t* out) {
  if (AnyRunEnd(entries, n)) {
    WriteJavaRoaringOfRuns(entries, n, out);
  } else {
    WriteJavaRoaring(entries, n, out);
  }
}

size_t RowList::SerializedSize() {
  if (HasFlushed()) {
    FlushToBitmap();  // the pending rows join the bitmap, which serializes itself
    return flushed()->SerializedSize();
  }
  const uint32_t* e = entries();
  return HasRuns() ? JavaRoaringSizeOfRuns(e, size_) : JavaRoaringSize(e, size_);
}

bool RowList::HasRuns() const { return AnyRunEnd(entries(), size_); }

void RowList::SerializeTo(uint8_t* out) {
  if (HasFlushed()) {
    flushed()->SerializeTo(out);
  } else {
    if (HasRuns()) {
      WriteJavaRoaringOfRuns(entries(), size_, out);
    } else {
      WriteJavaRoaring(entries(), size_, out);
    }
    if (capacity_ > 0) memory::ReturnPages(heap_, size_t{capacity_} * sizeof(uint32_t));
  }
  Release();
}

}  // namespace pyfileindex::index::bitmap
