#include "index/slice_scan/code_set_scan.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <memory>
#include <utility>

#include "index/slice_scan/block_intervals.h"
#include "index/slice_scan/scan_ops.h"
#include "io/endian.h"
#include "roaring/block_builder.h"
#include "roaring/block_ops.h"

namespace pyfileindex::index::slice_scan {

namespace {

using roaring::Bitmap32;
using roaring::BlockBuilder;
using roaring::kBlockWords;
using roaring::kZeroBlock;

// The scan steps that update one set (A) and add nothing to an answer.
const int kKeepA = StepKind(true, false, false);

// The rows of a block still tied with some codes: all 1024 words, or (sparse) only the
// words listed in idx, every other word being zero.
struct Tie {
  uint64_t* words = nullptr;
  uint16_t* idx = nullptr;
  uint32_t n = 0;
  bool sparse = false;
};

class SetWalker {
 public:
  SetWalker(int slice_count, const std::vector<uint64_t>& codes, const RoaringView& ebm,
            const RoaringView* const* slices)
      : slice_count_(slice_count),
        codes_(codes),
        ebm_(ebm),
        slices_(slices),
        cursors_(static_cast<size_t>(slice_count), 0),
        slice_words_(static_cast<size_t>(slice_count), nullptr),
        expanded_(static_cast<size_t>(slice_count)),
        ops_(ScanOpsForCpu()),
        unused_(kBlockWords) {}

  Bitmap32 Run() {
    std::vector<uint64_t> ebm_scratch(kBlockWords);
    for (size_t e = 0; e < ebm_.container_count(); ++e) {
      runs_read_.Note(ebm_, e);
      std::fill(slice_words_.begin(), slice_words_.end(), nullptr);
      block_ = e;
      out_words_ = out_.Words();
      std::memset(out_words_, 0, 8 * kBlockWords);
      Tie root = Acquire();
      const uint8_t* words = ebm_.Words(e, ebm_scratch.data());
      for (size_t w = 0; w < kBlockWords; ++w) root.words[w] = io::LoadU64LE(words + 8 * w);
      Descend(slice_count_ - 1, 0, codes_.size(), root);
      out_.CommitBlock(ebm_.key(e));
    }
    return out_.Finish();
  }

  const RunsRead& runs_read() const { return runs_read_; }

 private:
  // Slice i's words in this block: in place, expanded once for all ties, or zeros.
  const uint8_t* SliceWords(int i) {
    const uint8_t*& cached = slice_words_[static_cast<size_t>(i)];
    if (cached != nullptr) return cached;
    const RoaringView& view = *slices_[i];
    const uint16_t key = ebm_.key(block_);
    size_t& at = cursors_[static_cast<size_t>(i)];
    at = view.Seek(key, at);
    if (at >= view.container_count() || view.key(at) != key) {
      cached = reinterpret_cast<const uint8_t*>(kZeroBlock);
      return cached;
    }
    runs_read_.Note(view, at);
    std::vector<uint64_t>& buffer = expanded_[static_cast<size_t>(i)];
    if (view.kind(at) != RoaringView::Kind::kBitmap && buffer.empty()) {
      buffer.resize(kBlockWords);
    }
    cached = view.Words(at, buffer.data());
    return cached;
  }

  // Ties [lo, hi) of the codes share `tie` and agree on every slice above i.
  void Descend(int i, size_t lo, size_t hi, Tie tie) {
    for (; i >= 0; --i) {
      const uint64_t bit = uint64_t{1} << i;
      // Codes ascend and agree above bit i: those with bit i clear come first.
      size_t mid = lo;
      while (mid < hi && (codes_[mid] & bit) == 0) ++mid;
      const uint8_t* s = SliceWords(i);
      if (mid == lo || mid == hi) {
        const uint64_t flip = mid == lo ? 0 : ~uint64_t{0};
        if (!Keep(s, flip, &tie)) return Release(tie);
        continue;
      }
      Tie ones = Acquire();
      const bool zeros_live = Split(s, &tie, &ones);
      if (ones.n != 0) {
        Descend(i - 1, mid, hi, ones);
      } else {
        Release(ones);
      }
      if (!zeros_live) return Release(tie);
      hi = mid;
    }
    AddToAnswer(tie);
    Release(tie);
  }

