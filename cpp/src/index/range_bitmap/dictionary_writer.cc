#include "index/range_bitmap/dictionary_writer.h"

#include <cstring>
#include <limits>
#include <string>

#include "io/endian.h"

namespace pyfileindex::index::range_bitmap {

namespace {

constexpr uint8_t kVersion = 1;
constexpr int32_t kDictionaryHeaderLength = 13;  // version + chunk count + two lengths
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

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

// Stores the key with Java's serializer (a string gets its int length first); returns the end.
uint8_t* PutKey(const SortedKeys& keys, size_t i, uint8_t* out) {
  const std::string_view key = keys.Get(i);
  if (keys.width == 0) {
    io::StoreU32BE(out, static_cast<uint32_t>(key.size()));
    out += 4;
  }
  if (!key.empty()) std::memcpy(out, key.data(), key.size());
  return out + key.size();
}

uint8_t* PutI32(uint8_t* out, int64_t v) {
  io::StoreU32BE(out, static_cast<uint32_t>(static_cast<int32_t>(v)));
  return out + 4;
}

}  // namespace

Result<DictionaryPlan> PlanDictionary(const SortedKeys& keys, int32_t chunk_size) {
  if (keys.count > 0 && chunk_size < 0) {
    return Status::InvalidArgument("range-bitmap option 'chunk-size' is ",
                                   chunk_size,
                                   " bytes after narrowing to int; it must not be negative");
  }
  const bool fixed = keys.width > 0;
  for (size_t i = 0; !fixed && i < keys.count; ++i) {
    if (keys.Get(i).size() > static_cast<size_t>(kIntMax - 4)) {
      return Status::InvalidArgument("range-bitmap: a string key longer than 2^31-5 bytes");
    }
  }
  DictionaryPlan plan;
  plan.chunks = PlanChunks(keys, chunk_size);
  for (const ChunkPlan& chunk : plan.chunks) {
    const int64_t head = static_cast<int64_t>(keys.Get(chunk.head).size()) + (fixed ? 0 : 4);
    plan.headers_size += 1 + head + 5 * 4;
    plan.areas_size += chunk.key_bytes + (fixed ? 0 : 4 * int64_t{chunk.size});
  }
  if (plan.headers_size > kIntMax || plan.areas_size > kIntMax ||
      static_cast<int64_t>(plan.chunks.size()) > kIntMax / 4) {
    return Status::InvalidArgument("range-bitmap: dictionary larger than 2^31-1 bytes");
  }
  return plan;
}

void WriteDictionary(const SortedKeys& keys, const DictionaryPlan& plan, uint8_t* out) {
  const bool fixed = keys.width > 0;
  const std::vector<ChunkPlan>& chunks = plan.chunks;
  uint8_t* p = out;
  p = PutI32(p, kDictionaryHeaderLength);
  *p++ = kVersion;
  p = PutI32(p, static_cast<int64_t>(chunks.size()));
  p = PutI32(p, 4 * static_cast<int64_t>(chunks.size()));
  p = PutI32(p, plan.headers_size);
  uint8_t* offsets = p;
  uint8_t* header = offsets + 4 * chunks.size();
  uint8_t* const headers_begin = header;
  uint8_t* area = headers_begin + plan.headers_size;
  uint8_t* const areas_begin = area;
  for (const ChunkPlan& chunk : chunks) {
    offsets = PutI32(offsets, header - headers_begin);
    *header++ = kVersion;
    header = PutKey(keys, chunk.head, header);
    header = PutI32(header, static_cast<int64_t>(chunk.head));  // code of the head key
    header = PutI32(header, area - areas_begin);
    header = PutI32(header, chunk.size);
    if (fixed) {
      header = PutI32(header, chunk.key_bytes);
      header = PutI32(header, keys.width);
      // The sorted keys are contiguous already: the key area is one copy.
      const size_t bytes = static_cast<size_t>(chunk.key_bytes);
      if (bytes > 0) std::memcpy(area, keys.fixed + (chunk.head + 1) * keys.width, bytes);
      area += bytes;
    } else {
      header = PutI32(header, 4 * int64_t{chunk.size});
      header = PutI32(header, chunk.key_bytes);
      // Key area of a variable chunk: each key's offset within the key bytes, then the keys.
      int64_t offset = 0;
      for (int32_t j = 1; j <= chunk.size; ++j) {
        area = PutI32(area, offset);
        offset += 4 + static_cast<int64_t>(keys.Get(chunk.head + j).size());
      }
      for (int32_t j = 1; j <= chunk.size; ++j) area = PutKey(keys, chunk.head + j, area);
    }
    if (keys.written_through != nullptr) {
      keys.written_through(keys.owner, chunk.head + static_cast<size_t>(chunk.size) + 1);
    }
  }
}

}  // namespace pyfileindex::index::range_bitmap
