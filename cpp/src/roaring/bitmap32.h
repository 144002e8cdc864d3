// Bitmap32: the one wrapper over the vendored CRoaring, with Paimon RoaringBitmap32's byte rules.
// Only code under cpp/src/ may include this header (CRoaring stays out of the public API).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pyfileindex/status.h"
#include "roaring.h"

namespace pyfileindex::roaring {

class Bitmap32 {
 public:
  Bitmap32();
  ~Bitmap32();
  Bitmap32(const Bitmap32& other);
  Bitmap32& operator=(const Bitmap32& other);
  Bitmap32(Bitmap32&& other) noexcept;
  Bitmap32& operator=(Bitmap32&& other) noexcept;

  static Bitmap32 Of(std::initializer_list<uint32_t> values);
  static Bitmap32 Range(uint64_t begin, uint64_t end);  // [begin, end)

  // Reads one bitmap in the portable format from the front of [data, data+size). Validates the
  // structure (never reads past `size`); `consumed` receives the bytes it occupied. The bitmap
  // reads its containers in place from its own copy of the bytes where it can (frozen_copy.h)
  // until it is first changed.
  static Result<Bitmap32> Deserialize(const uint8_t* data, size_t size, size_t* consumed = nullptr);

  void Add(uint32_t value) {
    Thaw();
    roaring_bitmap_add(bitmap_, value);
  }
  void AddMany(const uint32_t* values, size_t count) {
    // An empty vector's data() may be null, and CRoaring adds the count to the pointer first.
    if (count == 0) return;
    Thaw();
    roaring_bitmap_add_many(bitmap_, count, values);
  }
  void AddRange(uint64_t begin, uint64_t end);  // [begin, end)
  void Remove(uint32_t value) {
    Thaw();
    roaring_bitmap_remove(bitmap_, value);
  }
  void Flip(uint64_t begin, uint64_t end);  // complement within [begin, end)

  bool Contains(uint32_t value) const { return roaring_bitmap_contains(bitmap_, value); }
  uint64_t Cardinality() const { return roaring_bitmap_get_cardinality(bitmap_); }
  bool IsEmpty() const { return roaring_bitmap_is_empty(bitmap_); }
  uint32_t Minimum() const { return roaring_bitmap_minimum(bitmap_); }  // UINT32_MAX if empty
  uint32_t Maximum() const { return roaring_bitmap_maximum(bitmap_); }  // 0 if empty
  // Number of values <= `value`.
  uint64_t Rank(uint32_t value) const { return roaring_bitmap_rank(bitmap_, value); }
  // The value at 0-based position `rank`; false if rank >= Cardinality().
  bool Select(uint32_t rank, uint32_t* value) const {
    return roaring_bitmap_select(bitmap_, rank, value);
  }

  Bitmap32& operator&=(const Bitmap32& other);
  Bitmap32& operator|=(const Bitmap32& other);
  Bitmap32& operator-=(const Bitmap32& other);  // and-not
  Bitmap32& operator^=(const Bitmap32& other);
  friend Bitmap32 operator&(const Bitmap32& a, const Bitmap32& b);
  friend Bitmap32 operator|(const Bitmap32& a, const Bitmap32& b);
  friend Bitmap32 operator-(const Bitmap32& a, const Bitmap32& b);
  friend Bitmap32 operator^(const Bitmap32& a, const Bitmap32& b);
  bool operator==(const Bitmap32& other) const {
    return roaring_bitmap_equals(bitmap_, other.bitmap_);
  }
  bool operator!=(const Bitmap32& other) const { return !(*this == other); }
  // Union of many bitmaps at once (faster than repeated |=).
  static Bitmap32 FastUnion(const std::vector<const Bitmap32*>& inputs);
  static Bitmap32 FastUnion(const std::vector<Bitmap32>& inputs);
  uint64_t AndCardinality(const Bitmap32& other) const {
    return roaring_bitmap_and_cardinality(bitmap_, other.bitmap_);
  }

  void ToArray(uint32_t* out) const { roaring_bitmap_to_uint32_array(bitmap_, out); }
  std::vector<uint32_t> ToVector() const;
  template <typename F>
  void ForEach(F&& visit) const {  // visit(uint32_t value) in ascending order
    roaring_uint32_iterator_t it;
    roaring_iterator_init(bitmap_, &it);
    uint32_t buffer[256];
    for (;;) {
      uint32_t n = roaring_uint32_iterator_read(&it, buffer, 256);
      for (uint32_t i = 0; i < n; ++i) visit(buffer[i]);
      if (n < 256) break;
    }
  }

  // Each container in its smallest form (runs where they are smaller) and the bitmap's arrays
  // trimmed: the values are unchanged, the memory is what they need.
  void Compact();

  // Paimon's RoaringBitmap32.serialize(): Java's run/array/bitmap choice for the value set
  // (as Java picks it for a bitmap built by add()), then the portable format.
  std::vector<uint8_t> Serialize() const;
  void SerializeTo(std::vector<uint8_t>* out) const;  // appends
  void SerializeTo(uint8_t* out) const;               // writes SerializedSize() bytes
  size_t SerializedSize() const;  // bytes Serialize() will produce
  // The portable format of the containers exactly as they are (for bitmaps read from Java
  // bytes, which must round-trip unchanged).
  std::vector<uint8_t> SerializeAsIs() const;

  roaring_bitmap_t* raw() {
    Thaw();
    return bitmap_;
  }
  const roaring_bitmap_t* raw() const { return bitmap_; }
  // Whether the containers are still read in place from one copy of the bytes (Deserialize).
  bool frozen() const { return (bitmap_->high_low_container.flags & ROARING_FLAG_FROZEN) != 0; }

 private:
  friend class BlockBuilder;  // adopts the bitmap it assembles
  explicit Bitmap32(roaring_bitmap_t* adopt) : bitmap_(adopt) {}
  void Canonicalize() const;  // Java's container choice; logically const (same values)
  // Before any change: a frozen bitmap's containers become its own (logically const: the
  // values stay the same).
  void Thaw() const {
    if (frozen()) ThawContainers();
  }
  void ThawContainers() const;

  mutable roaring_bitmap_t* bitmap_;  // frozen (frozen_copy.h) until first changed
};

}  // namespace pyfileindex::roaring
