// Serializes the chunked dictionary (Paimon's ChunkedDictionary.Appender) from keys that are
// already sorted and distinct.
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

  std::string_view Get(size_t i) const {
    if (width > 0) {
      return std::string_view(reinterpret_cast<const char*>(fixed) + i * width,
                              static_cast<size_t>(width));
    }
    return string_at(context, i);
  }
};

// Appends the dictionary bytes to `out`. `chunk_size` is the `chunk-size` option narrowed to
// int as Java does; a negative value fails when there is at least one key (Java's
// ByteBuffer.allocate throws there), and key areas past 2^31-1 bytes fail (Java's int offsets).
Status WriteDictionary(const SortedKeys& keys, int32_t chunk_size, std::vector<uint8_t>* out);

}  // namespace pyfileindex::index::range_bitmap
