// ZeroedArray: a large array reading as zeros whose pages become resident only where written.
//
// Direct tables over key values (the bitmap and range-bitmap writers' windows) and the bsi
// builder's room for every slice rely on untouched pages costing nothing. calloc does not
// promise that: glibc serves blocks below its mmap threshold -- which it raises as large
// blocks are freed, so after a few builds even MiB-sized ones -- from reused heap, and zeroes
// the whole block, making every page resident at once. This maps the array straight from the
// system instead (Linux; elsewhere calloc). Under AddressSanitizer an access past its end is
// reported.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace pyfileindex::memory {

// The size of the system's pages, the unit mmap maps in: 4 KiB on x86-64, but 16 or 64 KiB
// on some aarch64 kernels.
size_t PageSize();

// Zero-filled, untouched memory of `bytes` (> 0), or nullptr; release with FreeZeroed.
void* AllocateZeroed(size_t bytes);
void FreeZeroed(void* data, size_t bytes);

template <typename T>
class ZeroedArray {
 public:
  ZeroedArray() = default;
  // `count` zeros; throws std::bad_alloc when the system has no memory for them.
  explicit ZeroedArray(size_t count) : bytes_(count * sizeof(T)) {
    if (bytes_ == 0) return;
    data_ = static_cast<T*>(AllocateZeroed(bytes_));
    if (data_ == nullptr) throw std::bad_alloc();
  }
  ~ZeroedArray() { reset(); }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;

  T* get() const { return data_; }
  T& operator[](size_t i) const { return data_[i]; }
  explicit operator bool() const { return data_ != nullptr; }
  void reset() {
    if (data_ != nullptr) FreeZeroed(data_, bytes_);
    data_ = nullptr;
    bytes_ = 0;
  }

 private:
  T* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace pyfileindex::memory
