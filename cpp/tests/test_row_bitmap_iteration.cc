// RowBitmap's public iteration (const_iterator, ForEach, ReadFrom): the same rows, in the same
// order, as ToVector, for shapes that cross the iterator's batch boundaries and the edges of the
// 32-bit row space.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <utility>
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

// Maximal runs of an ascending row list, row by row: what ToRanges must give.
std::vector<std::pair<uint64_t, uint64_t>> RangesOfRows(const std::vector<uint32_t>& rows) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (uint32_t row : rows) {
    if (!ranges.empty() && ranges.back().second == row) {
      ranges.back().second = uint64_t{row} + 1;
    } else {
      ranges.emplace_back(row, uint64_t{row} + 1);
    }
  }
  return ranges;
}

TEST(RowBitmapIteration, ToRangesAreTheMaximalRunsOfEveryContainerKind) {
  // ToRanges reads runs from run containers and set-bit runs from bitset words: runs that
  // start or end inside a word, fill words, cross words and containers, and join a run
  // container to a bitset or array container beside it must come out as one range each.
  std::vector<RowBitmap> shapes = Shapes();
  std::vector<uint32_t> dense;  // bitset containers: 3 of every 4 rows, then runs of all lengths
  for (uint32_t v = 0; v < 131072; ++v) {
    if (v % 4 != 3) dense.push_back(v);
  }
  for (uint32_t v = 131072, length = 1; v < 262144 - 64; v += 2 * length, length = length % 200 + 1) {
    for (uint32_t k = 0; k < length; ++k) dense.push_back(v + k);
  }
  shapes.push_back(RowBitmap::FromRows(dense.data(), dense.size()));
  std::vector<uint32_t> words;  // whole words, and runs ending at bit 63 and starting at bit 0
  for (uint32_t v = 0; v < 65536; ++v) {
    if ((v / 64) % 3 != 1 && v % 64 != 10) words.push_back(v);
  }
  RowBitmap mixed = RowBitmap::FromRows(words.data(), words.size());
  mixed |= RowBitmap::FromRange(65536, 65536 * 3);          // a run container right after it
  const uint32_t array[] = {65536 * 3, 65536 * 3 + 1, 65536 * 3 + 5, 65536 * 4 - 1};
  mixed |= RowBitmap::FromRows(array, 4);                   // an array joining that run
  mixed |= RowBitmap::FromRange(65536 * 4, 65536 * 4 + 70);  // and a run joining the array
  shapes.push_back(mixed);
  for (const RowBitmap& bitmap : shapes) {
    EXPECT_EQ(bitmap.ToRanges(), RangesOfRows(bitmap.ToVector()));
  }
  // Every row but four: 65536 run containers, read as runs (row by row, this took seconds).
  constexpr uint64_t kAllRows = uint64_t{1} << 32;
  RowBitmap holes = RowBitmap::FromRange(0, kAllRows);
  EXPECT_EQ(holes.ToRanges(), (std::vector<std::pair<uint64_t, uint64_t>>{{0, kAllRows}}));
  holes -= RowBitmap::FromRows(array, 4);
  EXPECT_EQ(holes.ToRanges(), (std::vector<std::pair<uint64_t, uint64_t>>{
                                  {0, 65536 * 3},
                                  {65536 * 3 + 2, 65536 * 3 + 5},
                                  {65536 * 3 + 6, 65536 * 4 - 1},
                                  {65536 * 4, kAllRows}}));
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
