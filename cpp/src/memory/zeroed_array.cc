#include "memory/zeroed_array.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "memory/address_sanitizer.h"

namespace pyfileindex::memory {

size_t PageSize() {
#if defined(__linux__)
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
#else
  return size_t{4} << 10;
#endif
}

#if defined(__linux__)
namespace {
size_t RoundUpToPages(size_t bytes) { return (bytes + PageSize() - 1) / PageSize() * PageSize(); }

// Under AddressSanitizer an index past the end must not land silently in the mapping's
// slack or in whatever is mapped next: the slack is poisoned and an inaccessible page
// follows the array.
constexpr bool kGuarded = kAddressSanitizer;
size_t MappedBytes(size_t bytes) { return RoundUpToPages(bytes) + (kGuarded ? PageSize() : 0); }
}  // namespace

void* AllocateZeroed(size_t bytes) {
  const size_t mapped = MappedBytes(bytes);
  void* data = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) return nullptr;
  if (kGuarded) {
    char* guard = static_cast<char*>(data) + RoundUpToPages(bytes);
    mprotect(guard, PageSize(), PROT_NONE);
    PoisonRegion(static_cast<char*>(data) + bytes, RoundUpToPages(bytes) - bytes);
  }
  return data;
}

void FreeZeroed(void* data, size_t bytes) {
  UnpoisonRegion(data, RoundUpToPages(bytes));
  munmap(data, MappedBytes(bytes));
}
#else
void* AllocateZeroed(size_t bytes) { return std::calloc(bytes, 1); }

void FreeZeroed(void* data, size_t bytes) {
  (void)bytes;
  std::free(data);
}
#endif

}  // namespace pyfileindex::memory
