// The range-bitmap writer's per-column state: the key interner (ids in order of first
// occurrence, ranks from sorting), the bit-packed row ids, and the string ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hash/mix64.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "index/range_bitmap/key_codes.h"
#include "index/range_bitmap/ordered_key_interner.h"
#include "index/range_bitmap/packed_row_ids.h"
#include "java/hash_codes.h"
#include "mix64_inverse.h"

namespace pyfileindex::index::range_bitmap {
namespace {

using namespace std::string_literals;

// Interns `keys` in batches of random sizes and checks what the writer relies on: ids are
// dense in order of first occurrence, and after TakeRanked the sorted keys are the distinct
// keys ascending and sorted[rank[id]] is the key of that id.
template <typename U>
void ExpectInternedAndRanked(const std::vector<U>& keys, uint64_t expect_rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  OrderedKeyInterner<U> interner;
  if (expect_rows > 0) interner.ExpectRows(expect_rows);
  std::vector<uint32_t> ids(keys.size(), 0xDEADBEEF);
  for (size_t begin = 0; begin < keys.size();) {
    const size_t n = std::min(keys.size() - begin, size_t{1} + rng() % 70000);
    interner.InternMany(keys.data() + begin, n, ids.data() + begin);
    begin += n;
  }
  std::map<U, uint32_t> first_seen;
  for (size_t i = 0; i < keys.size(); ++i) {
    auto [it, added] = first_seen.emplace(keys[i], static_cast<uint32_t>(first_seen.size()));
    ASSERT_EQ(ids[i], it->second) << "row " << i << (added ? " (first occurrence)" : "");
  }
  ASSERT_EQ(interner.size(), first_seen.size());

  auto ranked = interner.TakeRanked();
  EXPECT_EQ(interner.size(), 0u);
  std::vector<U> distinct;
  for (const auto& entry : first_seen) distinct.push_back(entry.first);
  ASSERT_EQ(ranked.sorted, distinct);
  ASSERT_EQ(ranked.rank.size(), distinct.size());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(ranked.sorted[ranked.rank[ids[i]]], keys[i]);
}

TEST(RangeBitmapKeyInternerTest, KeyShapesAgreeWithSorting) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 96; ++round) {
    const size_t n = 1 + rng() % (round % 2 == 0 ? 5000 : 200000);
    std::vector<uint64_t> keys(n);
    const int shape = round % 8;
    for (uint64_t& k : keys) {
      switch (shape) {
        case 0:  // a few values: the direct window
          k = rng() % 100;
          break;
        case 1:  // anything: hashed from the second key on
          k = rng();
          break;
        case 2:  // strided over a range wider than the window allows
          k = (uint64_t{1} << 40) + (rng() % 1000000) * 977;
          break;
        case 3:  // few distinct, wide
          k = (rng() % 7) << 50;
          break;
        case 6:  // near the top of the key space: the window must not run past it
          k = ~uint64_t{0} - rng() % 3000;
          break;
        case 7:  // near zero: nor below it
          k = rng() % 3000;
          break;
        default:
          k = rng() % 50000 * 3;
          break;  // sorted below, ascending or descending
      }
    }
    if (shape == 4) std::sort(keys.begin(), keys.end());
    if (shape == 5) std::sort(keys.rbegin(), keys.rend());
    // The same shapes as 32-bit keys (INT columns): the high half folded in.
    std::vector<uint32_t> keys32(n);
    for (size_t i = 0; i < n; ++i) keys32[i] = static_cast<uint32_t>(keys[i] ^ (keys[i] >> 32));
    if (shape == 4) std::sort(keys32.begin(), keys32.end());
    if (shape == 5) std::sort(keys32.rbegin(), keys32.rend());
    const uint64_t expect = round % 3 == 0 ? 0 : n;  // with and without the rows hint
    ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys, expect, round)) << "round " << round;
    ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys32, expect, round))
        << "32-bit round " << round;
  }
}

