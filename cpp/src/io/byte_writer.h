// ByteWriter: appends Java DataOutputStream-style values (big-endian) to a growable buffer.
//
// To write fixed-width values into a caller-owned buffer instead, use the Store* helpers of
// io/endian.h directly.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "io/byte_span.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/status.h"

namespace pyfileindex::io {

class ByteWriter {
 public:
  ByteWriter() = default;
  // Continues after the existing content of `buffer`.
  explicit ByteWriter(std::vector<uint8_t> buffer) : buf_(std::move(buffer)) {}

  void Reserve(size_t n) { buf_.reserve(n); }
  size_t size() const { return buf_.size(); }
  const uint8_t* data() const { return buf_.data(); }
  ByteSpan bytes() const { return ByteSpan(buf_); }
  // Empties the writer, keeping its buffer for reuse.
  void Clear() { buf_.clear(); }
  // Moves the bytes out; the writer is empty afterwards and may be reused.
  std::vector<uint8_t> Take() {
    std::vector<uint8_t> out = std::move(buf_);
    buf_.clear();
    return out;
  }

  void WriteU8(uint8_t v) { buf_.push_back(v); }
  void WriteI8(int8_t v) { buf_.push_back(static_cast<uint8_t>(v)); }
  void WriteBool(bool v) { buf_.push_back(v ? 1 : 0); }
  void WriteI16BE(int16_t v) { StoreU16BE(Grow(2), static_cast<uint16_t>(v)); }
  void WriteU16BE(uint16_t v) { StoreU16BE(Grow(2), v); }
  void WriteI32BE(int32_t v) { StoreU32BE(Grow(4), static_cast<uint32_t>(v)); }
  void WriteI64BE(int64_t v) { StoreU64BE(Grow(8), static_cast<uint64_t>(v)); }
  // Java writeFloat/writeDouble: floatToIntBits/doubleToLongBits (NaN canonicalised), big-endian.
  void WriteF32BE(float v) { WriteI32BE(java::FloatToIntBits(v)); }
  void WriteF64BE(double v) { WriteI64BE(java::DoubleToLongBits(v)); }
  // Little-endian forms, for the portable roaring format.
  void WriteU16LE(uint16_t v) { StoreU16LE(Grow(2), v); }
  void WriteU32LE(uint32_t v) { StoreU32LE(Grow(4), v); }
  void WriteU64LE(uint64_t v) { StoreU64LE(Grow(8), v); }

  void WriteBytes(ByteSpan bytes) {
    if (bytes.empty()) return;
    std::copy(bytes.begin(), bytes.end(), Grow(bytes.size()));
  }

  // Java DataOutput.writeUTF of a standard UTF-8 string: 2-byte big-endian length, then the
  // modified UTF-8 bytes. InvalidArgument (nothing written) if `utf8` is not valid UTF-8 or
  // encodes to more than 65535 bytes (Java throws UTFDataFormatException there).
  Status WriteUTF(std::string_view utf8);

  // Appends `n` bytes and returns where they start; valid until the next write.
  uint8_t* AppendUninitialized(size_t n) { return Grow(n); }

  // Overwrites an already written int (e.g. a length known only later). Requires pos + 4 <= size().
  void PatchI32BE(size_t pos, int32_t v) { StoreU32BE(buf_.data() + pos, static_cast<uint32_t>(v)); }

 private:
  uint8_t* Grow(size_t n) {
    size_t old = buf_.size();
    buf_.resize(old + n);
    return buf_.data() + old;
  }

  std::vector<uint8_t> buf_;
};

}  // namespace pyfileindex::io
