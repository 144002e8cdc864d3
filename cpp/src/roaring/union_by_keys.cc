#include "roaring/union_by_keys.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "io/endian.h"
#include "roaring/block_builder.h"
#include "roaring/block_ops.h"

namespace pyfileindex::roaring {

using ::roaring::internal::fast_union_uint16;  // CRoaring's vector merge of sorted arrays

namespace {

// CRoaring's vector merge stores 8 values at a time, up to 7 past its result.
constexpr uint32_t kMergeSlack = 16;
// Up to this many arrays of a key are merged (two rounds of merges); more go through a sparse
// block. Each merge ends in a branchy scalar tail and the rounds multiply with the arrays,
// while the block's cost grows only with the values: a few arrays merge for less than the
// block costs, many cost more.
constexpr size_t kMaxMergedArrays = 4;

struct SortedSpan {
  const uint16_t* values;
  uint32_t count;
};

// An array container's little-endian values (at any address) as host values at `out`;
// returns the end of the copy.
uint16_t* CopyValues(const uint8_t* bytes, uint32_t count, uint16_t* out) {
  if (io::endian_internal::kHostIsLittleEndian) {
    std::memcpy(out, bytes, sizeof(uint16_t) * count);
  } else {
    for (uint32_t j = 0; j < count; ++j) out[j] = io::LoadU16LE(bytes + 2 * j);
  }
  return out + count;
}

// One input's container of the current key.
struct KeyContainer {
  const RoaringView* view;
  size_t index;
  RoaringView::Kind kind() const { return view->kind(index); }
  uint32_t count() const { return view->count(index); }
  const uint8_t* data() const { return view->data(index); }
};

// Unites one key's array containers when they hold at most kArrayMaxValues values together:
// the union is an array again. Scratch is allocated at its first use and kept for all keys (a
// union of a few rare keys' rows, one array a key, needs none).
class ArrayUnion {
 public:
  // The union of arrays[0, count) (count >= 2, at most kArrayMaxValues values together),
  // valid until the next call.
  SortedSpan Unite(const KeyContainer* arrays, size_t count) {
    if (scratch_.empty()) scratch_.resize(3 * kRegion);
    if (count <= kMaxMergedArrays) return Merge(arrays, count);
    return {scratch_.data(), Sparse(arrays, count)};
  }

 private:
  // The scratch is three regions of this many values: two for merge rounds, one for staging.
  static constexpr size_t kRegion = size_t{kArrayMaxValues} + kMergeSlack;

  // The arrays are staged as host values in the scratch's last third (the views' bytes are
  // little-endian and may sit at any address), then merged pairwise, round by round, so each
  // value is copied about log2(count) times. Rounds alternate between the first two thirds; a
  // round reads only what the one before wrote, so no merge overwrites its own input.
  SortedSpan Merge(const KeyContainer* arrays, size_t count) {
    SortedSpan spans[kMaxMergedArrays];
    uint16_t* staged = scratch_.data() + 2 * kRegion;
    for (size_t i = 0; i < count; ++i) {
      spans[i] = {staged, arrays[i].count()};
      staged = CopyValues(arrays[i].data(), arrays[i].count(), staged);
    }
    for (int round = 0; count > 1; ++round) {
      uint16_t* out = scratch_.data() + (round & 1) * kRegion;
      size_t merged = 0;
      for (size_t i = 0; i < count; i += 2) {
        SortedSpan result{out, spans[i].count};
        if (i + 1 < count) {
          result.count = static_cast<uint32_t>(fast_union_uint16(
              spans[i].values, spans[i].count, spans[i + 1].values, spans[i + 1].count, out));
        } else {
          // The odd one out moves too: its third is the next round's output.
          std::memcpy(out, spans[i].values, sizeof(uint16_t) * spans[i].count);
        }
        out += result.count;
        spans[merged++] = result;
      }
      count = merged;
    }
    return spans[0];
  }

