#include "memory/zeroed_array.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pyfileindex::memory {

void* AllocateZeroed(size_t bytes) {
#if defined(__linux__)
  void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return data == MAP_FAILED ? nullptr : data;
#else
  return std::calloc(bytes, 1);
#endif
}

void FreeZeroed(void* data, size_t bytes) {
#if defined(__linux__)
  munmap(data, bytes);
#else
  (void)bytes;
  std::free(data);
#endif
}

}  // namespace pyfileindex::memory
