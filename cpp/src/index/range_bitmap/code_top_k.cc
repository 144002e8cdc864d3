#include "index/range_bitmap/code_top_k.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <new>
#include <utility>
#include <vector>

#include "index/slice_scan/block_intervals.h"
#include "roaring/block_builder.h"
#include "roaring/block_ops.h"
#include "roaring/dense_roaring_encoder.h"

namespace pyfileindex::index::range_bitmap {

using slice_scan::IntervalRows;
using slice_scan::ReadAsWords;
using slice_scan::Intervals;
using slice_scan::RowsInside;
using slice_scan::SetIntervals;
using slice_scan::SortAndJoin;
using slice_scan::SplitBy;
using slice_scan::ToIntervals;

namespace {

using roaring::Bitmap32;
using roaring::BlockBuilder;
using roaring::kBlockWords;

// A block on words whose E has at most this many non-zero words visits only those.
constexpr uint32_t kSparseWords = kBlockWords / 8;


const uint64_t* AllOnes() {
  static const std::vector<uint64_t> ones(kBlockWords, ~uint64_t{0});
  return ones.data();
}

using Words = std::unique_ptr<uint64_t[]>;
Words NewWords() { return Words(new uint64_t[kBlockWords]); }
Words NewZeroWords() {
  Words words = NewWords();
  std::memset(words.get(), 0, 8 * kBlockWords);
  return words;
}

// One 65536-row block of the walk, on intervals or on words. On intervals, E is sorted
// intervals and G pieces in any order. On words, while `sparse`, only the words listed in
// `live` are valid in `e` and `winners` (every other word of E is zero); `g` is null until a
// row joins G.
struct Block {
  uint16_t key = 0;
  bool on_words = false;
  bool sparse = false;
  uint32_t e_count = 0;
  uint32_t winner_count = 0;
  long slice_container = -1;  // on intervals: the step's slice container (-1: none)
  Intervals e_runs, g_runs;
  Words e, winners, g;
  std::vector<uint16_t> live;
};

// The selection a block at a time, read from its own containers: a flat bitset of the whole
// selection would cost as much memory as its largest row decides (2^32 bits for one row near
// the top), not what the selection holds.
class SelectionWords {
 public:
  explicit SelectionWords(const Bitmap32* found) {
    if (found != nullptr) view_.emplace(RoaringView::Over(*found));
  }

  bool all() const { return !view_.has_value(); }

