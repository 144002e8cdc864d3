// ReturnPages: hands the memory of a block that is about to be freed back to the system.
//
// A writer's rows move into the container key by key. The C library keeps freed heap blocks
// resident for reuse, so without this the rows and the finished container would be resident
// at once (twice the index). Only the pages of this block are returned, so the cost is
// proportional to what is released (a whole-heap trim also walks the host's heap: slow inside
// a Python process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyfileindex::memory {

// Blocks smaller than this are freed as they are: a system call would cost more than it saves.
constexpr size_t kReturnPagesMinBytes = size_t{16} << 10;

// The whole pages inside [data, data + size) read as zeros afterwards and stop counting as
// resident. Call just before freeing the block (its first and last partial pages, where the
// allocator keeps its bookkeeping, are left alone). A no-op where unsupported.
void ReturnPages(void* data, size_t size);

// Hands the whole free pages of the C library's heap back to the system (glibc malloc_trim;
// a no-op elsewhere). For a writer that has just freed a contiguous stretch of many small
// blocks, which the allocator would otherwise keep resident. It walks the heap's free
// chunks, so call it every few MiB freed, not per block.
void ReturnFreeHeapPages();

// Copies [src, src + size) to `dst` a 256 KiB piece at a time, handing each copied piece's
// pages back (ReturnPages), so a buffer moving into its final place is never resident twice.
// `src` reads as zeros afterwards; free it next.
void MoveOutInPieces(uint8_t* dst, uint8_t* src, size_t size);

// Buffers from this size are worth handing back when freed mid-build. Smaller ones are left
// to the allocator: a task writing file after file would fault them in again for the next.
constexpr size_t kReleaseVectorMinBytes = size_t{256} << 10;

// Empties `v` and frees its buffer, handing the buffer's pages back first if it is large.
template <typename T>
void ReleaseVector(std::vector<T>* v) {
  if (v->capacity() * sizeof(T) >= kReleaseVectorMinBytes) {
    ReturnPages(v->data(), v->capacity() * sizeof(T));
  }
  std::vector<T>().swap(*v);
}

}  // namespace pyfileindex::memory
