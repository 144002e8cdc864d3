// The bitmap index meta (everything before the bitmap bodies), V1 and V2, as Java writes it.
#pragma once

#include <cstdint>
#include <vector>

#include "index/bitmap/key_dictionary.h"
#include "io/byte_writer.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bitmap {

// One key's dictionary entry: body-relative offset, or -1-row for a key with a single row.
struct MetaEntry {
  int32_t offset = 0;
  int32_t length = -1;  // serialized bitmap bytes; -1 for single-row keys
};

struct MetaHead {
  int32_t row_count = 0;
  bool has_null = false;
  int32_t null_offset = 0;  // 0, or -1-row when exactly one row is null
  int32_t null_length = 0;  // serialized null bitmap bytes (V2 writes it even when inlined)
};

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
  static MetaKeys OfDictionary(const WriterKeys& dictionary, const uint32_t* ids, size_t count) {
    MetaKeys keys;
    keys.dictionary_ = &dictionary;
    keys.ids_ = ids;
    keys.count_ = count;
    return keys;
  }

  size_t size() const { return count_; }
  KeyRef operator[](size_t i) const {
    if (dictionary_ != nullptr) return dictionary_->key(ids_[i]);
    KeyRef key;
    key.bits = bits_[i];
    return key;
  }

 private:
  const uint64_t* bits_ = nullptr;
  const WriterKeys* dictionary_ = nullptr;
  const uint32_t* ids_ = nullptr;
  size_t count_ = 0;
};

// The meta's entries are passed in the order of its keys; `entries` may be null when only the
// meta's size is wanted (offsets and lengths do not change it).

// V1: head, then (key, offset) per entry.
void WriteMetaV1(const MetaHead& head, KeyKind kind, const MetaKeys& keys,
                 const MetaEntry* entries, io::ByteWriter* out);

// V2: head, block index, then the entries packed into blocks of at most `block_size_limit`
// bytes. InvalidArgument if a single entry does not fit a block (Java: "index fail").
Status WriteMetaV2(const MetaHead& head, KeyKind kind, const MetaKeys& sorted_keys,
                   const MetaEntry* entries, int64_t block_size_limit, io::ByteWriter* out);

// The block layout of V2: for each block, the index (into `sorted_ids`) of its first entry.
// Exposed for tests. `entry_sizes[i]` = encoded key size + 8 of the i-th sorted entry.
Result<std::vector<size_t>> PackBlocks(const std::vector<size_t>& entry_sizes,
                                       int64_t block_size_limit);

}  // namespace pyfileindex::index::bitmap
