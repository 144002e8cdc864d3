#include "roaring/bitmap32.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "io/endian.h"
#include "roaring/block_ops.h"
#include "roaring/checked_alloc.h"
#include "roaring/frozen_copy.h"
#include "roaring/portable_check.h"
#include "roaring/roaring_view.h"
#include "roaring/union_by_keys.h"

namespace pyfileindex::roaring {

Bitmap32::Bitmap32() : bitmap_(roaring_bitmap_create()) {}

Bitmap32::~Bitmap32() {
  if (bitmap_ != nullptr) roaring_bitmap_free(bitmap_);
}

Bitmap32::Bitmap32(const Bitmap32& other)
    // A frozen bitmap's copy is frozen too: one copy of its block, not two allocations per
    // container.
    : bitmap_(other.frozen() ? CopyFrozen(other.bitmap_)
                             : Checked(roaring_bitmap_copy(other.bitmap_))) {}

Bitmap32& Bitmap32::operator=(const Bitmap32& other) {
  if (this == &other) return *this;
  if (frozen() || other.frozen()) {
    *this = Bitmap32(other);  // CRoaring's overwrite would free this one's frozen containers
  } else if (!roaring_bitmap_overwrite(bitmap_, other.bitmap_)) {
    throw std::bad_alloc();
  }
  return *this;
}

Bitmap32::Bitmap32(Bitmap32&& other) noexcept : bitmap_(other.bitmap_) {
  other.bitmap_ = roaring_bitmap_create();
}

Bitmap32& Bitmap32::operator=(Bitmap32&& other) noexcept {
  std::swap(bitmap_, other.bitmap_);
  return *this;
}

void Bitmap32::ThawContainers() const {
  roaring_bitmap_t* own = Checked(roaring_bitmap_copy(bitmap_));
  roaring_bitmap_free(bitmap_);
  bitmap_ = own;
}

Bitmap32 Bitmap32::Of(std::initializer_list<uint32_t> values) {
  Bitmap32 result;
  for (uint32_t v : values) result.Add(v);
  return result;
}

Bitmap32 Bitmap32::Range(uint64_t begin, uint64_t end) {
  Bitmap32 result;
  result.AddRange(begin, end);
  return result;
}

Result<Bitmap32> Bitmap32::Deserialize(const uint8_t* data, size_t size, size_t* consumed) {
  const char* buf = reinterpret_cast<const char*>(data);
  // deserialize_size walks the header and container sizes without trusting them past `size`.
  const size_t needed = roaring_bitmap_portable_deserialize_size(buf, size);
  if (needed == 0) {
    return Status::Corrupt("roaring bitmap: truncated or malformed (", size,
                           " bytes available)");
  }
  // The content rules CRoaring's operations rely on, checked on the bytes (faster than
  // roaring_bitmap_internal_validate on the bitmap; see portable_check.h).
  PFI_RETURN_NOT_OK(CheckPortableContent(data, needed));
  roaring_bitmap_t* read = FreezeCopyOf(data, needed);
  if (read == nullptr) read = roaring_bitmap_portable_deserialize_safe(buf, needed);
  if (read == nullptr) return Status::Corrupt("roaring bitmap: malformed portable format");
  Bitmap32 bitmap(read);
#ifndef NDEBUG
  // Debug builds (the sanitizer trees) hold the byte check to CRoaring's own.
  if (!roaring_bitmap_internal_validate(bitmap.bitmap_, nullptr)) {
    std::fprintf(stderr, "CheckPortableContent passed a bitmap CRoaring rejects\n");
    std::abort();
  }
#endif
  if (consumed != nullptr) *consumed = needed;
  return bitmap;
}

void Bitmap32::AddRange(uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  Thaw();
  roaring_bitmap_add_range(bitmap_, begin, end);
}

void Bitmap32::Flip(uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  // CRoaring flips chunk by chunk, looking each 2^16-row chunk of the range up in the bitmap.
  // A range of many more chunks than the bitmap holds (the complement of a few rows within a
  // large row count) is built whole instead, less the bitmap: one pass over both.
  const uint64_t chunks = ((end - 1) >> 16) - (begin >> 16) + 1;
  const uint64_t held = static_cast<uint64_t>(bitmap_->high_low_container.size);
  if (chunks > 2 * held + 2 && (held == 0 || (Minimum() >= begin && Maximum() < end))) {
    Bitmap32 complement = Range(begin, end);
    complement -= *this;
    *this = std::move(complement);
    return;
  }
  Thaw();
  roaring_bitmap_flip_inplace(bitmap_, begin, end);
}

Bitmap32& Bitmap32::operator&=(const Bitmap32& other) {
  Thaw();
  roaring_bitmap_and_inplace(bitmap_, other.bitmap_);
  return *this;
}
Bitmap32& Bitmap32::operator|=(const Bitmap32& other) {
  Thaw();
  roaring_bitmap_or_inplace(bitmap_, other.bitmap_);
  return *this;
}
Bitmap32& Bitmap32::operator-=(const Bitmap32& other) {
  Thaw();
  roaring_bitmap_andnot_inplace(bitmap_, other.bitmap_);
  return *this;
}
Bitmap32& Bitmap32::operator^=(const Bitmap32& other) {
  Thaw();
  roaring_bitmap_xor_inplace(bitmap_, other.bitmap_);
  return *this;
}
Bitmap32 operator&(const Bitmap32& a, const Bitmap32& b) {
  return Bitmap32(roaring_bitmap_and(a.bitmap_, b.bitmap_));
}
Bitmap32 operator|(const Bitmap32& a, const Bitmap32& b) {
  return Bitmap32(roaring_bitmap_or(a.bitmap_, b.bitmap_));
}
Bitmap32 operator-(const Bitmap32& a, const Bitmap32& b) {
  return Bitmap32(roaring_bitmap_andnot(a.bitmap_, b.bitmap_));
}
Bitmap32 operator^(const Bitmap32& a, const Bitmap32& b) {
  return Bitmap32(roaring_bitmap_xor(a.bitmap_, b.bitmap_));
}

Bitmap32 Bitmap32::FastUnion(const std::vector<const Bitmap32*>& inputs) {
  if (inputs.empty()) return Bitmap32();
  if (inputs.size() == 1) return *inputs[0];
  // Key by key: sorted merges where a key's rows stay an array (IN of rare keys), a block
  // where they do not. Views read containers as little-endian bytes, CRoaring's are host-order.
  if (io::endian_internal::kHostIsLittleEndian) {
    std::vector<RoaringView> views;
    std::vector<const RoaringView*> view_ptrs;
    views.reserve(inputs.size());
    for (const Bitmap32* b : inputs) views.push_back(RoaringView::Over(*b));
    for (const RoaringView& v : views) view_ptrs.push_back(&v);
    if (std::optional<Bitmap32> united = UnionByKeys(view_ptrs)) return std::move(*united);
  }
  std::vector<const roaring_bitmap_t*> raw;
  raw.reserve(inputs.size());
  for (const Bitmap32* b : inputs) raw.push_back(b->bitmap_);
  // Run containers among the inputs: CRoaring's unions keep them. or_many ORs every
  // container into a bitset and converts back at the end: fast where the result is dense,
  // but an array-sized result pays an 8 KiB bitset and a scan of it per 16-bit key.
  if (raw.size() == 2) return Bitmap32(roaring_bitmap_or(raw[0], raw[1]));
  uint64_t values = 0;
  uint32_t low_key = 0xFFFF;
  uint32_t high_key = 0;
  for (const roaring_bitmap_t* b : raw) {
    if (roaring_bitmap_is_empty(b)) continue;
    values += roaring_bitmap_get_cardinality(b);
    low_key = std::min(low_key, roaring_bitmap_minimum(b) >> 16);
    high_key = std::max(high_key, roaring_bitmap_maximum(b) >> 16);
  }
  const uint64_t keys = high_key >= low_key ? uint64_t{high_key - low_key} + 1 : 1;
  if (values <= kArrayMaxValues * keys) {
    return Bitmap32(roaring_bitmap_or_many_heap(static_cast<uint32_t>(raw.size()), raw.data()));
  }
  return Bitmap32(roaring_bitmap_or_many(raw.size(), raw.data()));
}

Bitmap32 Bitmap32::FastUnion(const std::vector<Bitmap32>& inputs) {
  std::vector<const Bitmap32*> pointers;
  pointers.reserve(inputs.size());
  for (const Bitmap32& b : inputs) pointers.push_back(&b);
  return FastUnion(pointers);
}

std::vector<uint32_t> Bitmap32::ToVector() const {
  std::vector<uint32_t> out(Cardinality());
  if (!out.empty()) ToArray(out.data());
  return out;
}

void Bitmap32::Compact() {
  Thaw();
  roaring_bitmap_run_optimize(bitmap_);
  roaring_bitmap_shrink_to_fit(bitmap_);
}

void Bitmap32::Canonicalize() const {
  // Java picks run/array/bitmap per container from the values alone when the bitmap was built
  // by add(); CRoaring's run_optimize follows the same rule only for containers that are not
  // runs yet. Removing run compression first makes every history look like add() did it.
  Thaw();
  roaring_bitmap_remove_run_compression(bitmap_);
  roaring_bitmap_run_optimize(bitmap_);
}

size_t Bitmap32::SerializedSize() const {
  Canonicalize();
  return roaring_bitmap_portable_size_in_bytes(bitmap_);
}

void Bitmap32::SerializeTo(std::vector<uint8_t>* out) const {
  Canonicalize();
  const size_t size = roaring_bitmap_portable_size_in_bytes(bitmap_);
  const size_t start = out->size();
  out->resize(start + size);
  roaring_bitmap_portable_serialize(bitmap_, reinterpret_cast<char*>(out->data() + start));
}

void Bitmap32::SerializeTo(uint8_t* out) const {
  Canonicalize();
  roaring_bitmap_portable_serialize(bitmap_, reinterpret_cast<char*>(out));
}

std::vector<uint8_t> Bitmap32::Serialize() const {
  std::vector<uint8_t> out;
  SerializeTo(&out);
  return out;
}

std::vector<uint8_t> Bitmap32::SerializeAsIs() const {
  std::vector<uint8_t> out(roaring_bitmap_portable_size_in_bytes(bitmap_));
  roaring_bitmap_portable_serialize(bitmap_, reinterpret_cast<char*>(out.data()));
  return out;
}

}  // namespace pyfileindex::roaring
