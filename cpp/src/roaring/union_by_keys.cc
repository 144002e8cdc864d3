#include "roaring/union_by_keys.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "roaring/block_builder.h"
#include "roaring/block_ops.h"

namespace pyfileindex::roaring {

using namespace ::roaring::internal;  // CRoaring's container layer

namespace {

// CRoaring's vector merge stores 8 values at a time, up to 7 past its result.
constexpr uint32_t kMergeSlack = 16;
// Up to this many arrays of a key are merged (two rounds of merges); more go through a sparse
// block. Each merge ends in a branchy scalar tail, while the block's cost grows only with
// the values. IN on 10M rows of 1,000 keys (153 containers of ~65 rows a key), against
// CRoaring's or_many and the full block: 2 keys 446 -> 78 us, 4 keys 367 -> 254 us; 10 keys
// merged would be 810 us, through the sparse block 524 (the full block: 551).
constexpr size_t kMaxMergedArrays = 4;

struct SortedSpan {
  const uint16_t* values;
  uint32_t count;
};

struct KeyContainer {
  const container_t* container;
  uint8_t type;
};

// Unites one key's array containers when they hold at most kArrayMaxValues values together:
// the union is an array again. Scratch is allocated at its first use and kept for all keys (a
// union of a few rare keys' rows, one array a key, needs none).
class ArrayUnion {
 public:
  // The union of arrays[0, count) (count >= 1, at most kArrayMaxValues values together; the
  // spans are reused as work space), valid until the next call.
  SortedSpan Unite(SortedSpan* arrays, size_t count) {
    if (count == 1) return arrays[0];
    if (scratch_.empty()) scratch_.resize(2 * size_t{kArrayMaxValues + kMergeSlack});
    if (count <= kMaxMergedArrays) return Merge(arrays, count);
    return {scratch_.data(), Sparse(arrays, count)};
  }

 private:
  // Pairwise, round by round, so each value is copied about log2(count) times. Rounds
  // alternate between the two halves of the scratch; a round reads only the other half (or
  // the containers), so no merge overwrites its own input.
  SortedSpan Merge(SortedSpan* spans, size_t count) {
    for (int round = 0; count > 1; ++round) {
      uint16_t* out = scratch_.data() + (round & 1) * size_t{kArrayMaxValues + kMergeSlack};
      size_t merged = 0;
      for (size_t i = 0; i < count; i += 2) {
        SortedSpan result{out, spans[i].count};
        if (i + 1 < count) {
          result.count = static_cast<uint32_t>(fast_union_uint16(
              spans[i].values, spans[i].count, spans[i + 1].values, spans[i + 1].count, out));
        } else {
          // The odd one out moves too: its half is the next round's output.
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
  uint32_t Sparse(const SortedSpan* arrays, size_t count) {
    if (words_.empty()) {
      words_.assign(kBlockWords, 0);
      flags_.assign(kBlockWords, 0);
    }
    uint64_t* words = words_.data();
    uint8_t* flags = flags_.data();
    for (size_t i = 0; i < count; ++i) {
      for (uint32_t j = 0; j < arrays[i].count; ++j) {
        const uint32_t v = arrays[i].values[j];
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

bool HoldsRuns(const roaring_bitmap_t* input) {
  const roaring_array_t& ra = input->high_low_container;
  for (int32_t i = 0; i < ra.size; ++i) {
    uint8_t type = ra.typecodes[i];
    container_unwrap_shared(ra.containers[i], &type);
    if (type == RUN_CONTAINER_TYPE) return true;
  }
  return false;
}

// The containers of one key, ORed into a block, which becomes an array or a bitmap container.
// The block starts as the first bitmap's words (or the OR of the first two) rather than as
// zeros: one pass less over 8 KiB a key.
void UniteInBlock(const std::vector<KeyContainer>& containers, uint16_t key, BlockBuilder& out) {
  uint64_t* words = out.Words();
  const uint64_t* first = nullptr;
  size_t bitmaps = 0;
  for (const KeyContainer& c : containers) {
    if (c.type == ARRAY_CONTAINER_TYPE) continue;
    const uint64_t* bits = const_CAST_bitset(c.container)->words;
    if (bitmaps == 0) {
      first = bits;
    } else if (bitmaps == 1) {
      for (size_t w = 0; w < kBlockWords; ++w) words[w] = first[w] | bits[w];
    } else {
      for (size_t w = 0; w < kBlockWords; ++w) words[w] |= bits[w];
    }
    ++bitmaps;
  }
  if (bitmaps == 0) std::fill(words, words + kBlockWords, uint64_t{0});
  if (bitmaps == 1) std::memcpy(words, first, 8 * kBlockWords);
  for (const KeyContainer& c : containers) {
    if (c.type != ARRAY_CONTAINER_TYPE) continue;
    const array_container_t* array = const_CAST_array(c.container);
    bitset_set_list(words, array->array, static_cast<uint64_t>(array->cardinality));
  }
  out.CommitBlock(key);
}

}  // namespace

std::optional<Bitmap32> UnionByKeys(const std::vector<const roaring_bitmap_t*>& inputs) {
  for (const roaring_bitmap_t* input : inputs) {
    if (HoldsRuns(input)) return std::nullopt;
  }
  BlockBuilder out;
  ArrayUnion array_union;
  std::vector<int32_t> next(inputs.size(), 0);  // each input's next container
  std::vector<KeyContainer> containers;         // the current key's
  std::vector<SortedSpan> arrays;               // the current key's non-empty arrays
  containers.reserve(inputs.size());
  arrays.reserve(inputs.size());
  while (true) {
    int32_t key = -1;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const roaring_array_t& ra = inputs[j]->high_low_container;
      if (next[j] < ra.size && (key < 0 || ra.keys[next[j]] < key)) key = ra.keys[next[j]];
    }
    if (key < 0) break;
    containers.clear();
    arrays.clear();
    uint64_t array_values = 0;
    for (size_t j = 0; j < inputs.size(); ++j) {
      const roaring_array_t& ra = inputs[j]->high_low_container;
      if (next[j] >= ra.size || ra.keys[next[j]] != key) continue;
      uint8_t type = ra.typecodes[next[j]];
      const container_t* c = container_unwrap_shared(ra.containers[next[j]], &type);
      ++next[j];
      containers.push_back({c, type});
      if (type != ARRAY_CONTAINER_TYPE) continue;
      const array_container_t* array = const_CAST_array(c);
      if (array->cardinality == 0) continue;
      arrays.push_back({array->array, static_cast<uint32_t>(array->cardinality)});
      array_values += static_cast<uint64_t>(array->cardinality);
    }
    const bool only_arrays =
        std::all_of(containers.begin(), containers.end(),
                    [](const KeyContainer& c) { return c.type == ARRAY_CONTAINER_TYPE; });
    if (!only_arrays || array_values > kArrayMaxValues) {
      UniteInBlock(containers, static_cast<uint16_t>(key), out);
      continue;
    }
    if (arrays.empty()) continue;
    const SortedSpan united = array_union.Unite(arrays.data(), arrays.size());
    std::memcpy(out.AddArray(static_cast<uint16_t>(key), united.count, 0), united.values,
                sizeof(uint16_t) * united.count);
  }
  return out.Finish();
}

}  // namespace pyfileindex::roaring
