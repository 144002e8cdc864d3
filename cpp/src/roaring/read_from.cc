#include "roaring/read_from.h"

#include <algorithm>

namespace pyfileindex::roaring {

size_t ReadFrom(const Bitmap32& bitmap, uint64_t start, uint32_t* out, size_t max) {
  if (start > UINT32_MAX || max == 0) return 0;
  // A stack iterator: nothing is allocated, and the bitmap is only read (safe to share).
  roaring_uint32_iterator_t it;
  roaring_iterator_init(bitmap.raw(), &it);
  if (!roaring_uint32_iterator_move_equalorlarger(&it, static_cast<uint32_t>(start))) return 0;
  size_t total = 0;
  while (total < max) {
    const uint32_t want = static_cast<uint32_t>(std::min<size_t>(max - total, UINT32_MAX));
    const uint32_t got = roaring_uint32_iterator_read(&it, out + total, want);
    total += got;
    if (got < want) break;
  }
  return total;
}

}  // namespace pyfileindex::roaring
