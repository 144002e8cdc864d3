// The one-walk selection of a set of codes (code_set_scan.h, CodeBsiReader::CodesIn) against
// brute force, over the layouts the walk meets (dense and sparse ties, run and array slice
// containers, NULLs, empty blocks) and code sets of every shape (one code, neighbours,
// codes at slice boundaries, codes outside the dictionary, every code).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "code_column.h"
#include "index/range_bitmap/code_bsi_reader.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "io/byte_span.h"
#include "io/endian.h"
#include "roaring.h"
#include "roaring/block_ops.h"
#include "roaring/roaring_view.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using test_codes::kNull;
using test_codes::MixedLayouts;
using test_codes::Shuffled;
using Column = test_codes::CodeColumn;

void ExpectCodesIn(const Column& column, std::vector<int64_t> wanted) {
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::string trace = "codes";
  for (int64_t code : wanted) trace += " " + std::to_string(code);
  SCOPED_TRACE(trace + " of " + std::to_string(column.cardinality));
  const std::set<int64_t> set(wanted.begin(), wanted.end());
  std::vector<uint32_t> expected;
  for (uint32_t r = 0; r < column.codes.size(); ++r) {
    if (column.codes[r] != kNull && set.count(column.codes[r]) != 0) expected.push_back(r);
  }
  auto rows = column.reader->CodesIn(wanted);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  const char* reason = nullptr;
  EXPECT_TRUE(roaring_bitmap_internal_validate(rows->raw(), &reason)) << reason;
  EXPECT_EQ(rows->ToVector(), expected);
}

void ExpectSets(const Column& column, std::mt19937_64& rng, size_t random_sets) {
  const int64_t card = column.cardinality;
  ExpectCodesIn(column, {});
  ExpectCodesIn(column, {0});
  ExpectCodesIn(column, {card - 1});
  ExpectCodesIn(column, {-2, card, card + 7});  // none in the dictionary
  ExpectCodesIn(column, {0, card - 1});
  std::vector<int64_t> all;
  for (int64_t code = 0; code < std::min<int64_t>(card, 64); ++code) all.push_back(code);
  ExpectCodesIn(column, all);  // every code when card <= 64
  std::vector<int64_t> edges = {0, 1, card - 1, card};
  for (int64_t p = 2; p < card; p *= 2) edges.insert(edges.end(), {p - 1, p});
  ExpectCodesIn(column, edges);  // neighbours across slice boundaries
  for (size_t i = 0; i < random_sets; ++i) {
    std::vector<int64_t> codes;
    const size_t n = 2 + rng() % 40;
    for (size_t k = 0; k < n; ++k) {
      int64_t code = static_cast<int64_t>(rng() % static_cast<uint64_t>(card));
      if (k % 4 == 1 && !codes.empty()) code = codes.back() + 1;  // some neighbours
      codes.push_back(code);
    }
    ExpectCodesIn(column, codes);
  }
}

TEST(CodeSetScanTest, SmallDictionariesEverySubset) {
  std::mt19937_64 rng(11);
  for (int64_t card : {1, 2, 3, 5, 8}) {
    Column c = Shuffled(rng, 70000, card, 0.1);
    c.Build();
    for (uint32_t mask = 0; mask < (1u << card); ++mask) {
      std::vector<int64_t> codes;
      for (int64_t code = 0; code < card; ++code) {
        if (mask & (1u << code)) codes.push_back(code);
      }
      ExpectCodesIn(c, codes);
    }
  }
}

TEST(CodeSetScanTest, ShuffledCodesDenseAndSparseTies) {
  std::mt19937_64 rng(12);
  for (int64_t card : {10, 1000, 70000, 1 << 20}) {
    for (double nulls : {0.0, 0.1, 0.97}) {
      SCOPED_TRACE("card " + std::to_string(card) + " nulls " + std::to_string(nulls));
      Column c = Shuffled(rng, 150000, card, nulls);
      c.Build();
      ExpectSets(c, rng, 20);
    }
  }
}

TEST(CodeSetScanTest, SortedClusteredAndMixedLayouts) {
  std::mt19937_64 rng(13);
  for (int64_t card : {7, 300, 5000}) {
    SCOPED_TRACE("card " + std::to_string(card));
    Column c = MixedLayouts(rng, card);
    // A whole block of NULLs: an EBM without that block.
    Column gap;
    gap.cardinality = card;
    gap.codes = c.codes;
    for (uint32_t r = 65536; r < 131072; ++r) gap.codes[r] = kNull;
    c.Build();
    ExpectSets(c, rng, 30);
    gap.Build();
    ExpectSets(gap, rng, 10);
  }
}

// Where slice i's bitmap starts in a BSI section (after its header and the EBM).
size_t SliceStart(const std::vector<uint8_t>& bsi, int i) {
  const size_t header = io::LoadU32BE(bsi.data());
  const size_t ebm_length = io::LoadU32BE(bsi.data() + 4 + 2);
  const size_t offset = io::LoadU32BE(bsi.data() + 4 + 10 + 8 * static_cast<size_t>(i));
  return 4 + header + ebm_length + offset;
}

TEST(CodeSetScanTest, DamagedSliceRunsAreCorrupt) {
  // Sorted codes: every slice container is runs; one of slice 0's runs then reaches past its
  // block, which every set walk reads.
  std::mt19937_64 rng(14);
  Column c = Shuffled(rng, 4 * 65536, 300, 0.0);
  std::sort(c.codes.begin(), c.codes.end());
  c.Build();
  const size_t slice0 = SliceStart(c.bsi, 0);
  auto view = roaring::RoaringView::Parse(c.bsi.data() + slice0, c.bsi.size() - slice0);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ASSERT_EQ(view->kind(3), roaring::RoaringView::Kind::kRun);
  size_t run = 0;
  while (io::LoadU16LE(view->data(3) + 4 * run) == 0) ++run;
  const size_t at = static_cast<size_t>(view->data(3) - c.bsi.data()) + 4 * run;
  const uint32_t start = io::LoadU16LE(c.bsi.data() + at);
  io::StoreU16LE(c.bsi.data() + at + 2, static_cast<uint16_t>(0x10000 - start));
  c.Reopen();
  auto rows = c.reader->CodesIn({1, 100, 250});
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(rows.status().message().find("range-bitmap: bit slice container with a run past"),
            std::string::npos)
      << rows.status().ToString();
}

}  // namespace
}  // namespace pyfileindex::index::range_bitmap
