// PageBlock: one large block straight from the system, backed by huge pages where the kernel
// offers them, handed out as rooms in order.
//
// A bitmap writer that has projected how many bytes each frequent key's rows will take carves
// all of those rooms from one PageBlock: the rows are then written into memory that faults in
// 2 MiB at a time (huge_pages.h) instead of 4 KiB, and the rooms cost one system call.
// The price: once any room in a huge page is written, the whole huge page is resident, so
// rooms a projection overestimated cost memory they would not on small pages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyfileindex::memory {

class PageBlock {
 public:
  PageBlock() = default;
  ~PageBlock();
  PageBlock(PageBlock&& other) noexcept;
  PageBlock& operator=(PageBlock&& other) noexcept;
  PageBlock(const PageBlock&) = delete;
  PageBlock& operator=(const PageBlock&) = delete;

  // What a room of `bytes` takes of the block: rounded up to a cache line (plus a poisoned
  // red zone when built with AddressSanitizer, so a write past a room is caught).
  static size_t RoomSize(size_t bytes);

  // A block for rooms whose RoomSize() add up to `size`, reading as zeros; empty() when the
  // system has no memory for it.
  static PageBlock Allocate(size_t size);

  bool empty() const { return data_ == nullptr; }

  // The next `bytes` of the block, cache-line aligned; nullptr when they do not fit.
  uint8_t* Take(size_t bytes);

 private:
  void Free();

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t taken_ = 0;
  void* mapping_ = nullptr;  // what to unmap (or free): may start before data_
  size_t mapping_size_ = 0;
};

}  // namespace pyfileindex::memory
