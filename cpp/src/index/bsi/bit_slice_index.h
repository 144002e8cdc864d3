// One bit-sliced index (Paimon's BitSliceIndexRoaringBitmap): non-negative values per row, kept
// as an existence bitmap (EBM) plus one bitmap per binary digit of (value - min).
//
// Serialized form (big-endian around portable Roaring bitmaps):
//   u8 version = 1 | i64 min | i64 max | roaring EBM | i32 slice count S | S x roaring slice
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "roaring/roaring_view.h"
#include "io/byte_reader.h"
#include "pyfileindex/status.h"
#include "roaring/bitmap32.h"
#include "roaring/container_span.h"
#include "memory/zeroed_array.h"
#include "roaring/dense_roaring_encoder.h"
#include "roaring/interval_bitmap_writer.h"

namespace pyfileindex::index::bsi {

enum class CompareOp : uint8_t { kEq, kNeq, kLt, kLte, kGt, kGte };

// Reader side: an immutable BSI over the index bytes it was read from (its slices are views
// of them). All methods are const and safe to call concurrently.
class BitSliceIndex {
 public:
  // The EMPTY BSI Java substitutes for an absent side: min = max = 0, no rows, no slices.
  BitSliceIndex() = default;

  // Reads one BSI from the reader's cursor: the EBM as a bitmap, the slices as views of the
  // reader's bytes, which must outlive the BSI. Corrupt on truncation, a bitmap that does not
  // parse, a slice count that disagrees with max - min, or negative bounds. A slice's rows
  // outside the EBM never reach an answer (as in Java, whose comparisons start from the EBM).
  static Result<BitSliceIndex> Read(io::ByteReader* reader);

  int64_t min() const { return min_; }
  int64_t max() const { return max_; }
  const roaring::Bitmap32& existence() const { return ebm_; }
  size_t slice_count() const { return slices_.size(); }

  // Rows whose value v satisfies `v op predicate` (Java's compare: min/max shortcut, else
  // O'Neil's bit-sliced comparison).
  roaring::Bitmap32 Compare(CompareOp op, int64_t predicate) const;

 private:
  bool CompareUsingMinMax(CompareOp op, int64_t predicate, roaring::Bitmap32* out) const;
  // Rows whose code (value - min) lies in [lo, hi]: one top-down walk over the slices in
  // place, the one range-bitmap answers its ranges with (range_bitmap/code_range_scan.h).
  roaring::Bitmap32 CodesBetween(uint64_t lo, uint64_t hi) const;
  roaring::Bitmap32 ONeilCompare(CompareOp op, int64_t predicate) const;

  int64_t min_ = 0;
  int64_t max_ = 0;
  roaring::Bitmap32 ebm_;
  roaring::RoaringView ebm_view_;
  std::vector<roaring::RoaringView> slices_;
};

// Writer side (Java's Appender with min = 0, which is what Paimon's writer always uses): rows
// arrive in increasing order. Bits are set in plain 64-bit words per container span (the
// 65536 rows of one roaring container: roaring/container_span.h; one word array per slice),
// and each finished span joins its bitmap as one container in Java's form,
// so a row costs a few word operations instead of one Roaring insert per set bit. A span
// whose values change at few rows (sorted columns) keeps its runs of rows instead, and sets
// the words of one slot at a time from them when it is flushed.
class BitSliceIndexBuilder {
 public:
  // `value` >= 0; rows strictly increasing across calls.
  void Append(uint32_t row, uint64_t value) {
    // One test for rows of a span kept as words, the common case.
    if ((row >> 16) != words_span_ && AppendRun(row, value)) return;
    if ((value >> (stride_ - 1)) != 0) Widen(value);
    max_ = value > max_ ? value : max_;
    used_slices_ |= value;
    // The words of all slots for one group of 64 rows sit side by side: a row touches a few
    // adjacent cache lines (slice-major arrays 8 KiB apart would all collide in one L1 set).
    // A group holds only the slots values have needed so far (stride_), so a column of small
    // values keeps few words per span: 11 slots of 8 KiB for values below 1024, not 64.
    uint64_t* const group = &words_[((row >> 6) & (roaring::kBlockWords - 1)) * stride_];
    const uint64_t mask = uint64_t{1} << (row & 63);
    group[kExistenceSlot] |= mask;
    while (value != 0) {
      group[1 + __builtin_ctzll(value)] |= mask;
      value &= value - 1;
    }
  }

