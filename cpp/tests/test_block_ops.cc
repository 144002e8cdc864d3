// The block loops CPU dispatch picks (roaring/block_ops.h): set-bit counts of a block, from
// aligned words and from index bytes at any alignment, against a bit-by-bit count.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "roaring/block_ops.h"

namespace pyfileindex::roaring {
namespace {

constexpr int kWords = 1024;

uint32_t CountBitByBit(const std::vector<uint64_t>& words) {
  uint32_t count = 0;
  for (uint64_t w : words) {
    for (int bit = 0; bit < 64; ++bit) count += (w >> bit) & 1;
  }
  return count;
}

TEST(BlockOpsTest, CardinalityFromWordsAndFromBytesAtAnyAlignment) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 24; ++trial) {
    // Sparse, dense, full and empty words, with the last words of the block set too (a sum
    // that skipped a tail or a lane would miss them).
    std::vector<uint64_t> words(kWords);
    for (int w = 0; w < kWords; ++w) {
      const int kind = static_cast<int>(rng() % 4);
      words[w] = kind == 0 ? 0 : kind == 1 ? ~uint64_t{0} : kind == 2 ? rng() : rng() & rng();
    }
    words[kWords - 1 - trial % 4] = ~uint64_t{0};
    const uint32_t expected = CountBitByBit(words);
    EXPECT_EQ(Ops().cardinality(words.data()), expected) << trial;
    // Little-endian bytes at offset 0..7.
    std::vector<uint8_t> bytes(8 * kWords + 8);
    const size_t shift = static_cast<size_t>(trial % 8);
    for (int w = 0; w < kWords; ++w) {
      for (int b = 0; b < 8; ++b) {
        bytes[shift + 8 * static_cast<size_t>(w) + b] = static_cast<uint8_t>(words[w] >> (8 * b));
      }
    }
    EXPECT_EQ(Ops().cardinality_of_bytes(bytes.data() + shift), expected) << trial;
  }
  std::vector<uint64_t> zero(kWords, 0);
  EXPECT_EQ(Ops().cardinality(zero.data()), 0u);
  std::vector<uint64_t> full(kWords, ~uint64_t{0});
  EXPECT_EQ(Ops().cardinality(full.data()), 65536u);
}

}  // namespace
}  // namespace pyfileindex::roaring
