#include "index/slice_scan/code_range_scan.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "index/slice_scan/block_intervals.h"
#include "index/slice_scan/scan_ops.h"
#include "io/endian.h"
#include "roaring/block_builder.h"
#include "roaring/block_ops.h"
#include "roaring/dense_roaring_encoder.h"

namespace pyfileindex::index::slice_scan {

namespace {

using roaring::Bitmap32;
using roaring::BlockBuilder;
using roaring::kBlockWords;
using roaring::kZeroBlock;

uint64_t BitsBelow(int i) { return i >= 64 ? ~uint64_t{0} : (uint64_t{1} << i) - 1; }
uint64_t Mask(bool set) { return set ? ~uint64_t{0} : 0; }


// Walks the steps over each block of the EBM; holds the buffers all blocks reuse.
class Walker {
 public:
  Walker(const CodeRangeScan& scan, const RoaringView& ebm, const RoaringView* const* slices,
         int slice_count)
      : steps_(scan.steps()),
        ebm_(ebm),
        slices_(slices),
        cursors_(static_cast<size_t>(slice_count), 0),
        ops_(ScanOpsForCpu()) {}

  Bitmap32 Run() {
    for (size_t e = 0; e < ebm_.container_count(); ++e) {
      runs_read_.Note(ebm_, e);
      if (TieEmptiesOnWholeSlices(e)) continue;
      if (ebm_.kind(e) == RoaringView::Kind::kRun) {
        IntervalBlock(e);
      } else {
        AllocateWords();
        const uint8_t* words = ebm_.Words(e, scratch_.data());
        for (size_t w = 0; w < kBlockWords; ++w) a_[w] = io::LoadU64LE(words + 8 * w);
        in_ = out_.Words();
        std::memset(in_, 0, 8 * kBlockWords);
        DenseBlock(e, 0);
      }
    }
    return out_.Finish();
  }

  // What the walk learnt of the runs it read.
  const RunsRead& runs_read() const { return runs_read_; }

 private:
  // Slice i's container for the EBM's container e: its index, or -1 when the slice has no
  // rows in that block. Blocks are visited in key order, so cursors only move forward.
  long Find(int i, size_t e) {
    const RoaringView& view = *slices_[i];
    const uint16_t key = ebm_.key(e);
    size_t& at = cursors_[static_cast<size_t>(i)];
    at = view.Seek(key, at);
    if (at < view.container_count() && view.key(at) == key) return static_cast<long>(at);
    return -1;
  }

  // Whether slice container c holds every row of its block: one run over all 65536.
  static bool Full(const RoaringView& view, size_t c) {
    return view.kind(c) == RoaringView::Kind::kRun && view.count(c) == 1 &&
           io::LoadU16LE(view.data(c)) == 0 && io::LoadU16LE(view.data(c) + 2) == 0xFFFF;
  }

  // Whether block e has no answer, decided over the bounds' common prefix (one tie, no row
  // joining the answer yet) on slices that hold all of the block's rows or none: the tie
  // empties at the first such slice whose bit differs from the bounds'. A sorted column's
  // high slices are like that in most blocks, and an IN list walks every block once per code.
  bool TieEmptiesOnWholeSlices(size_t e) {
    for (const CodeRangeScan::Step& st : steps_) {
      if (st.split || st.b_live || !st.a_live || st.a_gain) return false;
      const long c = Find(st.slice, e);
      bool ones = false;
      if (c >= 0) {
        if (!Full(*slices_[st.slice], static_cast<size_t>(c))) return false;
        runs_read_.Note(*slices_[st.slice], static_cast<size_t>(c));
        ones = true;
      }
      if (ones != st.a_bit) return true;
      if (st.a_done) return false;  // the whole tie is the answer: the block's own walk
    }
    return false;
  }

  static StepMasks MasksOf(const CodeRangeScan::Step& st) {
    return {Mask(!st.a_bit), Mask(st.a_gain), Mask(st.a_done),
            Mask(!st.b_bit), Mask(st.b_gain), Mask(st.b_done)};
  }

