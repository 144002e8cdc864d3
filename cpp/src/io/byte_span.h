// ByteSpan: a non-owning view of bytes (C++17 has no std::span).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pyfileindex::io {

class ByteSpan {
 public:
  constexpr ByteSpan() = default;
  constexpr ByteSpan(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  ByteSpan(const std::vector<uint8_t>& bytes)  // NOLINT: implicit by design, like std::span
      : data_(bytes.data()), size_(bytes.size()) {}

  // The bytes of a string (e.g. UTF-8 text) without copying.
  static ByteSpan Of(std::string_view text) {
    return ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  }

  constexpr const uint8_t* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const uint8_t* begin() const { return data_; }
  constexpr const uint8_t* end() const { return data_ + size_; }
  constexpr uint8_t operator[](size_t i) const { return data_[i]; }

  // The same bytes viewed as characters (no validation).
  std::string_view AsStringView() const {
    return std::string_view(reinterpret_cast<const char*>(data_), size_);
  }
  std::vector<uint8_t> ToVector() const { return std::vector<uint8_t>(begin(), end()); }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace pyfileindex::io
