#include "pyfileindex/row_bitmap.h"

#include "api/boundary.h"
#include "roaring/bitmap32.h"
#include "roaring/read_from.h"
#include "roaring/value_ranges.h"

namespace pyfileindex {

RowBitmap::RowBitmap() : impl_(std::make_unique<roaring::Bitmap32>()) {}
RowBitmap::~RowBitmap() = default;
RowBitmap::RowBitmap(roaring::Bitmap32 impl)
    : impl_(std::make_unique<roaring::Bitmap32>(std::move(impl))) {}
RowBitmap::RowBitmap(const RowBitmap& other)
    : impl_(std::make_unique<roaring::Bitmap32>(*other.impl_)) {}
RowBitmap& RowBitmap::operator=(const RowBitmap& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
RowBitmap::RowBitmap(RowBitmap&& other) noexcept : impl_(std::move(other.impl_)) {
  other.impl_ = std::make_unique<roaring::Bitmap32>();
}
RowBitmap& RowBitmap::operator=(RowBitmap&& other) noexcept {
  std::swap(impl_, other.impl_);
  return *this;
}

RowBitmap RowBitmap::FromRange(uint64_t begin, uint64_t end) {
  return RowBitmap(roaring::Bitmap32::Range(begin, end));
}
RowBitmap RowBitmap::FromSorted(const uint32_t* rows, size_t count) {
  return FromRows(rows, count);
}
RowBitmap RowBitmap::FromRows(const uint32_t* rows, size_t count) {
  roaring::Bitmap32 bitmap;
  bitmap.AddMany(rows, count);
  return RowBitmap(std::move(bitmap));
}
Result<RowBitmap> RowBitmap::Deserialize(const uint8_t* data, size_t size) {
  return api::CatchAll("RowBitmap::Deserialize", [&]() -> Result<RowBitmap> {
    if (data == nullptr && size > 0) return Status::InvalidArgument("null data with a size");
    PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 bitmap, roaring::Bitmap32::Deserialize(data, size));
    return RowBitmap(std::move(bitmap));
  });
}

uint64_t RowBitmap::Cardinality() const { return impl_->Cardinality(); }
bool RowBitmap::IsEmpty() const { return impl_->IsEmpty(); }
bool RowBitmap::Contains(uint32_t row) const { return impl_->Contains(row); }
void RowBitmap::Add(uint32_t row) { impl_->Add(row); }
RowBitmap& RowBitmap::operator&=(const RowBitmap& other) {
  *impl_ &= *other.impl_;
  return *this;
}
RowBitmap& RowBitmap::operator|=(const RowBitmap& other) {
  *impl_ |= *other.impl_;
  return *this;
}
RowBitmap& RowBitmap::operator-=(const RowBitmap& other) {
  *impl_ -= *other.impl_;
  return *this;
}
bool RowBitmap::operator==(const RowBitmap& other) const { return *impl_ == *other.impl_; }

void RowBitmap::ToArray(uint32_t* out) const { impl_->ToArray(out); }
std::vector<uint32_t> RowBitmap::ToVector() const { return impl_->ToVector(); }

std::vector<std::pair<uint64_t, uint64_t>> RowBitmap::ToRanges() const {
  return roaring::ValueRanges(*impl_);
}

std::vector<uint8_t> RowBitmap::Serialize() const {
  // Bitmap32::Serialize re-encodes its containers in place (Java's container choice). Working
  // on a copy keeps this const method safe on a bitmap other threads are reading, e.g. the
  // row set shared by copies of one FileIndexResult.
  roaring::Bitmap32 copy = *impl_;
  return copy.Serialize();
}

size_t RowBitmap::ReadFrom(uint64_t start, uint32_t* out, size_t max) const {
  return roaring::ReadFrom(*impl_, start, out, max);
}

void RowBitmap::const_iterator::Refill(uint64_t start) {
  position_ = 0;
  count_ = static_cast<uint32_t>(bitmap_->ReadFrom(start, batch_, kBatch));
}

}  // namespace pyfileindex