TEST(RangeBitmapKeyInternerTest, WindowGrowsBothWaysThenGivesWayToHashing) {
  // Keys spreading out from the first one, down and up, within the window's limit
  // (2 x 300k rows), then one far key: every earlier key must survive the switch.
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < 150000; ++i) {
    keys.push_back(1000000 - i * 2);
    keys.push_back(1000000 + i * 2);
  }
  keys.push_back(4000000000u);
  keys.push_back(1000000);
  keys.push_back(3);
  ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys, keys.size(), 1));
  ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys, 0, 2));
}

TEST(RangeBitmapKeyInternerTest, AscendingPrefixThenAnyOrder) {
  // Sorted keys are interned without a table until one comes below the last: then the keys so
  // far move into the window (near keys) or the hash table (spread ones), and go on from there.
  std::mt19937_64 rng(17);
  for (const uint64_t spread : {uint64_t{1}, uint64_t{3}, uint64_t{1000003}}) {
    for (const size_t prefix : {size_t{1}, size_t{5000}, size_t{150000}}) {
      std::vector<uint64_t> keys;
      for (size_t i = 0; i < prefix; ++i) keys.push_back(1000 + (i / 3) * spread);
      for (size_t i = 0; i < 50000; ++i) keys.push_back(1000 + (rng() % (prefix / 2 + 10)) * spread);
      keys.push_back(0);  // below everything
      ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys, keys.size(), spread + prefix))
          << spread << " " << prefix;
      std::vector<uint32_t> keys32(keys.begin(), keys.end());
      ASSERT_NO_FATAL_FAILURE(ExpectInternedAndRanked(keys32, 0, spread * prefix))
          << spread << " " << prefix;
    }
  }
}

TEST(RangeBitmapKeyInternerTest, KeysBuiltToCollideUnderTheUnseededMixAreRankedToo) {
  // Keys whose unseeded mix is small would all land in the table's first slots; the table's
  // seed spreads them. They must be interned and ranked like any others.
  for (uint64_t i : {uint64_t{1}, uint64_t{12345}, ~uint64_t{0}}) {
    ASSERT_EQ(hash::Mix64(testing::UnMix64(i)), i);
  }
  std::mt19937_64 rng(13);
  std::vector<uint64_t> keys(200000);
  for (uint64_t& k : keys) k = testing::UnMix64(rng() % 20000 + 1);
  ExpectInternedAndRanked(keys, keys.size(), 3);
}

TEST(RangeBitmapKeyInternerTest, EmptyInternerRanksNothing) {
  OrderedKeyInterner<uint64_t> interner;
  auto ranked = interner.TakeRanked();
  EXPECT_TRUE(ranked.sorted.empty());
  EXPECT_TRUE(ranked.rank.empty());
}

TEST(RangeBitmapPackedRowIdsTest, RoundTripsAtTheBlocksOwnWidth) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    const uint32_t rows = round % 5 == 0 ? 65536 : 1 + static_cast<uint32_t>(rng() % 65536);
    const uint32_t base = round % 4 == 0 ? 0 : static_cast<uint32_t>(rng() % 2000000000u);
    const int spread_bits = round % 33;  // 0: every id the same; 32 only with base 0
    const uint64_t spread = spread_bits == 0 ? 0 : (uint64_t{1} << spread_bits) - 1;
    std::vector<uint32_t> ids(rows);
    for (uint32_t& id : ids) {
      const uint64_t v = spread == 0 ? 0 : rng() % (spread + 1);
      id = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{base} + v, 0xFFFFFFFFu));
    }
    const uint32_t low = *std::min_element(ids.begin(), ids.end());
    const uint32_t high = *std::max_element(ids.begin(), ids.end());
    const PackedRowIds packed(ids.data(), rows);
    EXPECT_EQ(packed.rows(), rows);
    EXPECT_EQ(packed.width(), high == low ? 0 : 32 - __builtin_clz(high - low)) << round;
    EXPECT_LE(packed.bytes(), (size_t{rows} * packed.width() + 7) / 8 + 8);
    std::vector<uint32_t> out(rows + 1, 0xABCDABCD);
    packed.Unpack(out.data());
    ASSERT_TRUE(std::equal(ids.begin(), ids.end(), out.begin())) << "round " << round;
    EXPECT_EQ(out[rows], 0xABCDABCDu) << "wrote past the rows";
  }
}

