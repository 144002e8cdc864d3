// GrowingVector: a std::vector whose outgrown and released buffers stop counting as resident.
//
// A writer's per-key arrays (the keys' bytes and offsets, the row lists, the HashMap replay,
// the lookup tables) grow by doubling until a file's last row. Each growth frees the buffer
// before, and glibc keeps freed blocks resident for reuse; after a few large frees it also
// raises its mmap threshold, so even MiB-sized buffers come from that heap. A sorted STRING
// column of 100k keys kept 2.6 MB of outgrown buffers resident beside a 4.2 MB index.
//
// Two ways out, by size:
// - From kMapMaxBytes up, the buffer comes from the heap and its whole pages are handed back
//   when it is freed (ReturnPages): all of it but two partial pages, and a later block reuses
//   the heap's address range (100 files of 100k rows, STRING c=100k: 35.3 ms a file against
//   36.6 with mapped buffers).
// - From a page to kMapMaxBytes, the buffer is mapped straight from the system and unmapped
//   when freed. Handing back the whole pages inside a block this small returns too little of
//   it: a sorted INT column of 1,000 keys (a 28.6 KB index) kept 20 KiB of 4-16 KiB buffers
//   resident. The price is a page fault per page written in every build (a 100k-row INT
//   c=1k file: 40-60 us of 0.8 ms).
// Below a page, the heap as it is: mapped alone, a smaller buffer would still take a whole
// page once written (on 64 KiB pages no size is mapped at all).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include "memory/return_pages.h"
#include "memory/zeroed_array.h"

namespace pyfileindex::memory {

template <typename T>
class GrowingVectorAllocator {
 public:
  using value_type = T;
  static constexpr size_t kMapMinBytes = size_t{4} << 10;
  static constexpr size_t kMapMaxBytes = size_t{64} << 10;

  GrowingVectorAllocator() noexcept = default;
  template <typename U>
  GrowingVectorAllocator(const GrowingVectorAllocator<U>&) noexcept {}  // NOLINT: rebinding

  static bool Maps(size_t bytes) {
    return bytes >= kMapMinBytes && bytes >= PageSize() && bytes < kMapMaxBytes;
  }

  T* allocate(size_t n) {
    if (!Maps(n * sizeof(T))) return std::allocator<T>().allocate(n);
    void* data = AllocateZeroed(n * sizeof(T));
    if (data == nullptr) throw std::bad_alloc();
    return static_cast<T*>(data);
  }
  void deallocate(T* data, size_t n) noexcept {
    if (Maps(n * sizeof(T))) {
      FreeZeroed(data, n * sizeof(T));
      return;
    }
    ReturnPages(data, n * sizeof(T));  // a no-op below kReturnPagesMinBytes
    std::allocator<T>().deallocate(data, n);
  }

  template <typename U>
  bool operator==(const GrowingVectorAllocator<U>&) const noexcept { return true; }
  template <typename U>
  bool operator!=(const GrowingVectorAllocator<U>&) const noexcept { return false; }
};

template <typename T>
using GrowingVector = std::vector<T, GrowingVectorAllocator<T>>;

// Empties `v` and frees its buffer (its pages handed back as above).
template <typename T>
void ReleaseVector(GrowingVector<T>* v) {
  GrowingVector<T>().swap(*v);
}

}  // namespace pyfileindex::memory
