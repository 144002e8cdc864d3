// The block loops CPU dispatch picks from (roaring/block_ops.h), every variant this CPU runs,
// against bit-by-bit models: set-bit counts of a block (from aligned words and from index
// bytes at any alignment), runs of set bits, the masked AND of index bytes with a block, and
// the positions of a block's or a sparse block's set bits.
#include <gtest/gtest.h>

#include <algorithm>
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

// The words as little-endian bytes from `shift` on (a container in index bytes at any
// alignment), with 8 bytes of room.
std::vector<uint8_t> LittleEndianAt(const std::vector<uint64_t>& words, size_t shift) {
  std::vector<uint8_t> bytes(8 * words.size() + 8);
  for (size_t w = 0; w < words.size(); ++w) {
    for (int b = 0; b < 8; ++b) bytes[shift + 8 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  }
  return bytes;
}

TEST(BlockOpsTest, CardinalityFromWordsAndFromBytesAtAnyAlignment) {
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
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
      EXPECT_EQ(ops->cardinality(words.data()), expected) << trial;
      // Little-endian bytes at offset 0..7.
      const size_t shift = static_cast<size_t>(trial % 8);
      const std::vector<uint8_t> bytes = LittleEndianAt(words, shift);
      EXPECT_EQ(ops->cardinality_of_bytes(bytes.data() + shift), expected) << trial;
    }
    std::vector<uint64_t> zero(kWords, 0);
    EXPECT_EQ(ops->cardinality(zero.data()), 0u);
    std::vector<uint64_t> full(kWords, ~uint64_t{0});
    EXPECT_EQ(ops->cardinality(full.data()), 65536u);
  }
}

std::vector<uint64_t> RandomBlock(std::mt19937_64& rng) {
  std::vector<uint64_t> words(kWords);
  for (uint64_t& w : words) {
    const int kind = static_cast<int>(rng() % 5);
    w = kind == 0 ? 0 : kind == 1 ? ~uint64_t{0} : kind == 2 ? rng() : kind == 3 ? rng() & rng()
                                                                      : uint64_t{1} << (rng() % 64);
  }
  return words;
}

TEST(BlockOpsTest, RunsOfSetBitsAcrossWords) {
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(29);
    for (int trial = 0; trial < 24; ++trial) {
      const std::vector<uint64_t> words = RandomBlock(rng);
      uint32_t expected_runs = 0;
      bool previous = false;
      for (int bit = 0; bit < 64 * kWords; ++bit) {
        const bool set = (words[bit / 64] >> (bit % 64)) & 1;
        expected_runs += set && !previous;
        previous = set;
      }
      uint32_t cardinality = 0, runs = 0;
      ops->cardinality_and_runs(words.data(), &cardinality, &runs);
      EXPECT_EQ(cardinality, CountBitByBit(words)) << trial;
      EXPECT_EQ(runs, expected_runs) << trial;
    }
  }
}

TEST(BlockOpsTest, AndFlippedOverAllWordsAndListedOnes) {
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(31);
    for (int trial = 0; trial < 16; ++trial) {
      const std::vector<uint64_t> s = RandomBlock(rng);
      const std::vector<uint64_t> e = RandomBlock(rng);
      const uint64_t flip = trial % 2 == 0 ? 0 : ~uint64_t{0};
      const size_t shift = static_cast<size_t>(trial % 8);
      const std::vector<uint8_t> bytes = LittleEndianAt(s, shift);
      std::vector<uint64_t> expected(kWords);
      for (int w = 0; w < kWords; ++w) expected[w] = e[w] & (s[w] ^ flip);
      std::vector<uint64_t> out(kWords, 0x5A5A);
      EXPECT_EQ(ops->and_flipped(bytes.data() + shift, flip, e.data(), out.data()),
                CountBitByBit(expected)) << trial;
      EXPECT_EQ(out, expected) << trial;
      // Listed words only: the others keep what they held.
      std::vector<uint16_t> idx;
      std::vector<uint64_t> listed(kWords, 7), listed_expected(kWords, 7);
      uint32_t listed_count = 0;
      for (uint16_t w = 0; w < kWords; w += 3) {
        idx.push_back(w);
        listed_expected[w] = expected[w];
        listed_count += static_cast<uint32_t>(__builtin_popcountll(expected[w]));
      }
      EXPECT_EQ(ops->and_flipped_at(bytes.data() + shift, flip, e.data(), listed.data(),
                                     idx.data(), static_cast<uint32_t>(idx.size())),
                listed_count) << trial;
      EXPECT_EQ(listed, listed_expected) << trial;
    }
  }
}