// Blocks whose ids change at few rows keep runs (sorted, clustered); a block with more runs
// than packing would take bytes stays packed. Both unpack, and map through a rank table, to
// the ids written.
TEST(RangeBitmapPackedRowIdsTest, FewRunsAreKeptAsRuns) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 120; ++round) {
    const uint32_t rows = round % 3 == 0 ? 65536 : 2 + static_cast<uint32_t>(rng() % 65535);
    const uint32_t stretch = 1 + static_cast<uint32_t>(rng() % (round % 2 == 0 ? 20 : 3000));
    std::vector<uint32_t> ids(rows);
    uint32_t id = static_cast<uint32_t>(rng() % 1000);
    for (uint32_t r = 0; r < rows; ++r) {
      if (r % stretch == 0) id = static_cast<uint32_t>(rng() % 1000);  // may repeat the last
      ids[r] = id;
    }
    uint32_t runs = 1;
    for (uint32_t r = 1; r < rows; ++r) runs += ids[r] != ids[r - 1] ? 1 : 0;
    const PackedRowIds packed(ids.data(), rows);
    const uint32_t low = *std::min_element(ids.begin(), ids.end());
    const uint32_t high = *std::max_element(ids.begin(), ids.end());
    const size_t packed_bytes =
        high == low ? 0 : (size_t{rows} * (32 - __builtin_clz(high - low)) + 7) / 8 + 8;
    if (high == low) {
      EXPECT_EQ(packed.runs(), 0u);
    } else if (size_t{runs} * 8 <= packed_bytes) {
      EXPECT_EQ(packed.runs(), runs) << "round " << round;
      EXPECT_EQ(packed.bytes(), size_t{runs} * 8);
    } else {
      EXPECT_EQ(packed.runs(), 0u) << "round " << round;
      EXPECT_EQ(packed.bytes(), packed_bytes);
    }
    std::vector<uint32_t> out(rows + 1, 0xABCDABCD);
    packed.Unpack(out.data());
    ASSERT_TRUE(std::equal(ids.begin(), ids.end(), out.begin())) << "round " << round;
    EXPECT_EQ(out[rows], 0xABCDABCDu) << "wrote past the rows";
    std::vector<uint32_t> map(1000);
    for (uint32_t& m : map) m = static_cast<uint32_t>(rng());
    packed.Unpack(out.data(), map.data());
    for (uint32_t r = 0; r < rows; ++r) ASSERT_EQ(out[r], map[ids[r]]) << "row " << r;
    EXPECT_EQ(out[rows], 0xABCDABCDu);

    // The same block handed over as its runs (as the writer collects a sorted block) is kept
    // in the same form, and its runs are the rows' ids.
    std::vector<uint32_t> ends, run_ids;
    for (uint32_t r = 1; r <= rows; ++r) {
      if (r < rows && ids[r] == ids[r - 1]) continue;
      ends.push_back(r);
      run_ids.push_back(ids[r - 1]);
    }
    const PackedRowIds from_runs(ends.data(), run_ids.data(), static_cast<uint32_t>(ends.size()));
    EXPECT_EQ(from_runs.rows(), rows);
    EXPECT_EQ(from_runs.width(), packed.width());
    EXPECT_EQ(from_runs.runs(), packed.runs()) << "round " << round;
    EXPECT_EQ(from_runs.bytes(), packed.bytes());
    from_runs.Unpack(out.data());
    ASSERT_TRUE(std::equal(ids.begin(), ids.end(), out.begin())) << "round " << round;
    if (from_runs.has_runs()) {
      uint32_t next = 0;
      from_runs.ForEachRun([&](uint32_t begin, uint32_t end, uint32_t run_id) {
        EXPECT_EQ(begin, next);
        for (uint32_t r = begin; r < end; ++r) ASSERT_EQ(ids[r], run_id) << "row " << r;
        next = end;
      });
      EXPECT_EQ(next, rows);
    }
  }
}

