#include "memory_meter.h"

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define PFI_FUZZ_SANITIZER_HOOKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PFI_FUZZ_SANITIZER_HOOKS 1
#endif
#endif

#if defined(PFI_FUZZ_SANITIZER_HOOKS)
#include <sanitizer/allocator_interface.h>
#endif

namespace pyfileindex::fuzz {
namespace {

// Signed: blocks allocated before the hooks were installed may be freed after.
std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> start_bytes{0};
std::atomic<int64_t> peak_bytes{0};

}  // namespace

void CountAllocated(size_t bytes) {
  const auto signed_bytes = static_cast<int64_t>(bytes);
  const int64_t now = live_bytes.fetch_add(signed_bytes, std::memory_order_relaxed) + signed_bytes;
  int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void CountFreed(size_t bytes) {
  live_bytes.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed);
}

namespace {

#if defined(PFI_FUZZ_SANITIZER_HOOKS)
void OnMalloc(const volatile void* pointer, size_t bytes) {
  if (pointer != nullptr) CountAllocated(bytes);
}
void OnFree(const volatile void* pointer) {
  // The hook runs before the block is released, so its size can still be asked.
  if (pointer != nullptr) {
    CountFreed(__sanitizer_get_allocated_size(const_cast<const void*>(pointer)));
  }
}
[[maybe_unused]] const bool hooks_installed = __sanitizer_install_malloc_and_free_hooks(OnMalloc, OnFree) != 0;
#endif

}  // namespace

void StartMeasuring() {
  const int64_t now = live_bytes.load(std::memory_order_relaxed);
  start_bytes.store(now, std::memory_order_relaxed);
  peak_bytes.store(now, std::memory_order_relaxed);
}

size_t PeakBytesSinceStart() {
  const int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  const int64_t start = start_bytes.load(std::memory_order_relaxed);
  return peak > start ? static_cast<size_t>(peak - start) : 0;
}

void CheckMemoryBound(size_t input_size, const char* what) {
  const size_t peak = PeakBytesSinceStart();
  const size_t bound = kMemoryPerInputByte * input_size + kMemorySlack;
  if (peak > bound) {
    std::fprintf(stderr,
                 "memory bound: %s held %zu bytes at once for an input of %zu bytes "
                 "(bound %zu = %zu per input byte + %zu)\n",
                 what, peak, input_size, bound, kMemoryPerInputByte, kMemorySlack);
    std::abort();
  }
}

}  // namespace pyfileindex::fuzz

#if !defined(PFI_FUZZ_SANITIZER_HOOKS)
// Without the sanitizer's hooks: the global operator new and delete, counted. Every form
// forwards to malloc / free; the block's usable size is what is counted both ways.
namespace {

void* CountedNew(size_t bytes, size_t alignment, bool nothrow) {
  void* pointer = nullptr;
  if (bytes == 0) bytes = 1;
  if (alignment > alignof(std::max_align_t)) {
    if (posix_memalign(&pointer, alignment, bytes) != 0) pointer = nullptr;
  } else {
    pointer = std::malloc(bytes);
  }
  if (pointer == nullptr) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  pyfileindex::fuzz::CountAllocated(malloc_usable_size(pointer));
  return pointer;
}

void CountedDelete(void* pointer) noexcept {
  if (pointer == nullptr) return;
  pyfileindex::fuzz::CountFreed(malloc_usable_size(pointer));
  std::free(pointer);
}

constexpr size_t kPlain = alignof(std::max_align_t);

}  // namespace

void* operator new(size_t n) { return CountedNew(n, kPlain, false); }
void* operator new[](size_t n) { return CountedNew(n, kPlain, false); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return CountedNew(n, kPlain, true); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  return CountedNew(n, kPlain, true);
}
void* operator new(size_t n, std::align_val_t a) {
  return CountedNew(n, static_cast<size_t>(a), false);
}
void* operator new[](size_t n, std::align_val_t a) {
  return CountedNew(n, static_cast<size_t>(a), false);
}
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return CountedNew(n, static_cast<size_t>(a), true);
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return CountedNew(n, static_cast<size_t>(a), true);
}
void operator delete(void* p) noexcept { CountedDelete(p); }
void operator delete[](void* p) noexcept { CountedDelete(p); }
void operator delete(void* p, size_t) noexcept { CountedDelete(p); }
void operator delete[](void* p, size_t) noexcept { CountedDelete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { CountedDelete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { CountedDelete(p); }
void operator delete(void* p, std::align_val_t) noexcept { CountedDelete(p); }
void operator delete[](void* p, std::align_val_t) noexcept { CountedDelete(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { CountedDelete(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { CountedDelete(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  CountedDelete(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  CountedDelete(p);
}
#endif
