// PackedKeyRecords: records of (key, fixed-size tail) laid back to back in an index payload,
// keys strictly ascending. Bitmap V2 stores two such runs: the block index (key, block
// offset) and each index block (key, bitmap offset, bitmap length).
//
// Reading a run checks once that every record lies inside the bytes and that the keys
// ascend; lookups then binary-search the records where they lie, decoding only the keys
// they probe: decoding and copying every entry of the block a point lookup touches would cost
// more than everything else the lookup does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "io/byte_reader.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bitmap {

class PackedKeyRecords {
 public:
  PackedKeyRecords() = default;

  // Reads `count` records of a key followed by `tail_ints` big-endian int32s, starting at
  // `in`'s cursor and advancing it past them. Corrupt (naming `what`) if a record runs past
  // the bytes or keys do not strictly ascend.
  static Result<PackedKeyRecords> Read(KeyKind kind, size_t tail_ints, uint32_t count,
                                       io::ByteReader* in, const char* what);

  uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  KeyRef KeyAt(uint32_t i) const;
  // The j-th int32 of record i's tail.
  int32_t TailAt(uint32_t i, size_t j) const;

  // The index of the last record whose key is <= `key`, or -1 if every key is greater.
  int64_t LastAtMost(const KeyRef& key) const;
  // The index of the record whose key equals `key`, or -1.
  int64_t Find(const KeyRef& key) const;

 private:
  const uint8_t* Record(uint32_t i) const {
    return key_size_ != 0 ? base_ + size_t{i} * stride_ : base_ + starts_[i];
  }
  // Three-way comparison of record i's key with `key` (Java compareTo order).
  int CompareAt(uint32_t i, const KeyRef& key, uint64_t key_order) const;

  KeyKind kind_ = KeyKind::kInt32;
  size_t key_size_ = 0;  // fixed key size; 0 for strings
  size_t stride_ = 0;    // fixed record size; 0 for strings
  const uint8_t* base_ = nullptr;
  uint32_t count_ = 0;
  // String keys only: each record's start relative to base_ (records vary in size).
  std::vector<uint32_t> starts_;
};

}  // namespace pyfileindex::index::bitmap
