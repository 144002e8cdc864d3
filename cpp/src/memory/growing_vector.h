// GrowingVector: a std::vector whose buffers of a page or more are mapped straight from the
// system, so every buffer it frees stops counting as resident at once.
//
// A writer's per-key arrays (the keys' bytes and offsets, the row lists, the HashMap replay,
// the lookup tables) grow by doubling until a file's last row. Each growth frees the buffer
// before, and glibc keeps freed blocks resident for reuse; after a few large frees it also
// raises its mmap threshold, so even MiB-sized buffers come from that heap. A sorted STRING
// column of 100k keys kept 2.6 MB of outgrown buffers resident beside a 4.2 MB index; a
// sorted INT column of 1,000 keys (a 28.6 KB index) 20 KiB of buffers from 4 to 16 KiB
// (handing back only the whole pages inside such a block returns too little of it). A mapped
// buffer costs a system call per growth (a logarithmic number of them) and a page fault per
// page first written, which a reused heap block would not; only the pages written become
// resident, not the capacity a doubling reserved.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include "memory/zeroed_array.h"

namespace pyfileindex::memory {

// std::allocator for blocks below a page; from a page up, blocks mapped from the system
// (AllocateZeroed) and unmapped when freed.
template <typename T>
class PageMappingAllocator {
 public:
  using value_type = T;
  static constexpr size_t kMapMinBytes = size_t{4} << 10;

  PageMappingAllocator() noexcept = default;
  template <typename U>
  PageMappingAllocator(const PageMappingAllocator<U>&) noexcept {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    if (n * sizeof(T) < kMapMinBytes) return std::allocator<T>().allocate(n);
    void* data = AllocateZeroed(n * sizeof(T));
    if (data == nullptr) throw std::bad_alloc();
    return static_cast<T*>(data);
  }
  void deallocate(T* data, size_t n) noexcept {
    if (n * sizeof(T) < kMapMinBytes) {
      std::allocator<T>().deallocate(data, n);
      return;
    }
    FreeZeroed(data, n * sizeof(T));
  }

  template <typename U>
  bool operator==(const PageMappingAllocator<U>&) const noexcept { return true; }
  template <typename U>
  bool operator!=(const PageMappingAllocator<U>&) const noexcept { return false; }
};

template <typename T>
using GrowingVector = std::vector<T, PageMappingAllocator<T>>;

// Empties `v` and frees its buffer (unmapped, when it was mapped).
template <typename T>
void ReleaseVector(GrowingVector<T>* v) {
  GrowingVector<T>().swap(*v);
}

}  // namespace pyfileindex::memory