  // tie &= s ^ flip (flip: all ones to keep the rows whose bit is 0); false when the tie is
  // empty. The word loops are the range scan's one-set steps (scan_ops.h).
  bool Keep(const uint8_t* s, uint64_t flip, Tie* tie) {
    StepMasks masks{};
    masks.a_flip = flip;
    const uint8_t* next = reinterpret_cast<const uint8_t*>(kZeroBlock);
    if (tie->sparse) {
      tie->n = ops_.step_sparse[kKeepA](s, tie->words, unused_.data(), unused_.data(), masks,
                                        tie->idx, tie->n, next);
      return tie->n != 0;
    }
    const uint32_t live =
        ops_.step[kKeepA](s, tie->words, unused_.data(), unused_.data(), masks, next);
    tie->n = live;
    if (live != 0 && live <= kSparseWords) MakeSparse(tie);
    return live != 0;
  }

  // ones = tie & s, tie &= ~s; false when the tie (the zeros) is empty.
  bool Split(const uint8_t* s, Tie* tie, Tie* ones) {
    if (tie->sparse) {
      for (uint32_t j = 0; j < tie->n; ++j) {
        const uint16_t w = tie->idx[j];
        ones->words[w] = tie->words[w];
        ones->idx[j] = w;
      }
      ones->n = tie->n;
      ones->sparse = true;
    } else {
      std::memcpy(ones->words, tie->words, 8 * kBlockWords);
      ones->sparse = false;
    }
    Keep(s, 0, ones);
    return Keep(s, ~uint64_t{0}, tie);
  }

  void MakeSparse(Tie* tie) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < kBlockWords; ++w) {
      tie->idx[n] = static_cast<uint16_t>(w);
      n += tie->words[w] != 0;
    }
    tie->n = n;
    tie->sparse = true;
  }

  void AddToAnswer(const Tie& tie) {
    if (tie.sparse) {
      for (uint32_t j = 0; j < tie.n; ++j) out_words_[tie.idx[j]] |= tie.words[tie.idx[j]];
      return;
    }
    for (size_t w = 0; w < kBlockWords; ++w) out_words_[w] |= tie.words[w];
  }

  // A tie's buffers, from those released earlier when there are any.
  Tie Acquire() {
    Tie tie;
    if (free_.empty()) {
      words_.push_back(std::make_unique<uint64_t[]>(kBlockWords));
      idx_.push_back(std::make_unique<uint16_t[]>(kBlockWords));
      free_.push_back(words_.size() - 1);
    }
    const size_t k = free_.back();
    free_.pop_back();
    tie.words = words_[k].get();
    tie.idx = idx_[k].get();
    return tie;
  }
  void Release(const Tie& tie) {
    for (size_t k = 0; k < words_.size(); ++k) {
      if (words_[k].get() == tie.words) {
        free_.push_back(k);
        return;
      }
    }
  }

  const int slice_count_;
  const std::vector<uint64_t>& codes_;
  const RoaringView& ebm_;
  const RoaringView* const* slices_;
  std::vector<size_t> cursors_;
  std::vector<const uint8_t*> slice_words_;
  std::vector<std::vector<uint64_t>> expanded_;
  const ScanOps& ops_;
  std::vector<uint64_t> unused_;  // the steps' second set and answer, which Keep leaves alone
  std::vector<std::unique_ptr<uint64_t[]>> words_;
  std::vector<std::unique_ptr<uint16_t[]>> idx_;
  std::vector<size_t> free_;
  size_t block_ = 0;
  uint64_t* out_words_ = nullptr;
  BlockBuilder out_;
  RunsRead runs_read_;
};

}  // namespace

CodeSetScan::CodeSetScan(int slice_count, std::vector<uint64_t> codes)
    : slice_count_(slice_count), codes_(std::move(codes)) {
  assert(slice_count_ >= 1 && slice_count_ <= 64 && !codes_.empty());
  assert(std::is_sorted(codes_.begin(), codes_.end()));
}

Result<Bitmap32> CodeSetScan::Run(const RoaringView& ebm, const RoaringView* const* slices) const {
  SetWalker walker(slice_count_, codes_, ebm, slices);
  Bitmap32 rows = walker.Run();
  PFI_RETURN_NOT_OK(walker.runs_read().status());
  return rows;
}

}  // namespace pyfileindex::index::slice_scan
