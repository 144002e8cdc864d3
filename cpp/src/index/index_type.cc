#include "index/index_type.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "memory/return_pages.h"

namespace pyfileindex::index {

void ColumnIndexWriter::SerializeTo(uint8_t* out) {
  // Pieces end at 256 KiB-aligned addresses, so every page but the block's first and last
  // lies whole inside one piece; a system call per piece costs little next to its copy.
  constexpr uintptr_t kPiece = uintptr_t{256} << 10;
  uint8_t* src = prepared_.data();
  const size_t size = prepared_.size();
  const bool hand_back = size >= memory::kReturnPagesMinBytes;
  for (size_t done = 0; done < size;) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(src + done);
    const size_t n = std::min<size_t>(kPiece - (at & (kPiece - 1)), size - done);
    std::memcpy(out + done, src + done, n);
    if (hand_back) memory::ReturnPages(src + done, n);
    done += n;
  }
  prepared_ = std::vector<uint8_t>();
}

}  // namespace pyfileindex::index
