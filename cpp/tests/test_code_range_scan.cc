// The top-down code range walk (code_range_scan.h) against brute force: every layout the walk
// distinguishes (dense blocks, run/array blocks walked on intervals, blocks that switch from
// intervals to words midway, sparse ties, NULLs, empty blocks) and the range edges (empty,
// everything, lo == hi, codes at slice boundaries, one-sided bounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "code_column.h"
#include "index/range_bitmap/code_bsi_reader.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "index/slice_scan/block_intervals.h"
#include "index/slice_scan/code_range_scan.h"
#include "io/byte_span.h"
#include "io/endian.h"
#include "roaring/roaring_view.h"
#include "roaring.h"
#include "roaring/block_builder.h"

namespace pyfileindex::index::range_bitmap {

using slice_scan::CodeRangeScan;

namespace {

using test_codes::kNull;
using test_codes::MixedLayouts;
using test_codes::Shuffled;
using Column = test_codes::CodeColumn;

// The rows whose codes lie in [low, high].
std::vector<uint32_t> Expected(const Column& column, int64_t low, int64_t high) {
  std::vector<uint32_t> rows;
  for (uint32_t r = 0; r < column.codes.size(); ++r) {
    const uint32_t code = column.codes[r];
    if (code != kNull && code >= low && code <= high) rows.push_back(r);
  }
  return rows;
}

void ExpectRange(const Column& column, int64_t low, int64_t high) {
  SCOPED_TRACE("codes [" + std::to_string(low) + ", " + std::to_string(high) + "] of " +
               std::to_string(column.cardinality));
  auto rows = column.reader->CodesBetween(low, high);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  const char* reason = nullptr;
  EXPECT_TRUE(roaring_bitmap_internal_validate(rows->raw(), &reason)) << reason;
  EXPECT_EQ(rows->ToVector(), Expected(column, low, high));
}

// Codes where the slices' bits turn over, and the dictionary's ends.
std::vector<int64_t> EdgeCodes(int64_t cardinality) {
  std::vector<int64_t> codes = {-3, 0, 1, 2, cardinality - 2, cardinality - 1, cardinality,
                                cardinality + 5};
  for (int64_t p = 4; p < cardinality; p *= 2) {
    codes.insert(codes.end(), {p - 1, p, p + 1});
  }
  return codes;
}

void ExpectRanges(const Column& column, std::mt19937_64& rng, size_t random_pairs) {
  const int64_t card = column.cardinality;
  if (card <= 12) {
    for (int64_t lo = -1; lo <= card; ++lo) {
      for (int64_t hi = -1; hi <= card; ++hi) ExpectRange(column, lo, hi);
    }
    return;
  }
  const std::vector<int64_t> edges = EdgeCodes(card);
  for (int64_t lo : edges) {
    ExpectRange(column, lo, lo);
    ExpectRange(column, lo, card - 1);
    ExpectRange(column, 0, lo);
  }
  for (size_t i = 0; i < random_pairs; ++i) {
    int64_t lo = static_cast<int64_t>(rng() % static_cast<uint64_t>(card));
    int64_t hi = i % 3 == 0 ? edges[rng() % edges.size()]
                            : lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(card / 8 + 2));
    if (i % 5 == 0) std::swap(lo, hi);  // some empty ranges
    ExpectRange(column, lo, hi);
  }
}

Column Sorted(std::mt19937_64& rng, uint32_t rows, int64_t card, double nulls) {
  Column c = Shuffled(rng, rows, card, 0.0);
  std::sort(c.codes.begin(), c.codes.end());
  for (uint32_t& code : c.codes) {
    if ((rng() % 10000) < nulls * 10000) code = kNull;
  }
  return c;
}

TEST(CodeRangeScanTest, SingleRow) {
  std::mt19937_64 rng(1);
  for (int64_t card : {1, 2, 5}) {
    Column c;
    c.cardinality = card;
    c.codes = {static_cast<uint32_t>(card - 1)};
    c.Build();
    ExpectRanges(c, rng, 0);
  }
  Column null_row;
  null_row.cardinality = 1;
  null_row.codes = {kNull, 0};
  null_row.Build();
  ExpectRanges(null_row, rng, 0);
}

TEST(CodeRangeScanTest, ShuffledCodesOverSeveralBlocks) {
  std::mt19937_64 rng(2);
  // 150000 rows: two full 65536-row blocks and a partial one.
  for (int64_t card : {2, 3, 10, 1000, 70000}) {
    for (double nulls : {0.0, 0.1, 0.97}) {
      SCOPED_TRACE("card " + std::to_string(card) + " nulls " + std::to_string(nulls));
      Column c = Shuffled(rng, 150000, card, nulls);
      c.Build();
      ExpectRanges(c, rng, 40);
    }
  }
}

TEST(CodeRangeScanTest, SortedAndRunHeavyCodes) {
  std::mt19937_64 rng(3);
  for (int64_t card : {5, 12, 1000, 40000}) {
    for (double nulls : {0.0, 0.05}) {
      SCOPED_TRACE("card " + std::to_string(card) + " nulls " + std::to_string(nulls));
      Column c = Sorted(rng, 150000, card, nulls);
      c.Build();
      ExpectRanges(c, rng, 40);
    }
  }
}

// Sorted over many blocks: in most of them the high slices hold every row or none, and a walk
// whose tie empties on such a slice skips the block without reading it further.
TEST(CodeRangeScanTest, BlocksWhoseHighSlicesHoldEveryRowOrNone) {
  std::mt19937_64 rng(7);
  for (int64_t card : {40, 3000}) {
    for (double nulls : {0.0, 0.02}) {
      SCOPED_TRACE("card " + std::to_string(card) + " nulls " + std::to_string(nulls));
      Column c = Sorted(rng, 700000, card, nulls);
      c.Build();
      ExpectRanges(c, rng, 30);
    }
  }
}

TEST(CodeRangeScanTest, ClusteredRunsNullBlocksAndMixedLayouts) {
  std::mt19937_64 rng(4);
  for (int64_t card : {7, 300, 5000}) {
    SCOPED_TRACE("card " + std::to_string(card));
    Column c = MixedLayouts(rng, card);
    c.Build();
    ExpectRanges(c, rng, 60);
  }
}

TEST(CodeRangeScanTest, SparseTiesReadFewWords) {
  // Many slices and few rows per code: ties become sparse after a few slices.
  std::mt19937_64 rng(5);
  Column c = Shuffled(rng, 140000, 1 << 20, 0.02);
  c.Build();
  ExpectRanges(c, rng, 60);
}

// Random sorted, disjoint intervals inside one block, `pieces` at most.
slice_scan::Intervals RandomIntervals(std::mt19937_64& rng, size_t pieces) {
  std::vector<uint32_t> cuts;
  for (size_t i = 0; i < 2 * pieces; ++i) cuts.push_back(static_cast<uint32_t>(rng() % 65537));
  std::sort(cuts.begin(), cuts.end());
  slice_scan::Intervals out;
  for (size_t i = 0; i + 1 < cuts.size(); i += 2) {
    if (cuts[i] < cuts[i + 1]) out.insert(out.end(), {cuts[i], cuts[i + 1]});
  }
  return out;
}

std::vector<bool> Members(const slice_scan::Intervals& v) {
  std::vector<bool> in(65536, false);
  for (size_t k = 0; k < v.size(); k += 2) {
    for (uint32_t r = v[k]; r < v[k + 1]; ++r) in[r] = true;
  }
  return in;
}

TEST(BlockIntervalsTest, SplitByAndRowsInsideAgreeWithTheSets) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 200; ++round) {
    const slice_scan::Intervals x = RandomIntervals(rng, 1 + rng() % 40);
    const slice_scan::Intervals s = RandomIntervals(rng, 1 + rng() % 40);
    slice_scan::Intervals inside, outside;
    slice_scan::SplitBy(x, s, &inside, &outside);
    const std::vector<bool> in_x = Members(x), in_s = Members(s);
    const std::vector<bool> got_in = Members(inside), got_out = Members(outside);
    uint32_t expected_inside = 0;
    for (uint32_t r = 0; r < 65536; ++r) {
      ASSERT_EQ(got_in[r], in_x[r] && in_s[r]) << "round " << round << " row " << r;
      ASSERT_EQ(got_out[r], in_x[r] && !in_s[r]) << "round " << round << " row " << r;
      expected_inside += in_x[r] && in_s[r];
    }
    EXPECT_EQ(slice_scan::RowsInside(x, s), expected_inside) << "round " << round;
    EXPECT_EQ(slice_scan::IntervalRows(inside), expected_inside) << "round " << round;
  }
}

