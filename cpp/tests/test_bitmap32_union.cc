// Bitmap32::FastUnion picks a way by how dense the result will be (pairwise array merges, a
// block per key, or bitset containers): each must give the plain union, whatever the inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "roaring/bitmap32.h"
#include "roaring/block_builder.h"

namespace pyfileindex::roaring {
namespace {

Bitmap32 UnionOneByOne(const std::vector<Bitmap32>& bitmaps) {
  Bitmap32 out;
  for (const Bitmap32& b : bitmaps) out |= b;
  return out;
}

std::vector<const Bitmap32*> Pointers(const std::vector<Bitmap32>& bitmaps) {
  std::vector<const Bitmap32*> out;
  for (const Bitmap32& b : bitmaps) out.push_back(&b);
  return out;
}

TEST(Bitmap32Union, EqualsTheUnionForSparseDenseAndMixedInputs) {
  std::mt19937_64 rng(17);
  // values per input per 16-bit key: a few (array results), thousands (bitset results), mixed
  for (const uint32_t per_key : {3u, 60u, 700u, 5000u, 30000u}) {
    for (const size_t count : {0u, 1u, 2u, 3u, 10u, 40u}) {
      std::vector<Bitmap32> bitmaps(count);
      for (size_t i = 0; i < count; ++i) {
        const uint32_t keys = 1 + static_cast<uint32_t>(rng() % 12);
        const uint32_t first_key = static_cast<uint32_t>(rng() % 4);
        for (uint32_t k = first_key; k < first_key + keys; ++k) {
          const uint32_t n = i % 3 == 0 ? per_key : 1 + per_key / 7;  // uneven inputs
          for (uint32_t v = 0; v < n; ++v) {
            bitmaps[i].Add((k << 16) | static_cast<uint32_t>(rng() % 65536));
          }
          if (rng() % 4 == 0) bitmaps[i].AddRange(uint64_t{k} << 16, (uint64_t{k} << 16) + 300);
        }
      }
      if (count >= 2) bitmaps[1] = bitmaps[0];  // overlapping inputs: values counted once
      const Bitmap32 expected = UnionOneByOne(bitmaps);
      const Bitmap32 fast = Bitmap32::FastUnion(Pointers(bitmaps));
      EXPECT_EQ(fast.Cardinality(), expected.Cardinality()) << per_key << " " << count;
      EXPECT_TRUE(fast == expected) << per_key << " " << count;
    }
  }
}

TEST(Bitmap32Union, EmptyInputsAmongOthers) {
  std::vector<Bitmap32> bitmaps(5);
  bitmaps[2] = Bitmap32::Of({1, 70000, 140000});
  bitmaps[4] = Bitmap32::Of({2, 70000});
  const Bitmap32 fast = Bitmap32::FastUnion(Pointers(bitmaps));
  EXPECT_EQ(fast.ToVector(), (std::vector<uint32_t>{1, 2, 70000, 140000}));
}

std::vector<const roaring_bitmap_t*> Raw(const std::vector<Bitmap32>& bitmaps) {
  std::vector<const roaring_bitmap_t*> out;
  for (const Bitmap32& b : bitmaps) out.push_back(b.raw());
  return out;
}

TEST(Bitmap32Union, ByBlocksEqualsTheUnionOfArraysAndBitmaps) {
  // Arrays of a few to thousands of values, bitmap containers, keys some inputs lack, empty
  // inputs, keys up to the last (65535): the union one block a key, array or bitmap as its
  // count calls for, equals the plain union.
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<Bitmap32> bitmaps(3 + trial % 9);
    for (size_t i = 0; i < bitmaps.size(); ++i) {
      if (i % 5 == 4) continue;  // empty
      for (uint32_t k : {0u, 1u, 7u, 300u, 65535u}) {
        if (rng() % 3 == 0) continue;
        const uint32_t n = static_cast<uint32_t>(rng() % (i % 3 == 0 ? 6000 : 700));
        for (uint32_t v = 0; v < n; ++v) {
          bitmaps[i].Add((k << 16) | static_cast<uint32_t>(rng() % 65536));
        }
      }
    }
    std::optional<Bitmap32> united = UnionByBlocks(Raw(bitmaps));
    ASSERT_TRUE(united.has_value()) << trial;
    const Bitmap32 expected = UnionOneByOne(bitmaps);
    EXPECT_EQ(united->Cardinality(), expected.Cardinality()) << trial;
    EXPECT_TRUE(*united == expected) << trial;
    EXPECT_TRUE(Bitmap32::FastUnion(Pointers(bitmaps)) == expected) << trial;
  }
}

TEST(Bitmap32Union, ByBlocksLeavesRunsToCRoaring) {
  std::vector<Bitmap32> bitmaps(4);
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t v = 0; v < 2000; ++v) bitmaps[i].Add(v * 7 + i);
  }
  bitmaps[2] = Bitmap32::Range(100, 60000);
  bitmaps[2].Compact();  // one run container
  EXPECT_FALSE(UnionByBlocks(Raw(bitmaps)).has_value());
  EXPECT_TRUE(Bitmap32::FastUnion(Pointers(bitmaps)) == UnionOneByOne(bitmaps));
}

}  // namespace
}  // namespace pyfileindex::roaring
