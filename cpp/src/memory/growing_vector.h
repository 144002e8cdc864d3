// GrowingVector: a std::vector whose outgrown buffers hand their pages back as they are freed.
//
// A writer's per-key arrays (the keys' bytes and offsets, the row lists, the HashMap replay,
// the lookup tables) grow by doubling until a file's last row. Each growth frees the buffer
// before, and glibc keeps freed blocks resident for reuse; after a few large frees it also
// raises its mmap threshold, so even MiB-sized buffers come from that heap. A sorted STRING
// column of 100k keys kept 2.6 MB of outgrown buffers resident beside a 4.2 MB index.
// Handing the pages back costs one system call per growth (a logarithmic number of them) and
// a page fault where the heap later reuses a page.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "memory/return_pages.h"

namespace pyfileindex::memory {

// std::allocator, but a block freed is first handed back to the system (ReturnPages, which
// skips blocks below kReturnPagesMinBytes).
template <typename T>
class PageReturningAllocator {
 public:
  using value_type = T;

  PageReturningAllocator() noexcept = default;
  template <typename U>
  PageReturningAllocator(const PageReturningAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* data, size_t n) noexcept {
    ReturnPages(data, n * sizeof(T));
    std::allocator<T>().deallocate(data, n);
  }

  template <typename U>
  bool operator==(const PageReturningAllocator<U>&) const noexcept { return true; }
  template <typename U>
  bool operator!=(const PageReturningAllocator<U>&) const noexcept { return false; }
};

template <typename T>
using GrowingVector = std::vector<T, PageReturningAllocator<T>>;

// Empties `v` and frees its buffer; the allocator hands the pages back (ReleaseVector's own
// hand-back would be a second system call on the same pages).
template <typename T>
void ReleaseVector(GrowingVector<T>* v) {
  GrowingVector<T>().swap(*v);
}

}  // namespace pyfileindex::memory