TEST(BlockIntervalsTest, SortAndJoinMakesSortedDisjointIntervalsOfAnyPieces) {
  // Pieces in order (as one step gives them) and shuffled (as several steps do), overlapping,
  // touching and repeated: the result holds the same rows, sorted, with a gap between any two.
  std::mt19937_64 rng(9);
  for (int round = 0; round < 200; ++round) {
    slice_scan::Intervals pieces;
    const int count = static_cast<int>(rng() % 30);
    for (int i = 0; i < count; ++i) {
      const uint32_t from = static_cast<uint32_t>(rng() % 65536);
      const uint32_t to = std::min<uint32_t>(65536, from + 1 + static_cast<uint32_t>(rng() % 3000));
      pieces.push_back(from);
      pieces.push_back(to);
      if (to < 65536 && rng() % 5 == 0) {  // one that touches it
        pieces.push_back(to);
        pieces.push_back(to + 1);
      }
    }
    if (round % 2 == 0) {  // in order of their starts
      std::vector<std::pair<uint32_t, uint32_t>> pairs;
      for (size_t k = 0; k < pieces.size(); k += 2) pairs.emplace_back(pieces[k], pieces[k + 1]);
      std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;  // ends of equal starts left in any order
      });
      pieces.clear();
      for (const auto& [from, to] : pairs) pieces.insert(pieces.end(), {from, to});
    }
    const std::vector<bool> want = Members(pieces);
    slice_scan::Intervals joined = pieces;
    slice_scan::SortAndJoin(&joined);
    ASSERT_EQ(Members(joined), want) << "round " << round;
    for (size_t k = 0; k < joined.size(); k += 2) {
      ASSERT_LT(joined[k], joined[k + 1]) << "round " << round;
      if (k >= 2) {
        ASSERT_LT(joined[k - 1], joined[k]) << "round " << round;
      }
    }
  }
}

