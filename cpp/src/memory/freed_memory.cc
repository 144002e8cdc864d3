#include "memory/freed_memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pyfileindex::memory {

void FreedMemory::Trim() {
  pending_ = 0;
#if defined(__GLIBC__)
  malloc_trim(0);  // 0: keep no extra pad at the top of the heap
#endif
}

}  // namespace pyfileindex::memory
