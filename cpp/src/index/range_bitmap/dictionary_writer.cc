#include "index/range_bitmap/dictionary_writer.h"

#include <limits>
#include <string>

#include "io/byte_writer.h"

namespace pyfileindex::index::range_bitmap {

namespace {

constexpr uint8_t kVersion = 1;
constexpr int32_t kDictionaryHeaderLength = 13;  // version + chunk count + two lengths
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

// One chunk: key `head` in the header, keys (head, head + size] in its key area.
struct ChunkPlan {
  size_t head;
  int32_t size = 0;        // non-head keys
  int64_t key_bytes = 0;   // bytes of those keys (with a string's 4-byte length prefix)
};

// Java's tryAdd capacity rule for one chunk of `chunk_size` bytes.
std::vector<ChunkPlan> PlanChunks(const SortedKeys& keys, int64_t chunk_size) {
  std::vector<ChunkPlan> chunks;
  const bool fixed = keys.width > 0;
  for (size_t i = 0; i < keys.count; ++i) {
    if (!chunks.empty()) {
      ChunkPlan& open = chunks.back();
      const int64_t need = fixed ? keys.width : 4 + static_cast<int64_t>(keys.Get(i).size());
      const bool fits = fixed ? need <= chunk_size - open.key_bytes
                              : need <= chunk_size - open.key_bytes &&
                                    4 <= chunk_size - 4 * static_cast<int64_t>(open.size);
      if (fits) {
        open.size += 1;
        open.key_bytes += need;
        continue;
      }
    }
    ChunkPlan next;
    next.head = i;
    chunks.push_back(next);
  }
  return chunks;
}

void WriteKey(const SortedKeys& keys, size_t i, io::ByteWriter* w) {
  const std::string_view key = keys.Get(i);
  if (keys.width == 0) w->WriteI32BE(static_cast<int32_t>(key.size()));
  w->WriteBytes(io::ByteSpan::Of(key));
}

}  // namespace

Status WriteDictionary(const SortedKeys& keys, int32_t chunk_size, std::vector<uint8_t>* out) {
  if (keys.count > 0 && chunk_size < 0) {
    return Status::InvalidArgument("range-bitmap option 'chunk-size' is " +
                                   std::to_string(chunk_size) +
                                   " bytes after narrowing to int; it must not be negative");
  }
  for (size_t i = 0; keys.width == 0 && i < keys.count; ++i) {
    if (keys.Get(i).size() > static_cast<size_t>(kIntMax - 4)) {
      return Status::InvalidArgument("range-bitmap: a string key longer than 2^31-5 bytes");
    }
  }
  const std::vector<ChunkPlan> chunks = PlanChunks(keys, chunk_size);

  io::ByteWriter headers;
  io::ByteWriter key_areas;
  std::vector<int32_t> header_offsets;
  header_offsets.reserve(chunks.size());
  for (const ChunkPlan& chunk : chunks) {
    if (headers.size() > static_cast<size_t>(kIntMax) ||
        key_areas.size() > static_cast<size_t>(kIntMax)) {
      return Status::InvalidArgument("range-bitmap: dictionary larger than 2^31-1 bytes");
    }
    header_offsets.push_back(static_cast<int32_t>(headers.size()));
    const int32_t area_offset = static_cast<int32_t>(key_areas.size());
    headers.WriteU8(kVersion);
    WriteKey(keys, chunk.head, &headers);
    headers.WriteI32BE(static_cast<int32_t>(chunk.head));  // code of the head key
    headers.WriteI32BE(area_offset);
    headers.WriteI32BE(chunk.size);
    if (keys.width > 0) {
      headers.WriteI32BE(static_cast<int32_t>(chunk.key_bytes));
      headers.WriteI32BE(keys.width);
    } else {
      headers.WriteI32BE(4 * chunk.size);
      headers.WriteI32BE(static_cast<int32_t>(chunk.key_bytes));
      // Key area of a variable chunk: offsets of each key within the key bytes, then the keys.
      int32_t offset = 0;
      for (int32_t j = 1; j <= chunk.size; ++j) {
        key_areas.WriteI32BE(offset);
        offset += 4 + static_cast<int32_t>(keys.Get(chunk.head + j).size());
      }
    }
    for (int32_t j = 1; j <= chunk.size; ++j) WriteKey(keys, chunk.head + j, &key_areas);
  }
  if (headers.size() > static_cast<size_t>(kIntMax) ||
      key_areas.size() > static_cast<size_t>(kIntMax)) {
    return Status::InvalidArgument("range-bitmap: dictionary larger than 2^31-1 bytes");
  }

  io::ByteWriter w(std::move(*out));
  w.Reserve(w.size() + 17 + 4 * chunks.size() + headers.size() + key_areas.size());
  w.WriteI32BE(kDictionaryHeaderLength);
  w.WriteU8(kVersion);
  w.WriteI32BE(static_cast<int32_t>(chunks.size()));
  w.WriteI32BE(static_cast<int32_t>(4 * chunks.size()));
  w.WriteI32BE(static_cast<int32_t>(headers.size()));
  for (int32_t offset : header_offsets) w.WriteI32BE(offset);
  w.WriteBytes(headers.bytes());
  w.WriteBytes(key_areas.bytes());
  *out = w.Take();
  return Status::OK();
}

}  // namespace pyfileindex::index::range_bitmap
