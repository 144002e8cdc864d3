#include "index/range_bitmap/packed_row_ids.h"

#include <algorithm>
#include <cstring>

#include "io/endian.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

namespace {
// Loads and stores run 8 bytes wide at any bit offset: a value of up to 32 bits starting at
// bit 7 of its first byte still ends inside those 8 bytes.
constexpr size_t kSlackBytes = 8;

size_t PackedBytes(uint32_t rows, int width) {
  return (size_t{rows} * static_cast<size_t>(width) + 7) / 8 + kSlackBytes;
}
}  // namespace

PackedRowIds::PackedRowIds(const uint32_t* ids, uint32_t rows) : rows_(rows) {
  if (rows == 0) return;
  const auto [low, high] = std::minmax_element(ids, ids + rows);
  base_ = *low;
  const uint32_t spread = *high - base_;
  width_ = spread == 0 ? 0 : 32 - __builtin_clz(spread);
  if (width_ == 0) return;
  const size_t bytes = PackedBytes(rows, width_);
  packed_.reset(new uint8_t[bytes]);
  std::memset(packed_.get(), 0, bytes);
  // Whole 64-bit words through a register: a read-modify-write of the buffer per row would
  // make every row wait for the store of the one before.
  uint8_t* out = packed_.get();
  const int width = width_;
  uint64_t word = 0;
  int filled = 0;
  for (uint32_t i = 0; i < rows; ++i) {
    const uint64_t v = ids[i] - base_;
    word |= v << filled;
    filled += width;
    if (filled >= 64) {
      io::StoreU64LE(out, word);
      out += 8;
      filled -= 64;
      word = v >> (width - filled);  // the bits that did not fit (none when filled is 0)
    }
  }
  if (filled > 0) io::StoreU64LE(out, word);
}

void PackedRowIds::Unpack(uint32_t* out) const {
  if (width_ == 0) {
    std::fill(out, out + rows_, base_);
    return;
  }
  const uint8_t* in = packed_.get();
  const uint64_t mask = (uint64_t{1} << width_) - 1;
  uint64_t bit = 0;
  for (uint32_t i = 0; i < rows_; ++i, bit += static_cast<uint64_t>(width_)) {
    out[i] = base_ + static_cast<uint32_t>((io::LoadU64LE(in + (bit >> 3)) >> (bit & 7)) & mask);
  }
}

size_t PackedRowIds::bytes() const { return width_ == 0 ? 0 : PackedBytes(rows_, width_); }

void PackedRowIds::Release() {
  memory::ReturnPages(packed_.get(), bytes());
  packed_.reset();
  rows_ = 0;
  width_ = 0;
}

}  // namespace pyfileindex::index::range_bitmap
