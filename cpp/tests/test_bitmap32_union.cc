// Bitmap32::FastUnion picks a way key by key (sorted merges of a few arrays, a sparse block
// for many, a full block, or CRoaring where runs are): each must give the plain union,
// whatever the inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "roaring/bitmap32.h"
#include "roaring/portable_check.h"
#include "roaring/roaring_view.h"
#include "roaring/union_by_keys.h"

namespace pyfileindex::roaring {
namespace {

Bitmap32 UnionOneByOne(const std::vector<Bitmap32>& bitmaps) {
  Bitmap32 out;
  for (const Bitmap32& b : bitmaps) out |= b;
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
      const Bitmap32 fast = Bitmap32::FastUnion(bitmaps);
      EXPECT_EQ(fast.Cardinality(), expected.Cardinality()) << per_key << " " << count;
      EXPECT_TRUE(fast == expected) << per_key << " " << count;
    }
  }
}

TEST(Bitmap32Union, EmptyInputsAmongOthers) {
  std::vector<Bitmap32> bitmaps(5);
  bitmaps[2] = Bitmap32::Of({1, 70000, 140000});
  bitmaps[4] = Bitmap32::Of({2, 70000});
  const Bitmap32 fast = Bitmap32::FastUnion(bitmaps);
  EXPECT_EQ(fast.ToVector(), (std::vector<uint32_t>{1, 2, 70000, 140000}));
}

// UnionByKeys over views of the bitmaps' own containers.
std::optional<Bitmap32> UnionOver(const std::vector<Bitmap32>& bitmaps) {
  std::vector<RoaringView> views;
  for (const Bitmap32& b : bitmaps) views.push_back(RoaringView::Over(b));
  std::vector<const RoaringView*> inputs;
  for (const RoaringView& v : views) inputs.push_back(&v);
  return UnionByKeys(inputs);
}

// UnionByKeys over views of the bitmaps' portable bytes, laid one after another from an odd
// address (an index's bitmaps lie at any offset of its bytes).
std::optional<Bitmap32> UnionOfBytes(const std::vector<Bitmap32>& bitmaps) {
  std::vector<uint8_t> bytes(1, 0);
  std::vector<size_t> starts;
  for (const Bitmap32& b : bitmaps) {
    starts.push_back(bytes.size());
    const std::vector<uint8_t> serialized = b.SerializeAsIs();  // the containers as they are
    bytes.insert(bytes.end(), serialized.begin(), serialized.end());
  }
  std::vector<RoaringView> views;
  for (size_t start : starts) {
    Result<RoaringView> view = RoaringView::Parse(bytes.data() + start, bytes.size() - start);
    EXPECT_TRUE(view.ok()) << view.status().ToString();
    if (!view.ok()) return std::nullopt;
    EXPECT_TRUE(CheckPortableContent(bytes.data() + start, view->bytes()).ok());
    views.push_back(std::move(*view));
  }
  std::vector<const RoaringView*> inputs;
  for (const RoaringView& v : views) inputs.push_back(&v);
  return UnionByKeys(inputs);
}

TEST(Bitmap32Union, ByKeysEqualsTheUnionOfArraysAndBitmaps) {
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
    std::optional<Bitmap32> united = UnionOver(bitmaps);
    ASSERT_TRUE(united.has_value()) << trial;
    const Bitmap32 expected = UnionOneByOne(bitmaps);
    EXPECT_EQ(united->Cardinality(), expected.Cardinality()) << trial;
    EXPECT_TRUE(*united == expected) << trial;
    std::optional<Bitmap32> from_bytes = UnionOfBytes(bitmaps);
    ASSERT_TRUE(from_bytes.has_value()) << trial;
    EXPECT_TRUE(*from_bytes == expected) << trial;
    EXPECT_TRUE(Bitmap32::FastUnion(bitmaps) == expected) << trial;
  }
}