  // Through a 65536-bit block, zeroed once. Each value also flags its word (a byte store: a
  // bit per word would make the values of one word wait for each other), so reading the
  // values back visits only the flagged words -- a few hundred of 1024 for a few hundred
  // values -- and leaves the block zeroed for the next key. Returns the count, in scratch_.
  uint32_t Sparse(const KeyContainer* arrays, size_t count) {
    if (words_.empty()) {
      words_.assign(kBlockWords, 0);
      flags_.assign(kBlockWords, 0);
    }
    uint64_t* words = words_.data();
    uint8_t* flags = flags_.data();
    for (size_t i = 0; i < count; ++i) {
      const uint8_t* values = arrays[i].data();
      for (uint32_t j = 0, n = arrays[i].count(); j < n; ++j) {
        const uint32_t v = io::LoadU16LE(values + 2 * j);
        words[v >> 6] |= uint64_t{1} << (v & 63);
        flags[v >> 6] = 1;
      }
    }
    return Ops().take_positions(words, flags, scratch_.data());
  }

  std::vector<uint16_t> scratch_;
  std::vector<uint64_t> words_;
  std::vector<uint8_t> flags_;
};

// The containers of one key, ORed into a block, which becomes an array or a bitmap container.
// The block starts as the first bitmap's words (or the OR of the first two) rather than as
// zeros: one pass less over 8 KiB a key.
void UniteInBlock(const std::vector<KeyContainer>& containers, uint16_t key, BlockBuilder& out) {
  uint64_t* words = out.Words();
  const uint8_t* first = nullptr;
  size_t bitmaps = 0;
  for (const KeyContainer& c : containers) {
    if (c.kind() != RoaringView::Kind::kBitmap) continue;
    const uint8_t* bits = c.data();
    if (bitmaps == 0) {
      first = bits;
    } else if (bitmaps == 1) {
      for (size_t w = 0; w < kBlockWords; ++w) {
        words[w] = io::LoadU64LE(first + 8 * w) | io::LoadU64LE(bits + 8 * w);
      }
    } else {
      for (size_t w = 0; w < kBlockWords; ++w) words[w] |= io::LoadU64LE(bits + 8 * w);
    }
    ++bitmaps;
  }
  if (bitmaps == 0) std::fill(words, words + kBlockWords, uint64_t{0});
  if (bitmaps == 1) {
    for (size_t w = 0; w < kBlockWords; ++w) words[w] = io::LoadU64LE(first + 8 * w);
  }
  const BlockOps& ops = Ops();
  for (const KeyContainer& c : containers) {
    if (c.kind() == RoaringView::Kind::kArray) ops.set_values(words, c.data(), c.count());
  }
  out.CommitBlock(key);
}

}  // namespace

std::optional<Bitmap32> UnionByKeys(const std::vector<const RoaringView*>& inputs) {
  for (const RoaringView* input : inputs) {
    if (input->HoldsRuns()) return std::nullopt;
  }
  BlockBuilder out;
  ArrayUnion array_union;
  std::vector<size_t> next(inputs.size(), 0);  // each input's next container
  std::vector<KeyContainer> containers;        // the current key's
  std::vector<KeyContainer> arrays;            // the current key's non-empty arrays
  containers.reserve(inputs.size());
  arrays.reserve(inputs.size());
  while (true) {
    int32_t key = -1;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const RoaringView& view = *inputs[j];
      if (next[j] < view.container_count() && (key < 0 || view.key(next[j]) < key)) {
        key = view.key(next[j]);
      }
    }
    if (key < 0) break;
    containers.clear();
    arrays.clear();
    uint64_t array_values = 0;
    bool only_arrays = true;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const RoaringView& view = *inputs[j];
      if (next[j] >= view.container_count() || view.key(next[j]) != key) continue;
      const KeyContainer c{&view, next[j]++};
      containers.push_back(c);
      if (c.kind() != RoaringView::Kind::kArray) {
        only_arrays = false;
        continue;
      }
      if (c.count() == 0) continue;
      arrays.push_back(c);
      array_values += c.count();
    }
    if (!only_arrays || array_values > kArrayMaxValues) {
      UniteInBlock(containers, static_cast<uint16_t>(key), out);
      continue;
    }
    if (arrays.empty()) continue;
    const uint32_t united_count = static_cast<uint32_t>(array_values);
    if (arrays.size() == 1) {
      CopyValues(arrays[0].data(), united_count,
                 out.AddArray(static_cast<uint16_t>(key), united_count, 0));
      continue;
    }
    const SortedSpan united = array_union.Unite(arrays.data(), arrays.size());
    std::memcpy(out.AddArray(static_cast<uint16_t>(key), united.count, 0), united.values,
                sizeof(uint16_t) * united.count);
  }
  return out.Finish();
}

}  // namespace pyfileindex::roaring