// Where slice `i` of a BSI section starts (its header: length, version, slice count, EBM
// length, index length, then each slice's offset and length; the body: EBM, then slices).
size_t SliceStart(const std::vector<uint8_t>& bsi, int i) {
  const size_t header = io::LoadU32BE(bsi.data());
  const size_t ebm_length = io::LoadU32BE(bsi.data() + 4 + 2);
  const size_t offset = io::LoadU32BE(bsi.data() + 4 + 10 + 8 * static_cast<size_t>(i));
  return 4 + header + ebm_length + offset;
}

TEST(CodeRangeScanTest, SliceRunsAreCheckedAsTheWalkReadsThem) {
  // Sorted codes over four blocks: every slice container is runs. The lowest slice's runs are
  // checked only where a walk reads them, so damage there fails the queries that reach it and
  // no other.
  std::mt19937_64 rng(6);
  Column c = Sorted(rng, 4 * 65536, 300, 0.0);
  c.Build();
  const std::vector<uint8_t> good = c.bsi;
  const size_t slice0 = SliceStart(good, 0);
  auto view = roaring::RoaringView::Parse(good.data() + slice0, good.size() - slice0);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ASSERT_EQ(view->container_count(), 4u);
  ASSERT_EQ(view->kind(3), roaring::RoaringView::Kind::kRun);
  // Block 3's first run with a start above 0 now reaches past the block.
  size_t run = 0;
  while (io::LoadU16LE(view->data(3) + 4 * run) == 0) ++run;
  const size_t at = static_cast<size_t>(view->data(3) - good.data()) + 4 * run;
  const uint32_t start = io::LoadU16LE(good.data() + at);
  io::StoreU16LE(c.bsi.data() + at + 2, static_cast<uint16_t>(0x10000 - start));
  auto opened = CodeBsiReader::Open(io::ByteSpan(c.bsi.data(), c.bsi.size()), c.cardinality,
                                    static_cast<uint32_t>(c.codes.size()));
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  c.reader = std::move(*opened);

  const int64_t top = c.codes.back();  // in block 3
  const int64_t bottom = c.codes.front();  // in block 0
  const int64_t odd = (top - 2) | 1;  // a lower bound ending in 1: its tie reaches slice 0
  for (auto rows : {c.reader->CodesBetween(top, top), c.reader->CodesBetween(odd, top),
                    c.reader->TopK(10, nullptr, true, true)}) {
    ASSERT_FALSE(rows.ok());
    EXPECT_EQ(rows.status().code(), StatusCode::kCorrupt);
    EXPECT_NE(rows.status().message().find("range-bitmap: bit slice container with a run past"),
              std::string::npos)
        << rows.status().ToString();
  }
  // Walks that never read block 3's lowest slice answer as before.
  ExpectRange(c, bottom, bottom);
  ExpectRange(c, bottom, bottom + 5);
  // The 10 smallest: code `bottom` ties far more rows, and a strict cut keeps the highest.
  std::vector<uint32_t> tied;
  for (uint32_t r = 0; r < c.codes.size() && c.codes[r] == bottom; ++r) tied.push_back(r);
  ASSERT_GT(tied.size(), 10u);
  auto smallest = c.reader->TopK(10, nullptr, true, false);
  ASSERT_TRUE(smallest.ok()) << smallest.status().ToString();
  EXPECT_EQ(smallest->ToVector(), std::vector<uint32_t>(tied.end() - 10, tied.end()));
}

