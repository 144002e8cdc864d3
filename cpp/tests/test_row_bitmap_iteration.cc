// RowBitmap's public iteration (const_iterator, ForEach, ReadFrom): the same rows, in the same
// order, as ToVector, for shapes that cross the iterator's batch boundaries and the edges of the
// 32-bit row space.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "pyfileindex/row_bitmap.h"

namespace pyfileindex {
namespace {

std::vector<uint32_t> ByIterator(const RowBitmap& bitmap) {
  std::vector<uint32_t> rows;
  for (uint32_t row : bitmap) rows.push_back(row);
  return rows;
}

std::vector<RowBitmap> Shapes() {
  std::vector<RowBitmap> shapes;
  shapes.push_back(RowBitmap());                                    // empty
  shapes.push_back(RowBitmap::FromRange(5, 6));                     // one row
  shapes.push_back(RowBitmap::FromRange(0, 64));                    // exactly one batch
  shapes.push_back(RowBitmap::FromRange(0, 65));                    // one past a batch
  shapes.push_back(RowBitmap::FromRange(70000, 200000));            // runs across containers
  const std::vector<uint32_t> edges = {0, 1, 65535, 65536, UINT32_MAX - 1, UINT32_MAX};
  shapes.push_back(RowBitmap::FromRows(edges.data(), edges.size()));  // 2^32 - 1 included
  std::vector<uint32_t> sparse;
  for (uint32_t v = 3; v < 5000000; v += 4999) sparse.push_back(v);
  shapes.push_back(RowBitmap::FromRows(sparse.data(), sparse.size()));
  return shapes;
}

TEST(RowBitmapIteration, IteratorForEachAndReadFromMatchToVector) {
  for (const RowBitmap& bitmap : Shapes()) {
    const std::vector<uint32_t> expected = bitmap.ToVector();
    EXPECT_EQ(ByIterator(bitmap), expected);
    EXPECT_EQ(std::vector<uint32_t>(bitmap.begin(), bitmap.end()), expected);

    std::vector<uint32_t> visited;
    bitmap.ForEach([&visited](uint32_t row) { visited.push_back(row); });
    EXPECT_EQ(visited, expected);

    // Chunks of 7 resumed from the last row + 1 cover the set exactly.
    std::vector<uint32_t> chunked;
    uint32_t chunk[7];
    uint64_t next = 0;
    for (;;) {
      const size_t got = bitmap.ReadFrom(next, chunk, 7);
      chunked.insert(chunked.end(), chunk, chunk + got);
      if (got < 7) break;
      next = uint64_t{chunk[got - 1]} + 1;
    }
    EXPECT_EQ(chunked, expected);
  }
}

TEST(RowBitmapIteration, ReadFromStartsAtTheFirstRowAtOrAfterStart) {
  const std::vector<uint32_t> rows = {10, 20, 30, UINT32_MAX};
  const RowBitmap bitmap = RowBitmap::FromRows(rows.data(), rows.size());
  uint32_t out[8];
  ASSERT_EQ(bitmap.ReadFrom(11, out, 8), 3u);
  EXPECT_EQ(out[0], 20u);
  EXPECT_EQ(out[2], UINT32_MAX);
  EXPECT_EQ(bitmap.ReadFrom(uint64_t{UINT32_MAX}, out, 8), 1u);
  EXPECT_EQ(bitmap.ReadFrom(uint64_t{UINT32_MAX} + 1, out, 8), 0u);  // past the row space
  EXPECT_EQ(bitmap.ReadFrom(0, out, 0), 0u);
}

TEST(RowBitmapIteration, IteratorsCompareAndCopyIndependently) {
  const RowBitmap bitmap = RowBitmap::FromRange(100, 300);
  EXPECT_EQ(RowBitmap().begin(), RowBitmap().end());
  auto it = bitmap.begin();
  auto copy = it;
  ++it;
  EXPECT_EQ(*copy, 100u);  // the copy did not move
  EXPECT_EQ(*it, 101u);
  EXPECT_NE(it, copy);
  EXPECT_EQ(*copy++, 100u);
  EXPECT_EQ(it, copy);
  size_t steps = 0;
  for (auto i = bitmap.begin(); i != bitmap.end(); ++i) ++steps;
  EXPECT_EQ(steps, 200u);
}

}  // namespace
}  // namespace pyfileindex
