// The bitmap index meta (everything before the bitmap bodies), V1 and V2, as Java writes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "index/bitmap/key_dictionary.h"
#include "io/byte_writer.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bitmap {

struct MetaHead {
  int32_t row_count = 0;
  bool has_null = false;
  int32_t null_offset = 0;  // 0, or -1-row when exactly one row is null
  int32_t null_length = 0;  // serialized null bitmap bytes (V2 writes it even when inlined)
};

// Key id at position i of a meta-ordered id list; a null list is the ids in order (keys that
// arrived ascending are sorted already and get no list).
inline uint32_t IdAt(const uint32_t* ids, size_t i) {
  return ids != nullptr ? ids[i] : static_cast<uint32_t>(i);
}

// The meta's keys in the order the meta lists them (V1: HashMap iteration order; V2: sorted
// by key): numeric keys' bits, or ids of a dictionary's keys, read from it where they are
// written (a copy of a million keys' references would be tens of MB beside the meta).
class MetaKeys {
 public:
  static MetaKeys Numeric(const uint64_t* bits, size_t count) {
    MetaKeys keys;
    keys.bits_ = bits;
    keys.count_ = count;
    return keys;
  }
  // Keys of `kind` (KeyBitsFit32) as their low 32 bits (NarrowKeyBits).
  static MetaKeys Numeric32(KeyKind kind, const uint32_t* bits, size_t count) {
    MetaKeys keys;
    keys.kind_ = kind;
    keys.bits32_ = bits;
    keys.count_ = count;
    return keys;
  }
  // `ids` null: the dictionary's ids in order.
  static MetaKeys OfDictionary(const WriterKeys& dictionary, const uint32_t* ids, size_t count) {
    MetaKeys keys;
    keys.dictionary_ = &dictionary;
    keys.ids_ = ids;
    keys.count_ = count;
    return keys;
  }

  size_t size() const { return count_; }
  KeyRef operator[](size_t i) const {
    if (dictionary_ != nullptr) {
      return dictionary_->key(IdAt(ids_, i));
    }
    KeyRef key;
    key.bits = bits32_ != nullptr ? WidenKeyBits(kind_, bits32_[i]) : bits_[i];
    return key;
  }
  // Starts loading key i of a dictionary (see WriterKeys::PrefetchKey); keys in an array of
  // bits are read in order and need no prefetch.
  void Prefetch(size_t i, bool bytes) const {
    if (dictionary_ != nullptr) dictionary_->PrefetchKey(IdAt(ids_, i), bytes);
  }

 private:
  const uint64_t* bits_ = nullptr;
  const uint32_t* bits32_ = nullptr;
  KeyKind kind_ = KeyKind::kInt32;  // of bits32_
  const WriterKeys* dictionary_ = nullptr;
  const uint32_t* ids_ = nullptr;
  size_t count_ = 0;
};

// Where a key's bitmap lies in the body: `offset` body-relative (or -1 - row for a single-row
// key), `bytes` its size (0 for a single-row key). Kept by key id, the two side by side: the
// orders that read them visit the ids at random.
struct KeyBody {
  uint32_t offset = 0;
  uint32_t bytes = 0;
};

// The meta's entries in the order of its keys: entry i belongs to key ids[i] (ids null: key
// i), read from the writer's per-key plan where it is written, not copied out beforehand.
class MetaEntries {
 public:
  // `bodies[id]`: where key `id`'s bitmap lies (a single-row key's length is written as -1).
  MetaEntries(const uint32_t* ids, const KeyBody* bodies) : ids_(ids), bodies_(bodies) {}

  int32_t offset(size_t i) const { return static_cast<int32_t>(bodies_[IdAt(ids_, i)].offset); }
  int32_t length(size_t i) const {
    const uint32_t bytes = bodies_[IdAt(ids_, i)].bytes;
    return bytes != 0 ? static_cast<int32_t>(bytes) : -1;
  }
  // Starts loading entry i (the per-key plan is by id: read at random in sorted order).
  void Prefetch(size_t i) const {
    if (ids_ != nullptr) __builtin_prefetch(&bodies_[ids_[i]]);
  }

 private:
  const uint32_t* ids_;
  const KeyBody* bodies_;
};

// A meta laid out before a byte of it is written: its size is known (the container is sized
// before any index writes into it) and it is then written straight into its place, so the
// whole meta never exists twice. The keys must stay readable until WriteTo.
class MetaPlan {
 public:
  // V1: head, then (key, offset) per entry in the keys' (HashMap) order.
  static MetaPlan V1(const MetaHead& head, KeyKind kind, const MetaKeys& keys);
  // V2: head, block index, then the entries packed into blocks of at most `block_size_limit`
  // bytes. InvalidArgument if a single entry does not fit a block (Java: "index fail").
  static Result<MetaPlan> V2(const MetaHead& head, KeyKind kind, const MetaKeys& sorted_keys,
                             int64_t block_size_limit);

  size_t bytes() const { return bytes_; }
  // Writes the bytes() bytes of the meta to `out`; `keys` as given to V1 / V2.
  void WriteTo(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const;

 private:
  void WriteV1(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const;
  void WriteV2(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const;

  uint8_t version_ = 2;
  MetaHead head_;
  KeyKind kind_ = KeyKind::kInt32;
  // V2: the index of each block's first entry, each block's offset from the first block's,
  // and all blocks' bytes.
  std::vector<size_t> block_starts_;
  std::vector<int64_t> block_offsets_;
  int64_t blocks_bytes_ = 0;
  size_t bytes_ = 0;
};

// The block layout of V2: for each block, the index of its first entry, where
// `entry_size(i)` is the encoded key size + 8 of the i-th sorted entry, for i < count.
// Exposed for tests.
Result<std::vector<size_t>> PackBlocks(size_t count, const std::function<size_t(size_t)>& entry_size,
                                       int64_t block_size_limit);
Result<std::vector<size_t>> PackBlocks(const std::vector<size_t>& entry_sizes,
                                       int64_t block_size_limit);

}  // namespace pyfileindex::index::bitmap