// A block added as runs of codes encodes the same bytes as its codes row by row, NULL rows
// (no bit in any slice) included.
TEST(RangeBitmapCodeBsiTest, RunsEncodeAsTheirCodes) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 40; ++round) {
    const int64_t cardinality = 1 + static_cast<int64_t>(rng() % (round % 2 == 0 ? 5 : 3000));
    const size_t blocks = 1 + rng() % 3;
    const uint32_t last_rows = 1 + static_cast<uint32_t>(rng() % 65536);
    CodeBsi by_rows(cardinality, blocks);
    CodeBsi by_runs(cardinality, blocks);
    // Without NULL rows, also the runs alone (no validity words): the interval path.
    const bool all_valid = round % 3 != 0;
    CodeBsi by_valid_runs(cardinality, blocks);
    for (size_t b = 0; b < blocks; ++b) {
      const uint32_t rows = b + 1 == blocks ? last_rows : 65536;
      std::vector<uint32_t> codes(65536, 0), ends, run_codes;
      std::vector<uint64_t> validity(roaring::kBlockWords, 0);
      const uint32_t stretch = 1 + static_cast<uint32_t>(rng() % 5000);
      for (uint32_t r = 0; r < rows; ++r) {
        if (r % stretch == 0) {
          if (r > 0) ends.push_back(r);
          run_codes.push_back(static_cast<uint32_t>(rng() % static_cast<uint64_t>(cardinality)));
        }
        codes[r] = run_codes.back();
        if (round % 3 != 0 || rng() % 10 != 0) validity[r / 64] |= uint64_t{1} << (r % 64);
      }
      ends.push_back(rows);
      by_rows.AddBlock(static_cast<uint16_t>(b), validity.data(), codes.data());
      by_runs.AddRuns(static_cast<uint16_t>(b), validity.data(), ends.data(), run_codes.data(),
                      ends.size());
      if (all_valid) {
        by_valid_runs.AddRuns(static_cast<uint16_t>(b), nullptr, ends.data(), run_codes.data(),
                              ends.size());
      }
    }
    ASSERT_EQ(by_runs.size(), by_rows.size()) << "round " << round;
    std::vector<uint8_t> expected(by_rows.size()), got(by_runs.size());
    by_rows.WriteTo(expected.data());
    by_runs.WriteTo(got.data());
    EXPECT_TRUE(got == expected) << "round " << round;
    if (all_valid) {
      ASSERT_EQ(by_valid_runs.size(), expected.size()) << "round " << round;
      std::vector<uint8_t> from_intervals(by_valid_runs.size());
      by_valid_runs.WriteTo(from_intervals.data());
      EXPECT_TRUE(from_intervals == expected) << "round " << round;
    }
  }
}

// Blocks that all keep runs and have no NULL row are written from the runs straight into the
// output (RunCodeBsi): the same bytes as CodeBsi encoding each block, with ids mapped to codes
// by a rank or taken as codes.
TEST(RangeBitmapCodeBsiTest, RunBlocksWriteAsEncodedBlocks) {
  std::mt19937_64 rng(2029);
  int written = 0;
  for (int round = 0; round < 60; ++round) {
    const uint32_t keys = 1 + static_cast<uint32_t>(rng() % (round % 3 == 0 ? 3 : 5000));
    const size_t block_count = 1 + rng() % 4;
    std::vector<uint32_t> rank;  // id -> code; empty in odd rounds: ids are codes
    if (round % 2 == 0) {
      for (uint32_t i = 0; i < keys; ++i) rank.push_back(i);
      std::shuffle(rank.begin(), rank.end(), rng);
    }
    std::vector<PackedRowIds> blocks;
    CodeBsi encoded(keys, block_count);
    for (size_t b = 0; b < block_count; ++b) {
      const uint32_t rows =
          b + 1 == block_count ? 1 + static_cast<uint32_t>(rng() % 65536) : 65536;
      const uint32_t stretch = 1 + static_cast<uint32_t>(rng() % 9000);
      std::vector<uint32_t> ends, ids;
      for (uint32_t at = 0; at < rows;) {
        const uint32_t end = std::min(rows, at + 1 + static_cast<uint32_t>(rng() % stretch));
        uint32_t id = static_cast<uint32_t>(rng() % keys);
        if (!ids.empty() && id == ids.back()) id = (id + 1) % keys;
        if (!ids.empty() && id == ids.back()) {  // one key: the run goes on
          ends.back() = end;
        } else {
          ends.push_back(end);
          ids.push_back(id);
        }
        at = end;
      }
      blocks.emplace_back(ends.data(), ids.data(), static_cast<uint32_t>(ends.size()));
      std::vector<uint32_t> codes;
      for (uint32_t id : ids) codes.push_back(rank.empty() ? id : rank[id]);
      std::vector<uint64_t> validity(roaring::kBlockWords, 0);
      roaring::SetBitRange(validity.data(), 0, rows);
      encoded.AddRuns(static_cast<uint16_t>(b), validity.data(), ends.data(), codes.data(),
                      ends.size());
    }
    if (!std::all_of(blocks.begin(), blocks.end(),
                     [](const PackedRowIds& block) { return block.has_runs(); })) {
      continue;  // packing was smaller: not a block of runs
    }
    ++written;
    RunCodeBsi from_runs(keys, &blocks, rank.empty() ? nullptr : rank.data());
    ASSERT_EQ(from_runs.size(), encoded.size()) << "round " << round;
    std::vector<uint8_t> expected(encoded.size()), got(from_runs.size());
    encoded.WriteTo(expected.data());
    from_runs.WriteTo(got.data());
    EXPECT_TRUE(got == expected) << "round " << round;
  }
  EXPECT_GT(written, 30);
}

