// GrowingVector: a std::vector whose outgrown and released buffers stop counting as resident.
//
// A writer's per-key arrays (the keys' bytes and offsets, the row lists, the HashMap replay,
// the lookup tables) grow by doubling until a file's last row. Each growth frees the buffer
// before, and glibc keeps freed blocks resident for reuse; after a few large frees it also
// raises its mmap threshold, so even MiB-sized buffers come from that heap. The outgrown
// buffers of a column with many keys would stay resident beside the index, a large part of it.
//
// Two ways out, by size:
// - From kMapMaxBytes up, the buffer comes from the heap and its whole pages are handed back
//   when it is freed (ReturnPages): all of it but two partial pages, and a later block reuses
//   the heap's address range (cheaper than mapping and unmapping it for every file).
// - From a page to kMapMaxBytes, the buffer is mapped straight from the system and unmapped
//   when freed. Handing back the whole pages inside a block this small returns too little of
//   it: a small index's outgrown buffers would stay resident, as large as the index. The price
//   is a page fault per page written in every build, small beside the build.
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