// `values` random bits (fewer where they collide) and, from two values on, the block's first
// and last bits and words of 64, 33 and 32 set bits (a vector variant's one and two halves).
std::vector<uint64_t> SparseBlock(std::mt19937_64& rng, uint32_t values) {
  std::vector<uint64_t> words(kWords, 0);
  for (uint32_t i = 0; i < values; ++i) {
    const uint32_t v = static_cast<uint32_t>(rng() % 65536);
    words[v / 64] |= uint64_t{1} << (v % 64);
  }
  if (values > 1) {
    words[0] |= 1;
    words[kWords - 1] |= uint64_t{1} << 63;
    words[500] = ~uint64_t{0};
    words[501] = 0xFFFFFFFF00000001ULL;
    words[502] = 0x00000000FFFFFFFFULL;
  }
  return words;
}

// The positions of a block's set bits, bit by bit.
std::vector<uint16_t> SetBits(const std::vector<uint64_t>& words) {
  std::vector<uint16_t> bits;
  for (uint32_t bit = 0; bit < 65536; ++bit) {
    if ((words[bit / 64] >> (bit % 64)) & 1) bits.push_back(static_cast<uint16_t>(bit));
  }
  return bits;
}

TEST(BlockOpsTest, PositionsListTheSetBitsAscending) {
  // Every variant lists each set bit once, ascending, and writes at most two entries past
  // them (the room its callers leave).
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(37);
    for (const uint32_t values : {0u, 1u, 5u, 700u, 4096u, 30000u}) {
      const std::vector<uint64_t> words = SparseBlock(rng, values);
      const std::vector<uint16_t> expected = SetBits(words);
      std::vector<uint16_t> out(expected.size() + 2 + 64, 0xABCD);
      ops->positions(words.data(), out.data());
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out.begin())) << values;
      EXPECT_EQ(std::count(out.begin() + static_cast<std::ptrdiff_t>(expected.size()) + 2,
                           out.end(), uint16_t{0xABCD}),
                64)
          << values;
    }
  }
}

TEST(BlockOpsTest, TakePositionsReadsTheFlaggedWordsAndClearsThem) {
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(31);
    for (const uint32_t values : {0u, 1u, 7u, 300u, 2000u, 4096u}) {
      std::vector<uint64_t> words = SparseBlock(rng, values);
      std::vector<uint8_t> flags(kWords, 0);
      if (values > 1) words[77] = 0;
      for (size_t w = 0; w < words.size(); ++w) flags[w] = words[w] != 0;
      if (values > 1) flags[77] = 1;  // a flagged word may be empty
      const std::vector<uint16_t> expected = SetBits(words);
      // A word that is not flagged is not read (nor cleared).
      const size_t unflagged = static_cast<size_t>(std::find(flags.begin() + 1, flags.end(), 0) -
                                                   flags.begin());
      ASSERT_LT(unflagged, flags.size()) << values;
      words[unflagged] = 0x5;
      std::vector<uint16_t> out(expected.size() + 2, 0xFFFF);
      const uint32_t count = ops->take_positions(words.data(), flags.data(), out.data());
      ASSERT_EQ(count, expected.size()) << values;
      out.resize(count);
      EXPECT_EQ(out, expected) << values;
      EXPECT_EQ(words[unflagged], 0x5u) << values;
      words[unflagged] = 0;
      EXPECT_EQ(std::count(words.begin(), words.end(), uint64_t{0}), kWords) << values;
      EXPECT_EQ(std::count(flags.begin(), flags.end(), uint8_t{0}), kWords) << values;
    }
  }
}