TEST(CodeRangeScanTest, NeverReadsMoreSlicesThanJavasFormulas) {
  for (int slices = 1; slices <= 7; ++slices) {
    const uint64_t top = (uint64_t{1} << slices) - 1;
    for (uint64_t lo = 0; lo <= top; ++lo) {
      for (uint64_t hi = lo; hi <= top; ++hi) {
        if (lo == 0 && hi == top) continue;  // the EBM itself
        const CodeRangeScan scan(slices, lo, hi);
        // Java: eq reads every slice; gte(lo) = gt(lo - 1) from ctz(lo); lte(hi) = not
        // gt(hi) from the count of hi's trailing ones.
        int java = slices;
        if (lo == hi) {
          java = 0;
        } else {
          if (lo > 0) java = std::min(java, __builtin_ctzll(lo));
          if (hi < top) java = std::min(java, __builtin_ctzll(~hi));
        }
        EXPECT_GE(scan.lowest_slice(), java) << slices << " slices, [" << lo << ", " << hi << "]";
        EXPECT_EQ(scan.steps().back().slice, scan.lowest_slice());
      }
    }
  }
}

TEST(BlockBuilderTest, IntervalsAndWordsMakeValidContainers) {
  roaring::BlockBuilder builder;
  // Runs, an array, a bitmap from intervals, and two blocks from words.
  const uint32_t runs[] = {0, 10, 100, 65536};
  builder.AddIntervals(0, runs, 2);
  std::vector<uint32_t> singles;
  for (uint32_t v = 0; v < 3000; v += 2) singles.insert(singles.end(), {v, v + 1});
  builder.AddIntervals(1, singles.data(), singles.size() / 2);
  std::vector<uint32_t> many;
  for (uint32_t v = 0; v < 65536; v += 4) many.insert(many.end(), {v, v + 3});
  builder.AddIntervals(2, many.data(), many.size() / 2);
  uint64_t* words = builder.Words();
  for (int w = 0; w < 1024; ++w) words[w] = 0x5555555555555555ull;
  builder.CommitWords(3, 32768);
  uint16_t* values = builder.AddArray(5, 3, 2);
  values[0] = 1;
  values[1] = 7;
  values[2] = 65535;
  roaring::Bitmap32 bitmap = builder.Finish();
  const char* reason = nullptr;
  EXPECT_TRUE(roaring_bitmap_internal_validate(bitmap.raw(), &reason)) << reason;
  roaring::Bitmap32 expected;
  expected.AddRange(0, 10);
  expected.AddRange(100, 65536);
  for (uint32_t v = 0; v < 3000; v += 2) expected.Add(65536 + v);
  for (uint32_t v = 0; v < 65536; v += 4) expected.AddRange(2 * 65536 + v, 2 * 65536 + v + 3);
  for (uint32_t v = 0; v < 65536; v += 2) expected.Add(3 * 65536 + v);
  for (uint32_t v : {1u, 7u, 65535u}) expected.Add(5 * 65536 + v);
  EXPECT_EQ(bitmap, expected);
  EXPECT_EQ(bitmap.Cardinality(), expected.Cardinality());
  EXPECT_TRUE(builder.Finish().IsEmpty());  // starts over
}

}  // namespace
}  // namespace pyfileindex::index::range_bitmap