  bool empty() const { return span_ == kNoSpan; }
  uint64_t max() const { return max_; }

  // The serialized BSI in two steps, written in place: its size (flushes the last span and
  // drops the per-span scratch; call once, after the last Append), then the bytes -- version
  // 1, min 0, max, EBM, S = bitLength(max), slices -- releasing each bitmap once written;
  // returns the end of what it wrote.
  size_t PrepareSerialize();
  uint8_t* SerializeTo(uint8_t* out);

 private:
  static constexpr int kMaxSlices = 63;  // values are < 2^63
  // Slot 0 of a group is the existence bitmap, slot 1 + i slice i.
  static constexpr size_t kExistenceSlot = 0;
  static constexpr uint32_t kNoSpan = 0xFFFFFFFFu;
  struct Run {
    uint32_t begin;  // rows [begin, end) hold `value`
    uint32_t end;
    uint64_t value;
  };

  void StartSpan(uint32_t span);
  // A row of a new span or of one kept as runs: true when kept as a run, false when the span
  // has just turned to words (too many runs) and the row goes to them.
  bool AppendRun(uint32_t row, uint64_t value);
  // Re-lays the span's words out, in place, with room for the slices of `value`.
  void Widen(uint64_t value);
  // Sets the runs' bits in the words, which take the span's rows from then on (the spans
  // kept as runs before it are encoded first: EncodeKeptRuns).
  void SpillRuns();
  void FlushSpan();
  void FlushSlot(size_t slot, roaring::DenseRoaringEncoder* bitmap);
  // Adds the containers of span `span` from its runs [first, last).
  template <typename RunIt>
  void EncodeRuns(uint32_t span, RunIt first, RunIt last);
  // Encodes every span kept as runs so far; all_runs_ ends.
  void EncodeKeptRuns();
  // visit(span, bounds, count) for each span in kept_, with the intervals of its rows (`bit`
  // 0: the EBM) or of its rows whose value has `bit` (a slice).
  template <typename Visit>
  void ForEachKeptSpan(uint64_t bit, Visit&& visit);
  // f(span, first, last) with each span's runs [first, last) in kept_.
  template <typename F>
  void ForEachKeptSpanRuns(F&& f) const;
  roaring::DenseRoaringEncoder& slice(int i);  // made on first use

  uint64_t max_ = 0;
  uint32_t span_ = kNoSpan;
  uint64_t used_slices_ = 0;  // slices with a bit in the current span kept as words
  size_t stride_ = 1;  // slots per group: the existence bitmap and the slices so far
  // roaring::kBlockWords x stride_ words in use, of room for every slice (allocated on first use):
  // only the pages of the slots in use ever become resident.
  memory::ZeroedArray<uint64_t> words_;
  std::vector<uint64_t> column_;  // one slot's roaring::kBlockWords words, gathered for a flush
  // The span once its rows go to the words; until then (kNoSpan) its runs, and its words
  // stay untouched.
  uint32_t words_span_ = kNoSpan;
  std::vector<Run> runs_;  // the current span's, while it is kept as runs
  // Each bitmap kept as the containers Java will write (its final size, whatever the order
  // of the values), span by span, once not all_runs_.
  roaring::DenseRoaringEncoder ebm_;
  std::vector<roaring::DenseRoaringEncoder> slices_;
  // Between PrepareSerialize and SerializeTo: each bitmap's portable size (EBM, then slices),
  // and while all_runs_ its shape.
  std::vector<size_t> sizes_;
  std::vector<roaring::IntervalBitmapShape> shapes_;
  // While every span so far kept its runs (a sorted or clustered column), all_runs_: the
  // finished spans' runs go to kept_, and no bitmap is encoded until SerializeTo writes them
  // straight from the runs (roaring::IntervalBitmapWriter), so the slices are never resident
  // beside the output. The first span that turns to words encodes the kept ones. A deque
  // grows without copying, and without the spare half a doubled vector leaves resident.
  bool all_runs_ = true;
  std::deque<Run> kept_;
  std::vector<uint32_t> intervals_;  // one span's intervals of one bitmap
};

}  // namespace pyfileindex::index::bsi