TEST(Bitmap32Union, ByKeysLeavesRunsToCRoaring) {
  std::vector<Bitmap32> bitmaps(4);
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t v = 0; v < 2000; ++v) bitmaps[i].Add(v * 7 + i);
  }
  bitmaps[2] = Bitmap32::Range(100, 60000);
  bitmaps[2].Compact();  // one run container
  EXPECT_FALSE(UnionOver(bitmaps).has_value());
  EXPECT_FALSE(UnionOfBytes(bitmaps).has_value());
  EXPECT_TRUE(Bitmap32::FastUnion(bitmaps) == UnionOneByOne(bitmaps));
}

TEST(Bitmap32Union, ArraysOfAKeyUniteIntoAnArrayHoweverManyTheyAre) {
  // 2..12 inputs of arrays (merged up to four, a sparse block beyond), overlapping values,
  // the first and last values of a key, and keys whose arrays hold 4096 values together (an
  // array union) or 4097 (a block, whose union may still be an array).
  std::mt19937_64 rng(43);
  for (size_t count = 2; count <= 12; ++count) {
    for (const uint32_t together : {2u, 200u, 4096u, 4097u}) {
      std::vector<Bitmap32> bitmaps(count);
      for (uint32_t k : {0u, 9u, 65535u}) {
        for (size_t i = 0; i < count; ++i) {
          const uint32_t n = together / static_cast<uint32_t>(count) +
                             (i < together % count ? 1u : 0u);
          // Values from a narrow range in half of the keys: inputs share many of them.
          const uint32_t range = k == 9 ? 3000 : 65536;
          uint32_t added = 0;
          while (added < n) {
            const uint32_t v = i == 0 && added == 0 ? 0 : i == 1 && added == 0 ? 65535
                               : static_cast<uint32_t>(rng() % range);
            if (bitmaps[i].Contains((k << 16) | v)) continue;
            bitmaps[i].Add((k << 16) | v);
            ++added;
          }
        }
      }
      const Bitmap32 expected = UnionOneByOne(bitmaps);
      std::optional<Bitmap32> united = UnionOver(bitmaps);
      ASSERT_TRUE(united.has_value()) << count << " " << together;
      std::optional<Bitmap32> from_bytes = UnionOfBytes(bitmaps);
      ASSERT_TRUE(from_bytes.has_value()) << count << " " << together;
      EXPECT_TRUE(*from_bytes == expected) << count << " " << together;
      EXPECT_EQ(united->Cardinality(), expected.Cardinality()) << count << " " << together;
      EXPECT_TRUE(*united == expected) << count << " " << together;
      // A key's union of at most 4096 values is an array container, else a bitmap.
      uint32_t arrays = 0;
      for (uint64_t k : {0u, 9u, 65535u}) {
        const uint64_t below = k == 0 ? 0 : expected.Rank(static_cast<uint32_t>((k << 16) - 1));
        arrays += expected.Rank(static_cast<uint32_t>((k << 16) | 0xFFFF)) - below <= 4096;
      }
      roaring_statistics_t stats;
      roaring_bitmap_statistics(united->raw(), &stats);
      EXPECT_EQ(stats.n_array_containers, arrays) << count << " " << together;
      EXPECT_EQ(stats.n_bitset_containers, 3 - arrays) << count << " " << together;
      EXPECT_TRUE(Bitmap32::FastUnion(bitmaps) == expected) << count << " " << together;
    }
  }
}

TEST(Bitmap32Union, OfOneInputIsACopy) {
  std::vector<Bitmap32> bitmaps(1);
  bitmaps[0] = Bitmap32::Range(10, 100000);
  bitmaps[0].Compact();
  const Bitmap32 fast = Bitmap32::FastUnion(bitmaps);
  EXPECT_TRUE(fast == bitmaps[0]);
  bitmaps[0].Add(5);
  EXPECT_FALSE(fast.Contains(5));
}

}  // namespace
}  // namespace pyfileindex::roaring
