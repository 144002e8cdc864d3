// Scratch: memory one stage of a build is done with, lent to a later stage for its temporary
// arrays.
//
// A writer's lookup table is its largest part and is resident by the end of the ingest; the
// arrays that order the keys afterwards (Java's HashMap order, the sorted order) are needed
// only while the table is no longer read. Taken from the table, they reuse resident pages:
// no page faults for fresh memory, and nothing added to the build's peak.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyfileindex::memory {

class Scratch {
 public:
  Scratch() = default;
  // The `bytes` bytes at `data`, whose contents may be overwritten; they must stay allocated
  // while the arrays taken from them are in use.
  Scratch(void* data, size_t bytes)
      : next_(static_cast<uint8_t*>(data)), end_(static_cast<uint8_t*>(data) + bytes) {}

  // Room for `count` Ts (trivial types), aligned for T, from what is left; nullptr when they
  // do not fit. Their contents are undefined.
  template <typename T>
  T* Take(size_t count) {
    if (next_ == nullptr) return nullptr;
    const uintptr_t at = reinterpret_cast<uintptr_t>(next_);
    const uintptr_t aligned = (at + alignof(T) - 1) & ~uintptr_t{alignof(T) - 1};
    const uintptr_t end = reinterpret_cast<uintptr_t>(end_);
    if (aligned > end || count > (end - aligned) / sizeof(T)) return nullptr;
    next_ = reinterpret_cast<uint8_t*>(aligned + count * sizeof(T));
    return reinterpret_cast<T*>(aligned);
  }

  // Take<T>(count), or else `own` resized to `count` (its contents undefined either way).
  template <typename T>
  T* TakeOr(size_t count, std::vector<T>* own) {
    T* taken = Take<T>(count);
    if (taken != nullptr) return taken;
    own->resize(count);
    return own->data();
  }

 private:
  uint8_t* next_ = nullptr;
  uint8_t* end_ = nullptr;
};

}  // namespace pyfileindex::memory