TEST(BlockOpsTest, SetValuesSetsTheBitOfEachValue) {
  // Values as an array container lies in index bytes: little-endian, from an odd address;
  // repeats, the block's first and last values, and bits already set are kept.
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(53);
    for (const uint32_t count : {0u, 1u, 9u, 700u, 5000u}) {
      std::vector<uint16_t> values;
      for (uint32_t i = 0; i < count; ++i) values.push_back(static_cast<uint16_t>(rng()));
      if (count > 1) values[0] = 0, values[1] = 65535;
      if (count > 2) values[2] = values[0];
      std::vector<uint8_t> bytes(1 + 2 * values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        bytes[1 + 2 * i] = static_cast<uint8_t>(values[i]);
        bytes[2 + 2 * i] = static_cast<uint8_t>(values[i] >> 8);
      }
      std::vector<uint64_t> words = SparseBlock(rng, 50);
      std::vector<uint64_t> expected = words;
      for (uint16_t v : values) expected[v / 64] |= uint64_t{1} << (v % 64);
      ops->set_values(words.data(), bytes.data() + 1, static_cast<uint32_t>(values.size()));
      EXPECT_EQ(words, expected) << count;
    }
  }
}

TEST(BlockOpsTest, StrictlyAscendingFindsAnyDescentOrRepeat) {
  // Ascending values from an odd address, then each position in turn made equal to or below
  // the value before it: inside a vector, across two, and in the scalar tail, for counts
  // around the vector widths (8, 16, 32 values), with high values (unsigned comparison).
  for (const BlockOps* ops : SupportedOps()) {
    SCOPED_TRACE(ops->name);
    std::mt19937_64 rng(61);
    for (const uint32_t count : {0u, 1u, 2u, 8u, 9u, 16u, 17u, 31u, 32u, 33u, 64u, 65u, 100u,
                                 4096u}) {
      std::vector<uint16_t> values(count);
      uint32_t v = static_cast<uint32_t>(rng() % 64);
      for (uint32_t i = 0; i < count; ++i) {
        values[i] = static_cast<uint16_t>(count == 4096 ? i + 32768 : v);
        v += 1 + static_cast<uint32_t>(rng() % 500);
      }
      auto bytes_of = [](const std::vector<uint16_t>& vs) {
        std::vector<uint8_t> bytes(1 + 2 * vs.size());
        for (size_t i = 0; i < vs.size(); ++i) {
          bytes[1 + 2 * i] = static_cast<uint8_t>(vs[i]);
          bytes[2 + 2 * i] = static_cast<uint8_t>(vs[i] >> 8);
        }
        return bytes;
      };
      EXPECT_TRUE(ops->strictly_ascending(bytes_of(values).data() + 1, count)) << count;
      const uint32_t step = count > 100 ? 37 : 1;
      for (uint32_t at = 1; at < count; at += step) {
        for (const int below : {0, 1}) {
          std::vector<uint16_t> broken = values;
          broken[at] = static_cast<uint16_t>(broken[at - 1] - below);
          if (below == 1 && broken[at - 1] == 0) continue;
          EXPECT_FALSE(ops->strictly_ascending(bytes_of(broken).data() + 1, count))
              << count << " at " << at << " below " << below;
        }
      }
    }
  }
}

TEST(BlockOpsTest, DispatchPicksTheLastVariantThisCpuRuns) {
  const std::vector<const BlockOps*> variants = SupportedOps();
  ASSERT_FALSE(variants.empty());
  EXPECT_STREQ(variants.front()->name, "baseline");
  EXPECT_EQ(variants.back(), &Ops());
}

}  // namespace
}  // namespace pyfileindex::roaring
