// Serializes the chunked dictionary (Paimon's ChunkedDictionary.Appender) from keys that are
// already sorted and distinct: planned first (its size), then written in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "index/range_bitmap/key_kind.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

// The distinct keys in ascending order, already in their stored form: `width` bytes each for
// fixed-width kinds (contiguous in `fixed`), or the UTF-8 bytes of each string.
struct SortedKeys {
  int width = 0;                   // > 0: fixed-width keys in `fixed`
  const uint8_t* fixed = nullptr;  // count * width bytes
  // width == 0: key i is string_at(context, i) (read where the writer keeps its keys, so no
  // view per key is built for the dictionary).
  std::string_view (*string_at)(const void* context, size_t i) = nullptr;
  const void* context = nullptr;
  size_t count = 0;
  // Optional: told as the dictionary is written that keys [0, end) will not be read again,
  // so their storage can be handed back before the rest is written.
  void (*written_through)(void* owner, size_t end) = nullptr;
  void* owner = nullptr;

  std::string_view Get(size_t i) const {
    if (width > 0) {
      return std::string_view(reinterpret_cast<const char*>(fixed) + i * width,
                              static_cast<size_t>(width));
    }
    return string_at(context, i);
  }
};

// One chunk: key `head` in the header, keys (head, head + size] in its key area.
struct ChunkPlan {
  size_t head;
  int32_t size = 0;       // non-head keys
  int64_t key_bytes = 0;  // bytes of those keys (with a string's 4-byte length prefix)
};

// The dictionary's layout, planned from the keys before any byte is written: its size is known
// up front, and its bytes can go straight to their final place.
struct DictionaryPlan {
  std::vector<ChunkPlan> chunks;
  int64_t headers_size = 0;
  int64_t areas_size = 0;

  size_t size() const {
    return 17 + 4 * chunks.size() + static_cast<size_t>(headers_size + areas_size);
  }
};

// Plans the dictionary of `keys`. `chunk_size` is the `chunk-size` option narrowed to int as
// Java does; a negative value fails when there is at least one key (Java's ByteBuffer.allocate
// throws there), and key areas past 2^31-1 bytes fail (Java's int offsets).
Result<DictionaryPlan> PlanDictionary(const SortedKeys& keys, int32_t chunk_size);

// Writes the planned dictionary (plan.size() bytes) to `out`.
void WriteDictionary(const SortedKeys& keys, const DictionaryPlan& plan, uint8_t* out);

}  // namespace pyfileindex::index::range_bitmap
