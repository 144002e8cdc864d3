#include "memory/return_pages.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pyfileindex::memory {

void ReturnPages(void* data, size_t size) {
#if defined(__linux__)
  if (data == nullptr || size < kReturnPagesMinBytes) return;
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
#else
  (void)data;
  (void)size;
#endif
}

void ReturnFreeHeapPages() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void MoveOutInPieces(uint8_t* dst, uint8_t* src, size_t size) {
  // Pieces end at 256 KiB-aligned addresses, so every page but the block's first and last
  // lies whole inside one piece; a system call per piece costs little next to its copy.
  constexpr uintptr_t kPiece = uintptr_t{256} << 10;
  const bool hand_back = size >= kReturnPagesMinBytes;
  for (size_t done = 0; done < size;) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(src + done);
    const size_t n = std::min<size_t>(kPiece - (at & (kPiece - 1)), size - done);
    std::memcpy(dst + done, src + done, n);
    if (hand_back) ReturnPages(src + done, n);
    done += n;
  }
}

}  // namespace pyfileindex::memory