  // The selection's words of block `key` (all ones without a selection): its container's in
  // place, or expanded into `scratch` (kBlockWords words).
  const uint64_t* Of(uint16_t key, uint64_t* scratch) const {
    if (!view_.has_value()) return AllOnes();
    size_t low = 0, high = view_->container_count();
    while (low < high) {  // the first container whose key is not below `key`
      const size_t mid = low + (high - low) / 2;
      if (view_->key(mid) < key) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    if (low == view_->container_count() || view_->key(low) != key) return roaring::kZeroBlock;
    // A view Over a Bitmap32 holds host-order words (little-endian hosts only, as Over says).
    return reinterpret_cast<const uint64_t*>(view_->Words(low, scratch));
  }

 private:
  std::optional<RoaringView> view_;
};

// ---- a block on words ----------------------------------------------------------------------

// After a step: a block whose E turned sparse lists its live words; a sparse one drops the
// words that emptied.
void Retire(Block* b) {
  const uint64_t* e = b->e.get();
  if (b->sparse) {
    b->live.erase(std::remove_if(b->live.begin(), b->live.end(),
                                 [e](uint16_t w) { return e[w] == 0; }),
                  b->live.end());
  } else if (b->e_count <= kSparseWords) {
    // At most e_count non-zero words: only those are visited from now on.
    b->live.clear();
    for (uint32_t w = 0; w < kBlockWords; ++w) {
      if (e[w] != 0) b->live.push_back(static_cast<uint16_t>(w));
    }
    b->sparse = true;
  }
}

// From intervals to words (a slice container meets the block that is cheaper read as words).
void MoveToWords(Block* b) {
  b->e = NewZeroWords();
  SetIntervals(b->e_runs, b->e.get());
  if (!b->g_runs.empty()) {
    b->g = NewZeroWords();
    SetIntervals(b->g_runs, b->g.get());
  }
  b->winners = NewWords();
  b->e_runs = Intervals();
  b->g_runs = Intervals();
  b->on_words = true;
  Retire(b);
}

// The block's winners on slice words `s` (little-endian bytes) into b->winners; their count.
uint32_t WordWinners(Block* b, const uint8_t* s, uint64_t flip) {
  const roaring::BlockOps& ops = roaring::Ops();
  if (!b->sparse) return ops.and_flipped(s, flip, b->e.get(), b->winners.get());
  return ops.and_flipped_at(s, flip, b->e.get(), b->winners.get(), b->live.data(),
                            static_cast<uint32_t>(b->live.size()));
}

// G |= winners, E -= winners, on words.
void JoinWordWinners(Block* b) {
  if (b->g == nullptr) b->g = NewZeroWords();
  uint64_t* g = b->g.get();
  uint64_t* e = b->e.get();
  const uint64_t* x = b->winners.get();
  if (b->sparse) {
    for (uint16_t w : b->live) {
      g[w] |= x[w];
      e[w] ^= x[w];
    }
  } else {
    for (uint32_t w = 0; w < kBlockWords; ++w) {
      g[w] |= x[w];
      e[w] ^= x[w];
    }
  }
}

// Clears the lowest `n` rows of E (n < b->e_count).
void DropLowest(Block* b, uint64_t n) {
  b->e_count -= static_cast<uint32_t>(n);
  if (!b->on_words) {
    Intervals kept;
    for (size_t k = 0; k < b->e_runs.size(); k += 2) {
      uint32_t begin = b->e_runs[k];
      const uint32_t end = b->e_runs[k + 1];
      const uint64_t take = std::min<uint64_t>(n, end - begin);
      begin += static_cast<uint32_t>(take);
      n -= take;
      if (begin < end) kept.insert(kept.end(), {begin, end});
    }
    b->e_runs.swap(kept);
    return;
  }
  uint64_t* e = b->e.get();
  auto drop_in = [&](uint32_t w) {
    while (n > 0 && e[w] != 0) {
      e[w] &= e[w] - 1;
      --n;
    }
  };
  if (b->sparse) {
    for (uint16_t w : b->live) {
      if (n == 0) break;
      drop_in(w);
    }
  } else {
    for (uint32_t w = 0; w < kBlockWords && n > 0; ++w) drop_in(w);
  }
}

// G | E of every block, in key order.
Bitmap32 Assemble(std::vector<Block>& blocks) {
  BlockBuilder out;
  for (Block& b : blocks) {
    if (!b.on_words) {
      Intervals& rows = b.g_runs;
      if (b.e_count > 0) rows.insert(rows.end(), b.e_runs.begin(), b.e_runs.end());
      SortAndJoin(&rows);
      out.AddIntervals(b.key, rows.data(), rows.size() / 2);
      continue;
    }
    uint64_t* words = out.Words();
    if (b.g != nullptr) {
      std::memcpy(words, b.g.get(), 8 * kBlockWords);
    } else {
      std::memset(words, 0, 8 * kBlockWords);
    }
    if (b.e_count > 0) {
      const uint64_t* e = b.e.get();
      if (b.sparse) {
        for (uint16_t w : b.live) words[w] |= e[w];
      } else {
        for (uint32_t w = 0; w < kBlockWords; ++w) words[w] |= e[w];
      }
    }
    out.CommitBlock(b.key);
  }
  return out.Finish();
}

}  // namespace

Result<Bitmap32> TopKWalk(const RoaringView& ebm, const RoaringView* const* slices,
                          int slice_count, const Bitmap32* found, uint64_t k, bool strict,
                          bool largest) {
  if (k == 0) return Bitmap32();
  slice_scan::RunsRead runs_read;  // every container read is noted: see RunsRead
  const roaring::BlockOps& ops = roaring::Ops();
  // Winners have the slice bit set (topK) or clear (bottomK).
  const uint64_t flip = largest ? 0 : ~uint64_t{0};

  // E = keyed rows of the selection, per EBM container: intervals where the EBM is runs and
  // every row is selected, else words.
  std::vector<Block> blocks;
  blocks.reserve(ebm.container_count());
  std::unique_ptr<uint64_t[]> scratch(new uint64_t[kBlockWords]);
  std::unique_ptr<uint64_t[]> selection_scratch(new uint64_t[kBlockWords]);
  const SelectionWords selection(found);
  uint64_t e_total = 0;
  for (size_t i = 0; i < ebm.container_count(); ++i) {
    Block b;
    b.key = ebm.key(i);
    runs_read.Note(ebm, i);
    if (selection.all() && ebm.kind(i) == RoaringView::Kind::kRun) {
      ToIntervals(ebm, i, &b.e_runs);
      b.e_count = IntervalRows(b.e_runs);
    } else {
      b.on_words = true;
      b.e = NewWords();
      b.e_count = ops.and_flipped(ebm.Words(i, scratch.get()), 0,
                                  selection.Of(b.key, selection_scratch.get()), b.e.get());
    }
    if (b.e_count == 0) continue;
    e_total += b.e_count;
    blocks.push_back(std::move(b));
  }
  PFI_RETURN_NOT_OK(runs_read.status());
  if (e_total <= k) return Assemble(blocks);

  std::vector<Block*> active;  // blocks whose E is not empty, in key order
  for (Block& b : blocks) {
    if (b.on_words) {
      b.winners = NewWords();
      Retire(&b);
    }
    active.push_back(&b);
  }
  // On intervals a step counts each block's winners first (no rows written) and splits E
  // only where the total says it changes: most blocks of a sorted column win or lose whole.
  Intervals slice_runs, winner_runs, loser_runs;
  auto slice_runs_of = [&](const RoaringView& slice, const Block& b) -> const Intervals& {
    slice_runs.clear();
    if (b.slice_container >= 0) {
      ToIntervals(slice, static_cast<size_t>(b.slice_container), &slice_runs);
    }
    return slice_runs;
  };
  uint64_t g_total = 0;
  for (int i = slice_count - 1; i >= 0; --i) {
    const RoaringView& slice = *slices[i];
    uint64_t winners = 0;
    size_t at = 0;
    for (Block* b : active) {
      at = slice.Seek(b->key, at);
      const bool present = at < slice.container_count() && slice.key(at) == b->key;
      const bool words = present && !b->on_words &&
                         ReadAsWords(slice, at, (b->e_runs.size() + b->g_runs.size()) / 2);
      if (present) runs_read.Note(slice, at);
      if (words) MoveToWords(b);
      if (b->on_words) {
        const uint8_t* s = present ? slice.Words(at, scratch.get())
                                   : reinterpret_cast<const uint8_t*>(roaring::kZeroBlock);
        b->winner_count = WordWinners(b, s, flip);
      } else {
        b->slice_container = present ? static_cast<long>(at) : -1;
        const uint32_t set = RowsInside(b->e_runs, slice_runs_of(slice, *b));
        b->winner_count = largest ? set : b->e_count - set;
      }
      winners += b->winner_count;
    }
    const uint64_t n = g_total + winners;
    const bool join = n < k;  // every winner is among the k: into G; else they are the new E
    for (Block* b : active) {
      if (!b->on_words && b->winner_count != 0 && b->winner_count != b->e_count) {
        winner_runs.clear();
        loser_runs.clear();
        SplitBy(b->e_runs, slice_runs_of(slice, *b), largest ? &winner_runs : &loser_runs,
                largest ? &loser_runs : &winner_runs);
      }
      const bool all_win = b->winner_count == b->e_count;
      if (join) {
        if (b->winner_count == 0) continue;
        if (b->on_words) {
          JoinWordWinners(b);
        } else if (all_win) {
          b->g_runs.insert(b->g_runs.end(), b->e_runs.begin(), b->e_runs.end());
          b->e_runs.clear();
        } else {
          b->g_runs.insert(b->g_runs.end(), winner_runs.begin(), winner_runs.end());
          b->e_runs.assign(loser_runs.begin(), loser_runs.end());
        }
        b->e_count -= b->winner_count;
      } else {
        if (b->on_words) {
          std::swap(b->e, b->winners);
        } else if (b->winner_count == 0) {
          b->e_runs.clear();
        } else if (!all_win) {
          b->e_runs.assign(winner_runs.begin(), winner_runs.end());
        }
        b->e_count = b->winner_count;
      }
    }
    if (join) {
      g_total = n;
      e_total -= winners;
    } else {
      e_total = winners;
    }
    active.erase(std::remove_if(active.begin(), active.end(),
                                [](const Block* b) { return b->e_count == 0; }),
                 active.end());
    // With exactly k rows in G and E, later slices only move rows from E to G.
    if (n == k) break;
    for (Block* b : active) {
      if (b->on_words) Retire(b);
    }
  }

  if (strict && g_total + e_total > k) {
    // The tie at the k-th code keeps its highest positions.
    uint64_t excess = g_total + e_total - k;
    for (Block* b : active) {
      if (excess == 0) break;
      if (b->e_count <= excess) {
        excess -= b->e_count;
        b->e_count = 0;
      } else {
        DropLowest(b, excess);
        excess = 0;
      }
    }
  }
  PFI_RETURN_NOT_OK(runs_read.status());
  return Assemble(blocks);
}

}  // namespace pyfileindex::index::range_bitmap