  // Slice words for step k of block e: in place, expanded into `buffer`, or zeros.
  const uint8_t* StepWords(size_t k, size_t e, uint64_t* buffer) {
    const CodeRangeScan::Step& st = steps_[k];
    const long c = Find(st.slice, e);
    if (c < 0) return reinterpret_cast<const uint8_t*>(kZeroBlock);
    runs_read_.Note(*slices_[st.slice], static_cast<size_t>(c));
    return slices_[st.slice]->Words(static_cast<size_t>(c), buffer);
  }
  // Step k+1's words when they are in place (for prefetching), else the zero block.
  const uint8_t* NextInPlace(size_t k, size_t e) {
    if (k + 1 >= steps_.size()) return reinterpret_cast<const uint8_t*>(kZeroBlock);
    const int slice = steps_[k + 1].slice;
    const long c = Find(slice, e);
    if (c < 0 || slices_[slice]->kind(static_cast<size_t>(c)) != RoaringView::Kind::kBitmap) {
      return reinterpret_cast<const uint8_t*>(kZeroBlock);
    }
    return slices_[slice]->data(static_cast<size_t>(c));
  }

  // Steps [first, end) on dense words: A (and B) in a_/b_, the answer so far in in_.
  void DenseBlock(size_t e, size_t first) {
    bool sparse = false;
    uint32_t n = 0;
    for (size_t k = first; k < steps_.size(); ++k) {
      const CodeRangeScan::Step& st = steps_[k];
      const uint8_t* s = StepWords(k, e, scratch_.data());
      const uint8_t* next = NextInPlace(k, e);
      if (st.split) {
        if (sparse) {
          for (uint32_t j = 0; j < n; ++j) b_[idx_[j]] = a_[idx_[j]];
        } else {
          std::memcpy(b_.data(), a_.data(), 8 * kBlockWords);
        }
      }
      const bool b_live = st.b_live || st.split;
      const bool gains = st.a_gain || st.b_gain || st.a_done || st.b_done;
      const int kind = StepKind(st.a_live, b_live, gains);
      const StepMasks masks = MasksOf(st);
      uint32_t live;
      if (sparse) {
        live = ops_.step_sparse[kind](s, a_.data(), b_.data(), in_, masks, idx_.data(), n, next);
        n = live;
      } else {
        live = ops_.step[kind](s, a_.data(), b_.data(), in_, masks, next);
      }
      if (live == 0) break;  // no tie left: nothing more can join the answer
      if (!sparse && live <= kSparseWords) {
        const bool a_next = st.a_live && !st.a_done;
        const bool b_next = b_live && !st.b_done;
        n = 0;
        for (uint32_t w = 0; w < kBlockWords; ++w) {
          const uint64_t rest = (a_next ? a_[w] : 0) | (b_next ? b_[w] : 0);
          idx_[n] = static_cast<uint16_t>(w);
          n += rest != 0;
        }
        sparse = true;
      }
    }
    Commit(ebm_.key(e));
  }

  // Adds in_ (out_'s Words()) to the answer.
  void Commit(uint16_t key) { out_.CommitBlock(key); }

  // A block whose EBM container is runs, walked on intervals until a slice has a bitmap
  // container there; the rest of the walk is then dense.
  void IntervalBlock(size_t e) {
    ToIntervals(ebm_, e, &ia_);
    ib_.clear();
    in_list_.clear();
    for (size_t k = 0; k < steps_.size(); ++k) {
      const CodeRangeScan::Step& st = steps_[k];
      const long c = Find(st.slice, e);
      if (c >= 0 && ReadAsWords(*slices_[st.slice], static_cast<size_t>(c),
                                (ia_.size() + ib_.size()) / 2)) {
        ToDense(st.split || st.b_live);
        DenseBlock(e, k);
        return;
      }
      slice_.clear();
      if (c >= 0) {
        runs_read_.Note(*slices_[st.slice], static_cast<size_t>(c));
        ToIntervals(*slices_[st.slice], static_cast<size_t>(c), &slice_);
      }
      if (st.split) ib_ = ia_;
      if (st.a_live) Apply(&ia_, st.a_bit, st.a_gain, st.a_done);
      if (st.b_live || st.split) Apply(&ib_, st.b_bit, st.b_gain, st.b_done);
      if (ia_.empty() && ib_.empty()) break;
    }
    // The answer's pieces come from several steps: order and join them.
    SortAndJoin(&in_list_);
    out_.AddIntervals(ebm_.key(e), in_list_.data(), in_list_.size() / 2);
  }

  // One tie's step on intervals: keep the rows whose slice bit is `bit`; the others join
  // the answer when `gain`; all of it joins when `done`.
  void Apply(Intervals* tie, bool bit, bool gain, bool done) {
    kept_.clear();
    left_.clear();
    if (bit) {
      SplitBy(*tie, slice_, &kept_, gain ? &left_ : nullptr);
    } else {
      SplitBy(*tie, slice_, gain ? &left_ : nullptr, &kept_);
    }
    in_list_.insert(in_list_.end(), left_.begin(), left_.end());
    if (done) {
      in_list_.insert(in_list_.end(), kept_.begin(), kept_.end());
      kept_.clear();
    }
    tie->swap(kept_);
  }

