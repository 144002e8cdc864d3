#include "index/bitmap/packed_key_records.h"

#include <limits>
#include <string>
#include <type_traits>

#include "io/endian.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::bitmap {

namespace {

constexpr size_t kTailIntBytes = 4;

Status OutOfOrder(const char* what, uint32_t i, size_t payload_offset) {
  return Status::Corrupt("bitmap index: keys of ", what,
                         " do not ascend at record ", i,
                         " (payload offset ", payload_offset, ")");
}

std::string_view StringKeyAt(const uint8_t* record) {
  return std::string_view(reinterpret_cast<const char*>(record) + 4, io::LoadU32BE(record));
}

// The first record whose key is not above the one before it, or `count` if keys ascend.
template <KeyKind kKind>
uint32_t FirstNotAscending(const uint8_t* base, size_t stride, uint32_t count) {
  uint64_t previous = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t order = NumericSortKey(kKind, DecodeFixedKeyBits(kKind, base + i * stride));
    if (i > 0 && order <= previous) return i;
    previous = order;
  }
  return count;
}

// Calls fn with the kind as a compile-time constant (fixed-size kinds only).
template <typename Fn>
auto WithFixedKind(KeyKind kind, Fn&& fn) {
  using K = KeyKind;
  switch (kind) {
    case K::kInt8: return fn(std::integral_constant<K, K::kInt8>());
    case K::kInt16: return fn(std::integral_constant<K, K::kInt16>());
    case K::kInt32: return fn(std::integral_constant<K, K::kInt32>());
    case K::kInt64: return fn(std::integral_constant<K, K::kInt64>());
    case K::kFloat: return fn(std::integral_constant<K, K::kFloat>());
    case K::kDouble: return fn(std::integral_constant<K, K::kDouble>());
    case K::kBool:
    case K::kString:
    case K::kBinary: break;
  }
  return fn(std::integral_constant<K, K::kBool>());
}

}  // namespace

Result<PackedKeyRecords> PackedKeyRecords::Read(KeyKind kind, size_t tail_ints, uint32_t count,
                                                io::ByteReader* in, const char* what) {
  PackedKeyRecords out;
  out.kind_ = kind;
  out.key_size_ = FixedKeySize(kind);
  out.count_ = count;
  const size_t tail_bytes = tail_ints * kTailIntBytes;
  const size_t start = in->position();
  out.base_ = in->Rest().data();

  if (out.key_size_ != 0) {
    out.stride_ = out.key_size_ + tail_bytes;
    PFI_RETURN_NOT_OK(in->Skip(size_t{count} * out.stride_, what));
    // Fixed keys compare as unsigned sort keys in the Java order. One loop per key kind, so
    // the decoding inlines: this check is most of what opening a V2 block costs.
    const uint32_t bad = WithFixedKind(kind, [&](auto constant_kind) {
      return FirstNotAscending<constant_kind()>(out.base_, out.stride_, count);
    });
    if (bad < count) return OutOfOrder(what, bad, in->base_offset() + start + bad * out.stride_);
    return out;
  }

  // String keys: an int32 length, the bytes, then the tail; each record found in turn.
  PFI_RETURN_NOT_OK(in->Require(size_t{count} * (4 + tail_bytes), what));
  out.starts_.resize(count);
  std::string_view previous;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t offset = in->position() - start;
    if (offset > std::numeric_limits<uint32_t>::max()) {
      return Status::Corrupt("bitmap index: ", what, " spans more than 4 GiB");
    }
    out.starts_[i] = static_cast<uint32_t>(offset);
    PFI_ASSIGN_OR_RETURN(uint32_t length, in->ReadLength("string key length"));
    PFI_RETURN_NOT_OK(in->Skip(length + tail_bytes, what));
    const std::string_view key = StringKeyAt(out.Record(i));
    if (i > 0 && java::BinaryStringCompareTo(previous, key) >= 0) {
      return OutOfOrder(what, i, in->base_offset() + start + offset);
    }
    previous = key;
  }
  return out;
}

KeyRef PackedKeyRecords::KeyAt(uint32_t i) const {
  KeyRef key;
  if (key_size_ != 0) {
    key.bits = DecodeFixedKeyBits(kind_, Record(i));
  } else {
    key.bytes = StringKeyAt(Record(i));
  }
  return key;
}

int32_t PackedKeyRecords::TailAt(uint32_t i, size_t j) const {
  const uint8_t* record = Record(i);
  const size_t key_bytes = key_size_ != 0 ? key_size_ : 4 + io::LoadU32BE(record);
  return static_cast<int32_t>(io::LoadU32BE(record + key_bytes + j * kTailIntBytes));
}

int PackedKeyRecords::CompareAt(uint32_t i, const KeyRef& key, uint64_t key_order) const {
  if (key_size_ == 0) return java::BinaryStringCompareTo(StringKeyAt(Record(i)), key.bytes);
  const uint64_t order = NumericSortKey(kind_, DecodeFixedKeyBits(kind_, Record(i)));
  return order < key_order ? -1 : (order > key_order ? 1 : 0);
}

int64_t PackedKeyRecords::LastAtMost(const KeyRef& key) const {
  const uint64_t key_order = key_size_ != 0 ? NumericSortKey(kind_, key.bits) : 0;
  // First record with a greater key; the one before it is the answer.
  uint32_t low = 0;
  uint32_t high = count_;
  while (low < high) {
    const uint32_t mid = low + (high - low) / 2;
    if (CompareAt(mid, key, key_order) <= 0) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return static_cast<int64_t>(low) - 1;
}

int64_t PackedKeyRecords::Find(const KeyRef& key) const {
  const int64_t i = LastAtMost(key);
  if (i < 0) return -1;
  const uint64_t key_order = key_size_ != 0 ? NumericSortKey(kind_, key.bits) : 0;
  return CompareAt(static_cast<uint32_t>(i), key, key_order) == 0 ? i : -1;
}

}  // namespace pyfileindex::index::bitmap
