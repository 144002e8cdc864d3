// The fuzzer's bytes taken apart into the choices a target makes (which column type, which
// literal, which option): each call consumes from the front and returns zeros once the bytes
// run out, so every input, however short, is a valid sequence of choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pyfileindex::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_; }
  const uint8_t* data() const { return data_; }

  uint8_t Byte() {
    if (size_ == 0) return 0;
    const uint8_t value = *data_;
    Skip(1);
    return value;
  }
  uint32_t U32() { return static_cast<uint32_t>(Bits(4)); }
  uint64_t U64() { return Bits(8); }
  bool Bool() { return (Byte() & 1) != 0; }
  // A value in [0, bound), bound > 0.
  uint32_t Below(uint32_t bound) { return U32() % bound; }
  // Up to `max_length` bytes, the length taken first.
  std::string String(size_t max_length) {
    size_t length = Byte() % (max_length + 1);
    if (length > size_) length = size_;
    std::string out(reinterpret_cast<const char*>(data_), length);
    Skip(length);
    return out;
  }
  // `count` bytes, fewer when the input ends first.
  const uint8_t* Take(size_t count, size_t* taken) {
    *taken = count < size_ ? count : size_;
    const uint8_t* at = data_;
    Skip(*taken);
    return at;
  }

 private:
  uint64_t Bits(size_t bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes; ++i) value = value << 8 | Byte();
    return value;
  }
  void Skip(size_t count) {
    data_ += count;
    size_ -= count;
  }

  const uint8_t* data_;
  size_t size_;
};

}  // namespace pyfileindex::fuzz
