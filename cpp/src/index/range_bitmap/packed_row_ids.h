// One 65536-row block of per-row key ids, frame-of-reference bit-packed: each id is stored as
// id - base in `width` bits, where base and width come from the block's own smallest and
// largest id. Shuffled columns pack at the width of their key count (4 bits for 10 keys
// instead of 32); sorted or clustered columns, whose blocks see a few neighbouring ids, at a
// few bits or none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace pyfileindex::index::range_bitmap {

class PackedRowIds {
 public:
  PackedRowIds() = default;
  // Packs ids[0, rows).
  PackedRowIds(const uint32_t* ids, uint32_t rows);

  uint32_t rows() const { return rows_; }
  int width() const { return width_; }
  // Writes the rows' ids to out[0, rows()).
  void Unpack(uint32_t* out) const;
  // Bytes held.
  size_t bytes() const;
  // Frees the ids; `hand_back`: their pages go back to the system first (in a large file a
  // block's ids are followed by its bit slices: both should not be resident).
  void Release(bool hand_back);

 private:
  uint32_t rows_ = 0;
  uint32_t base_ = 0;
  int width_ = 0;                      // 0: every id is base_
  std::unique_ptr<uint8_t[]> packed_;  // rows * width bits, LSB first, plus 8 bytes of slack
};

}  // namespace pyfileindex::index::range_bitmap
