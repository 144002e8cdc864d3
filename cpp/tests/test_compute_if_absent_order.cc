// ComputeIfAbsentOrder (the order worked out at the end) against JavaHashMapOrder replaying
// every call, on key sets built to reach the treeify threshold, resize often and collide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "index/bitmap/key_dictionary.h"
#include "java/compute_if_absent_order.h"
#include "java/hash_codes.h"
#include "java/java_hash_map.h"

namespace pyfileindex::java {
namespace {

using Mode = JavaHashMapOrder::Mode;

// One computeIfAbsent call sequence: the distinct keys' hash codes by id, and for each call
// either a new key (-1) or a hit on key `id`.
struct Calls {
  std::vector<int32_t> hash_codes;  // by key id
  std::vector<int64_t> hits_before;  // per key id: hits between it and the next key
  int64_t trailing_hits = 0;
};

// The replay with every call, hits included, as Paimon's writer makes them.
std::vector<uint32_t> ReplayEveryCall(const Calls& calls,
                                      const JavaHashMapOrder::KeyCompare& compare,
                                      JavaHashMapOrder::Stats* stats = nullptr) {
  JavaHashMapOrder map(Mode::kComputeIfAbsent, compare);
  for (size_t id = 0; id < calls.hash_codes.size(); ++id) {
    map.InsertNew(calls.hash_codes[id]);
    const int64_t hits =
        id + 1 < calls.hash_codes.size() ? calls.hits_before[id] : calls.trailing_hits;
    for (int64_t h = 0; h < hits; ++h) map.TouchExisting();
  }
  if (stats != nullptr) *stats = map.stats();
  return map.IterationOrder();
}

// The same calls through ComputeIfAbsentOrder, hits reported only while they matter (as the
// key dictionaries do).
std::vector<uint32_t> OrderAtEnd(const Calls& calls,
                                 const JavaHashMapOrder::KeyCompare& compare) {
  ComputeIfAbsentOrder order;
  for (size_t id = 0; id < calls.hash_codes.size(); ++id) {
    order.InsertNew(calls.hash_codes[id]);
    const int64_t hits =
        id + 1 < calls.hash_codes.size() ? calls.hits_before[id] : calls.trailing_hits;
    for (int64_t h = 0; h < hits; ++h) {
      if (order.HitMatters()) order.NoteHit();
    }
  }
  return order.IterationOrder(compare);
}

Calls WithHits(std::vector<int32_t> hash_codes, uint64_t seed, int max_hits) {
  Calls calls;
  calls.hash_codes = std::move(hash_codes);
  std::mt19937_64 rng(seed);
  for (size_t id = 0; id < calls.hash_codes.size(); ++id) {
    calls.hits_before.push_back(max_hits == 0 ? 0 : static_cast<int64_t>(rng() % (max_hits + 1)));
  }
  calls.trailing_hits = max_hits == 0 ? 0 : static_cast<int64_t>(rng() % 2);
  return calls;
}

// Keys compared by id: any fixed total order works for tree bins of distinct keys.
int CompareIds(uint32_t a, uint32_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

// How the order at the end was worked out.
enum class Way {
  kChainsOnly,      // a counting sort: no bin ever filled
  kClassesReplayed,  // some hash classes replayed on their own, not all keys
  kWholeReplay,     // a bin filled on a small table: the whole map replayed
  kAny,
};

// Checks the order at the end equals the replay of every call, and that it was worked out in
// the expected way.
void ExpectSameOrder(const Calls& calls, Way expected,
                     const JavaHashMapOrder::KeyCompare& compare = CompareIds) {
  JavaHashMapOrder::Stats stats;
  const std::vector<uint32_t> replayed = ReplayEveryCall(calls, compare, &stats);
  EXPECT_EQ(OrderAtEnd(calls, compare), replayed);
  const bool last_hit = calls.trailing_hits > 0;
  const size_t n = calls.hash_codes.size();
  size_t keys_replayed = 0;
  const std::optional<std::vector<uint32_t>> class_wise = ClassWiseComputeIfAbsentOrder(
      calls.hash_codes.data(), n, last_hit, compare, memory::Scratch(), &keys_replayed);
  // Working arrays from scratch memory holding garbage, with room for some or all of them:
  // the same answer.
  for (size_t room : {n / 2 + 16, 16 * n + 64}) {
    std::vector<uint8_t> garbage(room, 0xAB);
    EXPECT_EQ(ClassWiseComputeIfAbsentOrder(calls.hash_codes.data(), n, last_hit, compare,
                                            memory::Scratch(garbage.data(), room)),
              class_wise);
  }
  // The whole map is replayed exactly when treeifyBin resized a small table; classes are
  // replayed exactly when some bin became a tree.
  EXPECT_EQ(class_wise.has_value(), stats.treeify_resizes == 0);
  if (class_wise) {
    EXPECT_EQ(*class_wise, replayed);
    EXPECT_EQ(keys_replayed > 0, stats.treeifications > 0);
    EXPECT_LE(keys_replayed, n);
  }
  const Way way = !class_wise ? Way::kWholeReplay
                  : keys_replayed == 0 ? Way::kChainsOnly
                                       : Way::kClassesReplayed;
  if (expected != Way::kAny) {
    EXPECT_EQ(static_cast<int>(way), static_cast<int>(expected));
  }
  EXPECT_EQ(ReplayedComputeIfAbsentOrder(calls.hash_codes.data(), n, last_hit, compare),
            replayed);
}

TEST(ComputeIfAbsentOrder, PastThresholdAtMatchesTheReplaysPendingResize) {
  // Sizes where a pending resize is possible, with and without treeify-driven resizes.
  for (int32_t stride : {1, 64, 1 << 20}) {
    JavaHashMapOrder map(Mode::kComputeIfAbsent, CompareIds);
    for (int32_t k = 0; k < 5000; ++k) {
      // Java's int product, wrapping (a signed overflow in C++).
      map.InsertNew(static_cast<int32_t>(static_cast<uint32_t>(k) * static_cast<uint32_t>(stride)));
      if (map.ResizePending()) {
        EXPECT_TRUE(ComputeIfAbsentOrder::PastThresholdAt(map.size())) << map.size();
      }
    }
  }
  EXPECT_TRUE(ComputeIfAbsentOrder::PastThresholdAt(13));
  EXPECT_TRUE(ComputeIfAbsentOrder::PastThresholdAt(25));
  EXPECT_TRUE(ComputeIfAbsentOrder::PastThresholdAt(12 * 1024 + 1));
  EXPECT_FALSE(ComputeIfAbsentOrder::PastThresholdAt(12));
  EXPECT_FALSE(ComputeIfAbsentOrder::PastThresholdAt(37));  // 12 * 3 + 1
  EXPECT_FALSE(ComputeIfAbsentOrder::PastThresholdAt(0));
}

TEST(ComputeIfAbsentOrder, EmptyAndTiny) {
  ExpectSameOrder(WithHits({}, 1, 0), Way::kChainsOnly);
  ExpectSameOrder(WithHits({7}, 1, 2), Way::kChainsOnly);
  ExpectSameOrder(WithHits({1, 17, 33}, 1, 0), Way::kChainsOnly);  // one bin, newest first
}

TEST(ComputeIfAbsentOrder, RandomIntsIncludingNegativesAtEverySize) {
  std::mt19937_64 rng(46);
  for (size_t n : {12u, 13u, 14u, 24u, 25u, 26u, 48u, 49u, 97u, 100u, 385u, 1000u, 3073u, 6000u}) {
    for (int max_hits : {0, 1, 3}) {
      std::vector<int32_t> codes;
      for (size_t i = 0; i < n; ++i) {
        codes.push_back(IntegerHashCode(static_cast<int32_t>(rng())));  // any sign
      }
      SCOPED_TRACE(std::to_string(n) + " keys, hits " + std::to_string(max_hits));
      ExpectSameOrder(WithHits(codes, n + max_hits, max_hits), Way::kAny);
    }
  }
}

TEST(ComputeIfAbsentOrder, TrailingHitAtEachThresholdDecidesTheFinalTable) {
  for (size_t n : {13u, 25u, 49u, 97u, 193u, 385u}) {
    std::vector<int32_t> codes;
    for (size_t i = 0; i < n; ++i) codes.push_back(static_cast<int32_t>(i * 7 - 300));
    Calls calls = WithHits(codes, 3, 0);
    for (int64_t trailing : {0, 1, 5}) {
      calls.trailing_hits = trailing;
      SCOPED_TRACE(std::to_string(n) + " keys, trailing hits " + std::to_string(trailing));
      ExpectSameOrder(calls, Way::kChainsOnly);
    }
  }
}

TEST(ComputeIfAbsentOrder, BinsOfSevenStayChainsBinsOfEightDoNot) {
  // Keys 64 apart share a bucket at every capacity up to 64.
  for (size_t per_bin : {6u, 7u, 8u, 9u, 20u}) {
    std::vector<int32_t> codes;
    for (size_t i = 0; i < per_bin; ++i) codes.push_back(static_cast<int32_t>(5 + 64 * i));
    for (int32_t k = 0; k < 3; ++k) codes.push_back(k);  // elsewhere
    SCOPED_TRACE(std::to_string(per_bin) + " keys in one bin");
    ExpectSameOrder(WithHits(codes, per_bin, 1),
                    per_bin <= 7 ? Way::kChainsOnly : Way::kWholeReplay);
  }
}

TEST(ComputeIfAbsentOrder, BinFullOnlyAtAnEarlierTableSize) {
  // Eight keys share a bucket of the 16-slot table but spread out once it has 32 slots: the
  // final table shows no full bin, yet the map resized early (treeifyBin on a small table),
  // which the order at the end must notice.
  std::vector<int32_t> codes;
  for (int32_t i = 0; i < 8; ++i) codes.push_back(3 + 16 * i);
  for (int32_t i = 0; i < 40; ++i) codes.push_back(1000 + 3 * i);
  JavaHashMapOrder::Stats stats;
  ReplayEveryCall(WithHits(codes, 9, 0), CompareIds, &stats);
  EXPECT_GT(stats.treeify_resizes, 0u);
  ExpectSameOrder(WithHits(codes, 9, 0), Way::kWholeReplay);
  ExpectSameOrder(WithHits(codes, 9, 2), Way::kWholeReplay);
}

TEST(ComputeIfAbsentOrder, ManyCollidingHashesTreeifyAndSplit) {
  // Spread hashes equal modulo 2^k for growing k, equal hash codes, and keys whose spread
  // hashes differ only above bit 16: trees form, split, untreeify; the replay decides.
  std::mt19937_64 rng(8);
  std::vector<std::vector<int32_t>> sets(4);
  for (int32_t i = 0; i < 3000; ++i) sets[0].push_back(static_cast<int32_t>(i * 1024 + 5));
  for (int32_t i = 0; i < 500; ++i) sets[1].push_back(static_cast<int32_t>(rng() % 40) * 64);
  for (int32_t i = 0; i < 2000; ++i) {
    sets[2].push_back(static_cast<int32_t>(static_cast<uint32_t>(i) << 20));
  }
  for (int32_t i = 0; i < 2000; ++i) {
    // Half the keys colliding in low bits (negative too), half random.
    sets[3].push_back(i % 2 == 0 ? -static_cast<int32_t>((i / 2) << 12)
                                 : static_cast<int32_t>(rng()));
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    for (int max_hits : {0, 2}) {
      SCOPED_TRACE("set " + std::to_string(s) + ", hits " + std::to_string(max_hits));
      ExpectSameOrder(WithHits(sets[s], s + 100, max_hits), s < 3 ? Way::kWholeReplay : Way::kAny);
    }
  }
}

// Integer hash codes whose spread hashes share their low 16 bits (`low`) and differ above as
// `high` does: one bucket of every table up to 2^16 slots, split by `high`'s bits after that.
int32_t SpreadLowBits(uint32_t low, uint32_t high) {
  return static_cast<int32_t>((high << 16) | ((low ^ high) & 0xFFFFu));
}

TEST(ComputeIfAbsentOrder, OnlyTheClassesOfFilledBinsAreReplayed) {
  // Random keys, among them groups that fill one bin of a large table: ten keys sharing a
  // bucket up to 2^16 slots (arriving while the table has 2^16, then split 7/3 and 5/2 by
  // the next two resizes: a tree kept, trees untreeified), nine keys with one hash code (a
  // tree ordered by compareTo alone), and eight keys filling a bin of the final 2^18 slots.
  std::mt19937_64 rng(4601);
  std::vector<int32_t> codes;
  for (int i = 0; i < 100000; ++i) codes.push_back(static_cast<int32_t>(rng()));
  const uint32_t high_bits[] = {0, 2, 4, 6, 8, 10, 12, 1, 3, 5};  // bit 0: 7 even, 3 odd
  for (int i = 0; i < 10; ++i) {
    codes.insert(codes.begin() + 30000 + 997 * i, SpreadLowBits(0x1234, high_bits[i]));
  }
  for (int i = 0; i < 9; ++i) codes.insert(codes.begin() + 60000 + 11 * i, 0x5A5A5A5A);
  for (uint32_t i = 0; i < 8; ++i) {  // spread bits 16 and 17: 01, then any
    codes.insert(codes.begin() + 99000 + 7 * i, SpreadLowBits(0x2222, 1 | (i << 2)));
  }
  for (int max_hits : {0, 2}) {
    SCOPED_TRACE("hits " + std::to_string(max_hits));
    const Calls calls = WithHits(codes, 31 + max_hits, max_hits);
    ExpectSameOrder(calls, Way::kClassesReplayed);
    size_t keys_replayed = 0;
    ASSERT_TRUE(ClassWiseComputeIfAbsentOrder(calls.hash_codes.data(), codes.size(),
                                              calls.trailing_hits > 0, CompareIds,
                                              memory::Scratch(), &keys_replayed));
    EXPECT_GE(keys_replayed, 27u);  // the three groups, and random keys of their classes
    EXPECT_LT(keys_replayed, codes.size() / 100);
    JavaHashMapOrder::Stats stats;
    ReplayEveryCall(calls, CompareIds, &stats);
    EXPECT_GE(stats.treeifications, 3u);
    EXPECT_GT(stats.tree_splits, 0u);
    EXPECT_GT(stats.untreeifies, 0u);
  }
}

TEST(ComputeIfAbsentOrder, RandomFillsAtEveryTableSize) {
  // Random keys with a share drawn from a few low-bit patterns (bins that fill at some table
  // size and split later) and from a few repeated hash codes.
  std::mt19937_64 rng(4603);
  int classes_replayed = 0;
  for (int round = 0; round < 60; ++round) {
    const size_t n = 100 + rng() % 30000;
    const uint32_t lows[] = {static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())};
    const int32_t repeated = static_cast<int32_t>(rng());
    const int share = 1 + static_cast<int>(rng() % 40);  // per mille of colliding keys
    std::vector<int32_t> codes;
    for (size_t i = 0; i < n; ++i) {
      const int pick = static_cast<int>(rng() % 1000);
      if (pick < share) {
        const uint32_t high = static_cast<uint32_t>(rng() % (1u << (rng() % 16)));
        codes.push_back(SpreadLowBits(lows[pick % 2], high));
      } else if (pick < share + 2) {
        codes.push_back(repeated);
      } else {
        codes.push_back(static_cast<int32_t>(rng()));
      }
    }
    SCOPED_TRACE("round " + std::to_string(round) + ", " + std::to_string(n) + " keys");
    const Calls calls = WithHits(codes, round, static_cast<int>(rng() % 3));
    ExpectSameOrder(calls, Way::kAny);
    size_t keys_replayed = 0;
    const bool whole = !ClassWiseComputeIfAbsentOrder(codes.data(), n, calls.trailing_hits > 0,
                                                      CompareIds, memory::Scratch(),
                                                      &keys_replayed);
    classes_replayed += !whole && keys_replayed > 0 && keys_replayed < n;
  }
  EXPECT_GE(classes_replayed, 50);  // the rounds exercise the class-wise replay
}

TEST(ComputeIfAbsentOrder, NumericDictionaryOfSpreadOutIntsReplaysOnlyItsTrees) {
  // Distinct ints 37 apart, in random order: at this scale some bins fill by chance.
  std::mt19937_64 rng(4602);
  std::vector<int32_t> keys;
  for (int32_t k = 0; k < 300000; ++k) keys.push_back(1000 + 37 * k);
  std::shuffle(keys.begin(), keys.end(), rng);
  std::vector<int32_t> codes;
  for (int32_t k : keys) codes.push_back(IntegerHashCode(k));
  auto compare = [&keys](uint32_t a, uint32_t b) {
    return keys[a] < keys[b] ? -1 : (keys[a] > keys[b] ? 1 : 0);
  };
  ExpectSameOrder(WithHits(codes, 4602, 1), Way::kAny, compare);
}

TEST(ComputeIfAbsentOrder, StringsWithEqualHashCodes) {
  // Java String hash codes: "Aa" and "BB" are equal, so are all their concatenations.
  std::vector<std::string> keys;
  for (int bits = 0; bits < 256; ++bits) {
    std::string s;
    for (int b = 0; b < 8; ++b) s += (bits >> b) & 1 ? "Aa" : "BB";
    keys.push_back(s);
  }
  for (int i = 0; i < 300; ++i) keys.push_back("key-" + std::to_string(i));
  std::vector<int32_t> codes;
  for (const std::string& k : keys) codes.push_back(StringHashCode(k).ValueOrDie());
  const Calls calls = WithHits(codes, 5, 1);
  auto compare = [&keys](uint32_t a, uint32_t b) { return StringCompareTo(keys[a], keys[b]); };
  const std::vector<uint32_t> replayed = ReplayEveryCall(calls, compare);
  EXPECT_EQ(OrderAtEnd(calls, compare), replayed);
  EXPECT_FALSE(
      ClassWiseComputeIfAbsentOrder(codes.data(), codes.size(), true, compare).has_value());

  // Distinct BinaryString hash codes at dictionary scale: the chain-only order.
  std::vector<int32_t> binary_codes;
  for (int i = 0; i < 20000; ++i) {
    binary_codes.push_back(BinaryStringHashCode("v" + std::to_string(i * 7919)));
  }
  ExpectSameOrder(WithHits(binary_codes, 6, 1), Way::kAny);
}

// The key dictionaries end to end: their JavaOrder against a replay of every row's call, on
// keys whose bins treeify (the dictionaries' compareTo then orders the trees) and on keys
// that never do, with repeats everywhere.
template <typename Dictionary, typename Key, typename HashOf, typename Intern>
void ExpectDictionaryOrder(const std::vector<Key>& rows, HashOf hash_of, Intern intern,
                           Dictionary* dictionary, const JavaHashMapOrder::KeyCompare& compare,
                           std::vector<Key>* keys, bool expect_trees) {
  JavaHashMapOrder replay(Mode::kComputeIfAbsent, compare);
  for (const Key& row : rows) {
    const uint32_t id = intern(dictionary, row);
    if (id == keys->size()) {
      keys->push_back(row);
      replay.InsertNew(hash_of(row));
    } else {
      ASSERT_LT(id, keys->size());
      ASSERT_EQ((*keys)[id], row);
      replay.TouchExisting();
    }
  }
  EXPECT_EQ(dictionary->JavaOrder(), replay.IterationOrder());
  const JavaHashMapOrder::Stats& stats = replay.stats();
  EXPECT_EQ(stats.treeifications > 0, expect_trees);
}

TEST(ComputeIfAbsentOrder, NumericDictionaryMatchesTheReplayWithAndWithoutTrees) {
  std::mt19937_64 rng(461);
  std::vector<std::vector<int32_t>> row_sets(3);
  for (int i = 0; i < 4000; ++i) {  // bucket 0 of every table up to 2^20 slots: trees
    row_sets[0].push_back(static_cast<int32_t>((rng() % 300) << 20) * (rng() % 2 ? 1 : -1));
  }
  for (int i = 0; i < 4000; ++i) row_sets[1].push_back(static_cast<int32_t>(rng()));  // chains
  for (int i = 0; i < 4000; ++i) {  // 64 apart: one bin of the 64-slot table, trees there
    row_sets[2].push_back(static_cast<int32_t>(rng() % 500) * 64 - 9000);
  }
  for (size_t s = 0; s < row_sets.size(); ++s) {
    SCOPED_TRACE("row set " + std::to_string(s));
    index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kInt32);
    std::vector<int32_t> keys;
    ExpectDictionaryOrder(
        row_sets[s], [](int32_t v) { return IntegerHashCode(v); },
        [](index::bitmap::NumericKeyDictionary* d, int32_t v) {
          return d->Intern(static_cast<uint64_t>(static_cast<int64_t>(v)));
        },
        &dictionary,
        [&keys](uint32_t a, uint32_t b) {  // Integer.compareTo
          return keys[a] < keys[b] ? -1 : (keys[a] > keys[b] ? 1 : 0);
        },
        &keys, /*expect_trees=*/s != 1);
  }
}

TEST(ComputeIfAbsentOrder, StringDictionaryMatchesTheReplayWhenBinsFill) {
  // Strings picked for their BinaryString hash: the first ones share a bucket of the 16- and
  // 64-slot tables (a treeify-driven resize, then a tree), then any strings.
  std::vector<std::string> colliding;
  for (int i = 0; colliding.size() < 40; ++i) {
    const std::string s = "s" + std::to_string(i);
    if ((JavaHashMapOrder::Spread(BinaryStringHashCode(s)) & 63) == 5) colliding.push_back(s);
  }
  std::mt19937_64 rng(462);
  std::vector<std::string> rows;
  for (int i = 0; i < 3000; ++i) {
    rows.push_back(i < 400 ? colliding[rng() % colliding.size()]
                           : "t" + std::to_string(rng() % 900));
  }
  index::bitmap::StringKeyDictionary dictionary(/*expect_ascending=*/false);
  std::vector<std::string> keys;
  ExpectDictionaryOrder(
      rows, [](const std::string& s) { return BinaryStringHashCode(s); },
      [](index::bitmap::StringKeyDictionary* d, const std::string& s) { return d->Intern(s); },
      &dictionary,
      [&keys](uint32_t a, uint32_t b) { return BinaryStringCompareTo(keys[a], keys[b]); },
      &keys, /*expect_trees=*/true);
}

}  // namespace
}  // namespace pyfileindex::java