  // The word buffers, on the first block walked on words (sorted data may need none).
  void AllocateWords() {
    if (!a_.empty()) return;
    a_.resize(kBlockWords);
    b_.resize(kBlockWords);
    scratch_.resize(kBlockWords);
    idx_.resize(kBlockWords);
  }

  void ToDense(bool with_b) {
    AllocateWords();
    std::memset(a_.data(), 0, 8 * kBlockWords);
    SetIntervals(ia_, a_.data());
    if (with_b) {
      std::memset(b_.data(), 0, 8 * kBlockWords);
      SetIntervals(ib_, b_.data());
    }
    in_ = out_.Words();
    std::memset(in_, 0, 8 * kBlockWords);
    SetIntervals(in_list_, in_);
  }

  const std::vector<CodeRangeScan::Step>& steps_;
  const RoaringView& ebm_;
  const RoaringView* const* slices_;
  std::vector<size_t> cursors_;
  const ScanOps& ops_;
  BlockBuilder out_;
  uint64_t* in_ = nullptr;
  std::vector<uint64_t> a_, b_, scratch_;
  std::vector<uint16_t> idx_;
  Intervals ia_, ib_, in_list_, slice_, kept_, left_;
  RunsRead runs_read_;
};

}  // namespace

CodeRangeScan::CodeRangeScan(int slice_count, uint64_t lo, uint64_t hi) {
  bool parted = false;
  bool a_live = true;
  bool b_live = false;
  for (int i = slice_count - 1; i >= 0; --i) {
    const uint64_t rest = BitsBelow(i);
    const bool lo_bit = i < 64 && ((lo >> i) & 1);
    const bool hi_bit = i < 64 && ((hi >> i) & 1);
    const bool lo_done = (lo & rest) == 0;     // no 1 bit left: every tied code is >= lo
    const bool hi_done = (hi & rest) == rest;  // no 0 bit left: every tied code is <= hi
    Step st{};
    st.slice = i;
    if (!parted && lo_bit == hi_bit) {
      st.a_live = true;
      st.a_bit = lo_bit;
      st.a_done = lo_done && hi_done;
      a_live = !st.a_done;
    } else if (!parted) {  // lo < hi: here lo has 0 and hi has 1
      parted = true;
      st.split = true;
      st.a_live = true;
      st.a_bit = false;
      st.b_bit = true;
      st.a_done = lo_done;
      st.b_done = hi_done;
      a_live = !lo_done;
      b_live = !hi_done;
    } else {
      st.a_live = a_live;
      st.b_live = b_live;
      st.a_bit = lo_bit;
      st.b_bit = hi_bit;
      st.a_gain = !lo_bit;  // tied with lo so far, 1 where lo has 0: above lo
      st.b_gain = hi_bit;   // tied with hi so far, 0 where hi has 1: below hi
      st.a_done = a_live && lo_done;
      st.b_done = b_live && hi_done;
      a_live = a_live && !lo_done;
      b_live = b_live && !hi_done;
    }
    steps_.push_back(st);
    lowest_slice_ = i;
    if (!a_live && !b_live) break;
  }
}

Bitmap32 CodeRangeScan::Walk(const RoaringView& ebm, const RoaringView* const* slices,
                             Status* runs) const {
  const int slice_count = steps_.empty() ? 0 : steps_.front().slice + 1;
  Walker walker(*this, ebm, slices, slice_count);
  Bitmap32 rows = walker.Run();
  *runs = walker.runs_read().status();
  return rows;
}

Result<Bitmap32> CodeRangeScan::Run(const RoaringView& ebm,
                                    const RoaringView* const* slices) const {
  Status runs;
  Bitmap32 rows = Walk(ebm, slices, &runs);
  PFI_RETURN_NOT_OK(runs);
  return rows;
}

Bitmap32 CodeRangeScan::RunOverCheckedViews(const RoaringView& ebm,
                                            const RoaringView* const* slices) const {
  Status runs;
  Bitmap32 rows = Walk(ebm, slices, &runs);
  assert(runs.ok() && "RunOverCheckedViews over a view parsed with RunCheck::kOnUse");
  return rows;
}

}  // namespace pyfileindex::index::slice_scan
