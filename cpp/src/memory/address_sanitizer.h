// Whether this build runs under AddressSanitizer, and its poisoning calls (nothing otherwise).
// Memory mapped straight from the system is not bounded by ASan: the allocators that map it
// poison what lies past what they hand out.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define PFI_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PFI_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(PFI_ADDRESS_SANITIZER)
#include <sanitizer/asan_interface.h>
#endif

namespace pyfileindex::memory {

#if defined(PFI_ADDRESS_SANITIZER)
constexpr bool kAddressSanitizer = true;
inline void PoisonRegion(const void* data, size_t bytes) { ASAN_POISON_MEMORY_REGION(data, bytes); }
inline void UnpoisonRegion(const void* data, size_t bytes) {
  ASAN_UNPOISON_MEMORY_REGION(data, bytes);
}
#else
constexpr bool kAddressSanitizer = false;
inline void PoisonRegion(const void*, size_t) {}
inline void UnpoisonRegion(const void*, size_t) {}
#endif

}  // namespace pyfileindex::memory
