// Bitmap32::Flip builds a wide range less the bitmap where CRoaring would look every chunk of
// the range up: either way the complement within the range must be CRoaring's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "roaring/bitmap32.h"

namespace pyfileindex::roaring {
namespace {

// CRoaring's flip, as the reference.
Bitmap32 Flipped(const Bitmap32& bitmap, uint64_t begin, uint64_t end) {
  Bitmap32 expected(bitmap);
  roaring_bitmap_t* reference = roaring_bitmap_flip(bitmap.raw(), begin, end);
  roaring_bitmap_clear(expected.raw());
  roaring_bitmap_or_inplace(expected.raw(), reference);
  roaring_bitmap_free(reference);
  return expected;
}

void ExpectFlipLikeCRoaring(const Bitmap32& bitmap, uint64_t begin, uint64_t end) {
  SCOPED_TRACE("[" + std::to_string(begin) + ", " + std::to_string(end) + ") of " +
               std::to_string(bitmap.Cardinality()) + " values");
  Bitmap32 flipped(bitmap);
  flipped.Flip(begin, end);
  EXPECT_TRUE(flipped == Flipped(bitmap, begin, end));
  // Twice: the bitmap again.
  flipped.Flip(begin, end);
  EXPECT_TRUE(flipped == bitmap);
}

TEST(Bitmap32Flip, FewValuesInAWideRange) {
  // Many more chunks than the bitmap holds, values inside the range: the range less the bitmap.
  const uint64_t ends[] = {1, 65536, 65537, 10000000, uint64_t{1} << 32};
  for (uint64_t end : ends) {
    ExpectFlipLikeCRoaring(Bitmap32(), 0, end);
    ExpectFlipLikeCRoaring(Bitmap32::Of({0}), 0, end);
    ExpectFlipLikeCRoaring(Bitmap32::Of({static_cast<uint32_t>(end - 1)}), 0, end);
    if (end > 70000 && end < (uint64_t{1} << 32)) {
      ExpectFlipLikeCRoaring(Bitmap32::Of({1, 5, 65535, 65536, 69999}), 0, end);
      ExpectFlipLikeCRoaring(Bitmap32::Range(3, 70000), 3, end);  // a run, begin inside a chunk
    }
  }
}

TEST(Bitmap32Flip, ValuesOutsideTheRangeAreKept) {
  // Values below `begin` or at and above `end`: CRoaring's own flip, which keeps them.
  Bitmap32 bitmap = Bitmap32::Of({7, 100000000, 4000000000u});
  ExpectFlipLikeCRoaring(bitmap, 8, 100000000);
  ExpectFlipLikeCRoaring(bitmap, 0, 100000000);
  ExpectFlipLikeCRoaring(bitmap, 65536 * 3 + 17, uint64_t{1} << 32);
}

TEST(Bitmap32Flip, RandomBitmapsAndRanges) {
  std::mt19937_64 rng(4604);
  for (int round = 0; round < 200; ++round) {
    // Sparse or dense, over a few or many chunks: both ways of flipping are taken.
    const uint64_t span = uint64_t{1} << (10 + rng() % 18);
    const size_t values = rng() % 3 == 0 ? rng() % 50000 : rng() % 20;
    std::vector<uint32_t> rows;
    for (size_t i = 0; i < values; ++i) rows.push_back(static_cast<uint32_t>(rng() % span));
    Bitmap32 bitmap;
    bitmap.AddMany(rows.data(), rows.size());
    if (rng() % 4 == 0) bitmap.AddRange(span / 3, span / 3 + rng() % 200000);
    const uint64_t begin = rng() % 2 == 0 ? 0 : rng() % span;
    const uint64_t end = begin + 1 + rng() % (2 * span);
    ExpectFlipLikeCRoaring(bitmap, begin, std::min<uint64_t>(end, uint64_t{1} << 32));
  }
}

}  // namespace
}  // namespace pyfileindex::roaring
