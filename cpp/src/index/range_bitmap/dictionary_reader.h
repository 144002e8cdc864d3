// Lazy lookups in a chunked dictionary (Paimon's ChunkedDictionary.find).
//
// Only the 17-byte dictionary header is read on Open(); a chunk's header is parsed (and
// cached) when a binary search first touches it, and its keys are read in place, so a lookup
// touches O(log chunks) chunk headers and one chunk's key area.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "index/range_bitmap/key_kind.h"
#include "sync/lazy_cell.h"
#include "index/range_bitmap/literal_probe.h"
#include "io/byte_span.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

using sync::LazyCell;

class DictionaryReader {
 public:
  // `dictionary`: exactly the dictionary's bytes. `cardinality`: the index header's key count.
  static Result<std::unique_ptr<DictionaryReader>> Open(io::ByteSpan dictionary,
                                                        const KeySpec& spec, int64_t cardinality);

  // Java's find(key): the key's code if present, else -(insertion point) - 1, where the
  // insertion point is the code of the first key greater than `key` (cardinality if none).
  Result<int64_t> Find(const LookupKey& key) const;

  // visit(code, key) for the codes first..last (clamped to the dictionary), ascending; string
  // keys without their length prefix, fixed keys as their stored bytes.
  Status ForEachKey(int64_t first, int64_t last,
                    const std::function<void(int64_t, std::string_view)>& visit) const;
  // The stored key of `code` (a string key without its length prefix); Corrupt when the code
  // is outside [0, cardinality) or no chunk holds it.
  Result<std::string_view> KeyOfCode(int64_t code) const;

  int32_t chunk_count() const { return chunk_count_; }
  // Chunk headers parsed so far (for tests of laziness).
  size_t LoadedChunks() const;

 private:
  struct Chunk {
    std::string_view head;      // stored head key (a string key without its length prefix)
    uint64_t head_ordered = 0;  // fixed-width kinds
    int64_t head_code = 0;
    int32_t size = 0;               // non-head keys
    const uint8_t* area = nullptr;  // key area: fixed keys, or offsets then string keys
    int64_t offsets_length = 0;     // variable chunks: bytes of the offsets before the keys
    int64_t keys_length = 0;        // bytes of the keys
  };

  DictionaryReader(io::ByteSpan dictionary, const KeySpec& spec, int64_t cardinality)
      : dictionary_(dictionary), spec_(spec), cardinality_(cardinality) {}

  Result<const Chunk*> GetChunk(int32_t index) const;
  // The last chunk whose head code is at most `code`; -1 when every chunk starts after it.
  Result<int32_t> LastChunkFrom(int64_t code) const;
  Result<Chunk> ParseChunk(int32_t index) const;
  // Java comparator(stored key, key): negative, zero or positive.
  int Compare(std::string_view stored, const LookupKey& key) const;
  Result<std::string_view> KeyAt(const Chunk& chunk, int32_t j) const;

  io::ByteSpan dictionary_;
  KeySpec spec_;
  int64_t cardinality_;
  int32_t chunk_count_ = 0;
  io::ByteSpan offsets_;  // chunk header offsets
  io::ByteSpan headers_;  // chunk headers
  io::ByteSpan keys_;     // key areas of all chunks
  std::unique_ptr<LazyCell<Chunk>[]> chunks_;
  mutable std::atomic<size_t> loaded_{0};
};

}  // namespace pyfileindex::index::range_bitmap
