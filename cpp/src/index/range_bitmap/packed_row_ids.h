// One 65536-row block of per-row key ids, frame-of-reference bit-packed: each id is stored as
// id - base in `width` bits, where base and width come from the block's own smallest and
// largest id. Shuffled columns pack at the width of their key count (4 bits for 10 keys
// instead of 32). A block whose ids change at few rows (sorted or clustered columns) keeps its
// runs instead, 8 bytes each, when that is smaller: a sorted column has about one run per key
// in a block, where packing would still take several bits a row.
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
  // The same block given as `runs` runs (run i: rows up to ends[i], all of id ids[i]; ends
  // ascending, ids[i] != ids[i + 1]), as a writer collects a sorted block without holding
  // an id per row. Kept in the form the ids constructor would choose.
  PackedRowIds(const uint32_t* ends, const uint32_t* ids, uint32_t runs);

  uint32_t rows() const { return rows_; }
  // Bits per row of the frame-of-reference form (also when the runs are kept instead).
  int width() const { return width_; }
  // Runs kept (0: bit-packed, or every id the same).
  uint32_t runs() const { return runs_; }
  // Whether the ids are kept as runs or are all one id: ForEachRun is then cheap.
  bool has_runs() const { return runs_ > 0 || width_ == 0; }
  // f(begin, end, id) for each run of rows [begin, end) holding `id`; only when has_runs().
  template <typename F>
  void ForEachRun(F&& f) const {
    if (width_ == 0) {
      if (rows_ > 0) f(uint32_t{0}, rows_, base_);
      return;
    }
    uint32_t begin = 0;
    for (uint32_t r = 0; r < runs_; ++r) {
      f(begin, run_ends_[r], run_ids_[r]);
      begin = run_ends_[r];
    }
  }
  // Writes the rows' ids to out[0, rows()), or with `map` each id's map[id] (a run's id is
  // looked up once).
  void Unpack(uint32_t* out, const uint32_t* map = nullptr) const;
  // Bytes held.
  size_t bytes() const;
  // Frees the ids; `hand_back`: their pages go back to the system first (in a large file a
  // block's ids are followed by its bit slices: both should not be resident).
  void Release(bool hand_back);

 private:
  uint32_t rows_ = 0;
  uint32_t base_ = 0;
  int width_ = 0;                      // 0: every id is base_
  uint32_t runs_ = 0;
  std::unique_ptr<uint8_t[]> packed_;  // rows * width bits, LSB first, plus 8 bytes of slack
  // With runs_ > 0 instead of packed_: run i covers rows [end of run i-1, run_ends_[i]) and
  // holds id run_ids_[i].
  std::unique_ptr<uint32_t[]> run_ends_;
  std::unique_ptr<uint32_t[]> run_ids_;
};

}  // namespace pyfileindex::index::range_bitmap