TEST(RangeBitmapStringRanksTest, StringsSortAsUnsignedBytes) {
  StringKeyTable table;
  std::vector<std::string> inputs = {"b", "", "\x80", "a", "b", "ab", "\x7f", "a\x00"s, "a"};
  std::vector<uint32_t> ids;
  for (const std::string& s : inputs) ids.push_back(table.Intern(s));
  EXPECT_EQ(table.size(), 7u);
  StringRanks ranks = RankStrings(table);
  std::vector<std::string> sorted;
  for (uint32_t unit : ranks.sorted) sorted.emplace_back(table.At(unit));
  EXPECT_EQ(sorted, std::vector<std::string>({"", "a", "a\x00"s, "ab", "b", "\x7f", "\x80"}));
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(sorted[ranks.rank[ids[i]]], inputs[i]);
}

// Strings interned in ascending order need no table and come out ranked by id; the first one
// out of order moves the table to lookups, and the ids given so far stay valid.
TEST(RangeBitmapStringRanksTest, AscendingStringsThenOutOfOrder) {
  for (const bool break_order : {false, true}) {
    StringKeyTable table;
    std::vector<std::string> inputs = {"", "", "a", "a", "a\x00"s, "ab", "ab", "b", "\x7f", "\x80"};
    if (break_order) inputs.insert(inputs.end(), {"a", "aa", "\x80", "", "c", "aa"});
    std::vector<uint32_t> ids;
    std::vector<std::string> first_seen;
    for (const std::string& s : inputs) {
      uint32_t id = 0;
      if (!table.ascending() || !table.InternAscending(s, &id)) id = table.Intern(s);
      ids.push_back(id);
      if (id == first_seen.size()) first_seen.push_back(s);
      ASSERT_LT(id, first_seen.size());
      ASSERT_EQ(first_seen[id], s) << "ids are dense in order of first occurrence";
    }
    EXPECT_EQ(table.ascending(), !break_order);
    EXPECT_EQ(table.size(), first_seen.size());
    StringRanks ranks = RankStrings(table);
    std::vector<std::string> sorted;
    for (uint32_t unit : ranks.sorted) sorted.emplace_back(table.At(unit));
    std::vector<std::string> expected = first_seen;
    std::sort(expected.begin(), expected.end(), [](const std::string& a, const std::string& b) {
      return java::BinaryStringCompareTo(a, b) < 0;
    });
    EXPECT_EQ(sorted, expected);
    EXPECT_EQ(ranks.rank.empty(), !break_order);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const uint32_t code = ranks.rank.empty() ? ids[i] : ranks.rank[ids[i]];
      EXPECT_EQ(sorted[code], inputs[i]) << "row " << i;
    }
  }
}

}  // namespace
}  // namespace pyfileindex::index::range_bitmap
