#include "index/bitmap/row_sets.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "index/bitmap/java_roaring_encoder.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

namespace {
constexpr uint32_t kFirstCapacity = 4;
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
      inline_row_ = other.inline_row_;
    }
    size_ = other.size_;
    capacity_ = other.capacity_;
    flushed_ = std::move(other.flushed_);
    other.heap_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

void RowList::Release() {
  if (capacity_ > 0) std::free(heap_);
  heap_ = nullptr;
  size_ = capacity_ = 0;
}

void RowList::AppendSlow(uint32_t row) {
  if (capacity_ == 0) {
    // Second row: leave the inline slot for a heap array.
    const uint32_t first = inline_row_;
    uint32_t* rows = static_cast<uint32_t*>(std::malloc(kFirstCapacity * sizeof(uint32_t)));
    if (rows == nullptr) throw std::bad_alloc();
    rows[0] = first;
    heap_ = rows;
    capacity_ = kFirstCapacity;
  } else if (size_ >= kFlushRows) {
    // A frequent key: its rows so far go into a bitmap (compact for dense rows).
    if (!flushed_) flushed_ = std::make_unique<roaring::Bitmap32>();
    flushed_->AddMany(heap_, size_);
    size_ = 0;
  } else {
    const uint32_t grown = capacity_ * 2;
    void* bigger = std::realloc(heap_, size_t{grown} * sizeof(uint32_t));
    if (bigger == nullptr) throw std::bad_alloc();
    heap_ = static_cast<uint32_t*>(bigger);
    capacity_ = grown;
  }
  heap_[size_++] = row;
}

void RowList::Reserve(uint32_t rows) {
  if (capacity_ >= rows) return;
  uint32_t grown = capacity_ == 0 ? kFirstCapacity : capacity_;
  while (grown < rows) grown *= 2;
  if (capacity_ == 0) {
    const bool has_inline = size_ == 1;
    const uint32_t first = inline_row_;
    uint32_t* fresh = static_cast<uint32_t*>(std::malloc(size_t{grown} * sizeof(uint32_t)));
    if (fresh == nullptr) throw std::bad_alloc();
    if (has_inline) fresh[0] = first;
    heap_ = fresh;
  } else {
    void* bigger = std::realloc(heap_, size_t{grown} * sizeof(uint32_t));
    if (bigger == nullptr) throw std::bad_alloc();
    heap_ = static_cast<uint32_t*>(bigger);
  }
  capacity_ = grown;
}

void RowList::AppendMany(const uint32_t* rows, uint32_t count) {
  if (count <= 1) {
    if (count == 1) Append(rows[0]);
    return;
  }
  if (uint64_t{size_} + count > kFlushRows) {
    // A frequent key: the pending rows and these go into the bitmap, as AppendSlow does.
    if (!flushed_) flushed_ = std::make_unique<roaring::Bitmap32>();
    if (size_ > 0) flushed_->AddMany(capacity_ == 0 ? &inline_row_ : heap_, size_);
    size_ = 0;
    flushed_->AddMany(rows, count);
    return;
  }
  Reserve(size_ + count);
  std::memcpy(heap_ + size_, rows, size_t{count} * sizeof(uint32_t));
  size_ += count;
}

uint64_t RowList::Count() const { return (flushed_ ? flushed_->Cardinality() : 0) + size_; }

uint32_t RowList::FirstRow() const {
  if (flushed_ && !flushed_->IsEmpty()) return flushed_->Minimum();
  return capacity_ == 0 ? inline_row_ : heap_[0];
}

size_t RowList::SerializedSize() {
  if (flushed_) {
    // A frequent key: its pending rows join the bitmap, which serializes itself.
    flushed_->AddMany(capacity_ == 0 ? &inline_row_ : heap_, size_);
    size_ = 0;
    return flushed_->SerializedSize();
  }
  return JavaRoaringSize(capacity_ == 0 ? &inline_row_ : heap_, size_);
}

void RowList::SerializeTo(uint8_t* out) {
  if (flushed_) {
    flushed_->SerializeTo(out);
    flushed_.reset();
  } else {
    WriteJavaRoaring(capacity_ == 0 ? &inline_row_ : heap_, size_, out);
    if (capacity_ > 0) memory::ReturnPages(heap_, size_t{capacity_} * sizeof(uint32_t));
  }
  Release();
}

}  // namespace pyfileindex::index::bitmap
