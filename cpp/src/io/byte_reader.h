// ByteReader: bounds-checked reading of Java DataInputStream-style values from a byte span.
//
// Every read checks the remaining length first and, if short, returns Corrupt naming what was
// being read and where, e.g. "truncated: need 4 bytes for row count at offset 17, 3 left".
// The reader never owns the bytes and never reads outside [data, data + size).
//
// Offsets in messages are `base_offset + position()`, so a reader over a slice of a container
// can report container-absolute positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/byte_span.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/status.h"

namespace pyfileindex::io {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size, size_t base_offset = 0)
      : data_(data), size_(size), base_offset_(base_offset) {}
  explicit ByteReader(ByteSpan bytes, size_t base_offset = 0)
      : ByteReader(bytes.data(), bytes.size(), base_offset) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  size_t size() const { return size_; }
  bool AtEnd() const { return pos_ == size_; }
  size_t base_offset() const { return base_offset_; }
  // The unread bytes.
  ByteSpan Rest() const { return ByteSpan(data_ + pos_, size_ - pos_); }
  // All bytes of the reader, independent of the cursor.
  ByteSpan All() const { return ByteSpan(data_, size_); }

  // OK if at least n bytes remain; otherwise the "truncated" Corrupt status.
  Status Require(size_t n, const char* what) const {
    if (n <= remaining()) return Status::OK();
    return Truncated(n, what);
  }

  Result<uint8_t> ReadU8(const char* what = "byte") {
    if (remaining() < 1) return Truncated(1, what);
    return data_[pos_++];
  }
  Result<int8_t> ReadI8(const char* what = "byte") {
    if (remaining() < 1) return Truncated(1, what);
    return static_cast<int8_t>(data_[pos_++]);
  }
  // Java readBoolean: any non-zero byte is true.
  Result<bool> ReadBool(const char* what = "boolean") {
    if (remaining() < 1) return Truncated(1, what);
    return data_[pos_++] != 0;
  }
  Result<int16_t> ReadI16BE(const char* what = "short") {
    if (remaining() < 2) return Truncated(2, what);
    return static_cast<int16_t>(ReadU16BEUnchecked());
  }
  Result<uint16_t> ReadU16BE(const char* what = "unsigned short") {
    if (remaining() < 2) return Truncated(2, what);
    return ReadU16BEUnchecked();
  }
  Result<int32_t> ReadI32BE(const char* what = "int") {
    if (remaining() < 4) return Truncated(4, what);
    return ReadI32BEUnchecked();
  }
  Result<int64_t> ReadI64BE(const char* what = "long") {
    if (remaining() < 8) return Truncated(8, what);
    return ReadI64BEUnchecked();
  }
  // Java readFloat/readDouble: the raw bits as stored (no NaN canonicalisation on read).
  Result<float> ReadF32BE(const char* what = "float") {
    if (remaining() < 4) return Truncated(4, what);
    return java::IntBitsToFloat(ReadI32BEUnchecked());
  }
  Result<double> ReadF64BE(const char* what = "double") {
    if (remaining() < 8) return Truncated(8, what);
    return java::LongBitsToDouble(ReadI64BEUnchecked());
  }
  Result<uint16_t> ReadU16LE(const char* what = "little-endian short") {
    if (remaining() < 2) return Truncated(2, what);
    uint16_t v = LoadU16LE(data_ + pos_);
    pos_ += 2;
    return v;
  }
  Result<uint32_t> ReadU32LE(const char* what = "little-endian int") {
    if (remaining() < 4) return Truncated(4, what);
    uint32_t v = LoadU32LE(data_ + pos_);
    pos_ += 4;
    return v;
  }

  // The next n bytes as a view into the underlying buffer.
  Result<ByteSpan> ReadBytes(size_t n, const char* what = "bytes") {
    if (remaining() < n) return Truncated(n, what);
    ByteSpan out(data_ + pos_, n);
    pos_ += n;
    return out;
  }
  Status Skip(size_t n, const char* what = "skipped bytes") {
    if (remaining() < n) return Truncated(n, what);
    pos_ += n;
    return Status::OK();
  }
  // Moves the cursor to an absolute position within the span (pos == size() is allowed).
  Status Seek(size_t pos, const char* what = "seek target");

  // A big-endian int32 length that must be >= 0 and fit in the bytes that follow it.
  Result<uint32_t> ReadLength(const char* what) {
    if (remaining() < 4) return Truncated(4, what);
    int32_t length = ReadI32BEUnchecked();
    if (length >= 0 && static_cast<size_t>(length) <= remaining()) {
      return static_cast<uint32_t>(length);
    }
    return BadLength(length, what);
  }

  // Java readUTF: 2-byte length + modified UTF-8, returned as standard UTF-8.
  Result<std::string> ReadUTF(const char* what = "modified UTF-8 string");

  // Unchecked forms for hot loops: the caller must have called Require() for these bytes.
  uint8_t ReadU8Unchecked() { return data_[pos_++]; }
  uint16_t ReadU16BEUnchecked() {
    uint16_t v = LoadU16BE(data_ + pos_);
    pos_ += 2;
    return v;
  }
  int32_t ReadI32BEUnchecked() {
    uint32_t v = LoadU32BE(data_ + pos_);
    pos_ += 4;
    return static_cast<int32_t>(v);
  }
  int64_t ReadI64BEUnchecked() {
    uint64_t v = LoadU64BE(data_ + pos_);
    pos_ += 8;
    return static_cast<int64_t>(v);
  }

 private:
  // Out of line and cold: building the message is the slow path only.
  [[gnu::cold]] [[gnu::noinline]] Status Truncated(size_t need, const char* what) const;
  [[gnu::cold]] [[gnu::noinline]] Status BadLength(int32_t length, const char* what) const;

  const uint8_t* data_;
  size_t size_;
  size_t base_offset_;
  size_t pos_ = 0;
};

}  // namespace pyfileindex::io
