// The writers' hash tables under keys built to collide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "hash/mix64.h"
#include "hash/table_bytes.h"
#include "hash/table_seed.h"
#include "index/bitmap/key_dictionary.h"
#include "java/hash_codes.h"
#include "java/java_hash_map.h"
#include "mix64_inverse.h"

namespace pyfileindex {
namespace {

TEST(TableBytesTest, SameBytesIsEqualityAtEveryLength) {
  // The compare and the hash read overlapping words: a difference in any byte, at any length
  // around the 4-, 8-, 16- and 32-byte steps, must be seen; equal bytes at different addresses
  // must match.
  std::mt19937_64 rng(3);
  for (size_t n = 0; n <= 40; ++n) {
    std::string a(n, '\0');
    for (char& c : a) c = static_cast<char>(rng());
    const std::string same = a;
    EXPECT_TRUE(hash::SameBytes(a, same)) << n;
    EXPECT_EQ(hash::TableBytesHash(7, a), hash::TableBytesHash(7, same)) << n;
    for (size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = static_cast<char>(b[at] ^ (1 << (rng() % 8)));
      EXPECT_FALSE(hash::SameBytes(a, b)) << n << " " << at;
      // Every byte reaches the hash too (a 64-bit hash colliding here would be a 2^-64 event).
      EXPECT_NE(hash::TableBytesHash(7, a), hash::TableBytesHash(7, b)) << n << " " << at;
    }
    EXPECT_NE(hash::TableBytesHash(7, a), hash::TableBytesHash(7, a + '\0')) << n;
    EXPECT_FALSE(hash::SameBytes(a, a + "x")) << n;
    if (n > 0) {
      EXPECT_FALSE(hash::SameBytes(a, a.substr(0, n - 1))) << n;
    }
  }
}

TEST(TableBytesTest, HashSpreadsStructuredKeysLikeRandomOnes) {
  // Keys that differ in a few bytes of one word (numbered names, counters in binary, at
  // every length from 2 to 40) must not cluster in a table's slots: 2^16 keys by the top 16
  // bits leave about 1/e of 2^16 slots empty when hashed at random, fewer when spread evenly,
  // more when clustered.
  auto empty_share = [](auto key_of) {
    std::vector<bool> used(1 << 16);
    for (uint32_t i = 0; i < (1u << 16); ++i) {
      used[hash::TableBytesHash(7, key_of(i)) >> 48] = true;
    }
    return static_cast<double>(std::count(used.begin(), used.end(), false)) / (1 << 16);
  };
  for (size_t length = 2; length <= 40; ++length) {
    SCOPED_TRACE(length);
    // "k0____", "k1____", ...: distinct from 6 bytes on ("k65535"); shorter ones number in
    // base 256 instead.
    const double numbered = empty_share([length](uint32_t i) {
      std::string key = length >= 6 ? "k" + std::to_string(i) : std::string(length, 'k');
      if (length < 6) std::memcpy(&key[length - 2], &i, 2);
      key.resize(length, '_');
      return key;
    });
    const double binary = empty_share([length](uint32_t i) {
      std::string key(length, '\0');
      std::memcpy(&key[length / 2 - length / 2 % 2], &i, std::min<size_t>(2, length));
      return key;
    });
    EXPECT_LT(numbered, 0.38);
    EXPECT_LT(binary, 0.38);
  }
}

TEST(TableSeedTest, OneSeedPerProcess) {
  EXPECT_EQ(hash::TableSeed(), hash::TableSeed());
}

TEST(HashTablesTest, BitmapDictionaryKeysWithSmallMixedBitsStayDistinct) {
  // Unseeded, every one of these keys would take slot 0 of the integer dictionary, and each
  // insert would walk the chain of all earlier keys (about 2 * 10^10 steps here).
  index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kInt64);
  const uint32_t count = 200000;
  std::vector<uint64_t> keys(count);
  for (uint32_t i = 0; i < count; ++i) keys[i] = testing::UnMix64(uint64_t{i} + 1);
  for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(dictionary.InternHashed(keys[i]), i);
  for (uint32_t i = 0; i < count; i += 997) ASSERT_EQ(dictionary.InternHashed(keys[i]), i);
  EXPECT_EQ(dictionary.size(), count);
}

TEST(HashTablesTest, BitmapDictionaryAscendingKeysNeedNoTableUntilOneIsBelow) {
  // Keys that ascend (a sorted column) are new exactly when above the last one: their ids are
  // the sorted order, and the first key below the last builds the table over the keys so
  // far. Each way must give the ids of first occurrence, Java's HashMap order (the HashMap
  // calls replayed the same) and the keys sorted by Java's compareTo.
  using index::bitmap::KeyKind;
  using index::bitmap::NumericSortKey;
  auto double_bits = [](double v) { return index::bitmap::DoubleBits(v); };
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* name;
    KeyKind kind;
    std::vector<uint64_t> rows;
    size_t ascending_rows;  // how many rows come before the first key below the last
  };
  std::vector<Case> cases;
  {
    std::vector<uint64_t> rows;
    for (int64_t k = -300; k < 700; ++k) rows.insert(rows.end(), 1 + (k & 3), static_cast<uint64_t>(k));
    const size_t ascending = rows.size();
    std::mt19937_64 rng(17);
    for (int r = 0; r < 3000; ++r) rows.push_back(static_cast<uint64_t>(int64_t(rng() % 1400) - 500));
    cases.push_back({"int", KeyKind::kInt32, rows, ascending});
  }
  {
    // Float.compare's order: -0.0 below 0.0, NaN above infinity.
    std::vector<uint64_t> rows;
    for (double v : {-inf, -2.5, -0.0, 0.0, 1e-300, 3.0, inf}) rows.insert(rows.end(), 2, double_bits(v));
    rows.push_back(double_bits(std::nan("")));
    const size_t ascending = rows.size();
    for (double v : {0.0, -0.0, 7.0, -inf}) rows.push_back(double_bits(v));
    cases.push_back({"double", KeyKind::kDouble, rows, ascending});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    index::bitmap::NumericKeyDictionary dictionary(c.kind);
    java::JavaHashMapOrder replay(java::JavaHashMapOrder::Mode::kComputeIfAbsent, nullptr);
    std::unordered_map<uint64_t, uint32_t> first_ids;
    for (size_t r = 0; r < c.rows.size(); ++r) {
      const uint64_t bits = c.rows[r];
      const auto [it, added] = first_ids.emplace(bits, static_cast<uint32_t>(first_ids.size()));
      if (added) {
        replay.InsertNew(index::bitmap::NumericJavaHash(c.kind, bits));
      } else {
        replay.TouchExisting();
      }
      ASSERT_EQ(dictionary.Intern(bits), it->second) << "row " << r;
      ASSERT_EQ(dictionary.IdsAreSorted(), r + 1 < c.ascending_rows + 1) << "row " << r;
      if (r + 1 == c.ascending_rows) {
        std::vector<uint32_t> in_order(first_ids.size());
        for (uint32_t id = 0; id < in_order.size(); ++id) in_order[id] = id;
        EXPECT_EQ(dictionary.SortedIds(), in_order);
      }
    }
    EXPECT_FALSE(dictionary.IdsAreSorted());
    EXPECT_EQ(dictionary.JavaOrder(), replay.IterationOrder());
    std::vector<uint32_t> sorted(first_ids.size());
    for (const auto& [bits, id] : first_ids) sorted[id] = id;
    std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
      return NumericSortKey(c.kind, dictionary.key(a).bits) <
             NumericSortKey(c.kind, dictionary.key(b).bits);
    });
    EXPECT_EQ(dictionary.SortedIds(), sorted);
  }
}

TEST(HashTablesTest, BitmapDictionaryWindowOpensLateOverTheKeysSoFar) {
  // The direct window over integer keys opens only after thousands of hashed lookups (a
  // sorted column never needs it): it must then hold every earlier key within it, so ids stay
  // those of first occurrence, for keys inside the window and far outside it alike.
  index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kInt32);
  std::mt19937_64 rng(11);
  std::vector<uint64_t> distinct;
  for (uint64_t k = 0; k < 600; ++k) distinct.push_back(100000 + 37 * k);  // in the window
  for (uint64_t k = 0; k < 100; ++k) distinct.push_back(uint64_t{1} << 40 | k);  // outside
  std::vector<uint32_t> first_id(distinct.size(), UINT32_MAX);
  uint32_t next = 0;
  for (int row = 0; row < 20000; ++row) {
    const size_t which = static_cast<size_t>(rng() % distinct.size());
    if (first_id[which] == UINT32_MAX) first_id[which] = next++;
    ASSERT_EQ(dictionary.Intern(distinct[which]), first_id[which]) << row;
  }
  EXPECT_EQ(dictionary.size(), next);
  EXPECT_GT(dictionary.MemoryBytes(), 0u);
}

TEST(HashTablesTest, BitmapDictionaryKnownIdsInWindowAgreeWithIntern) {
  // The bulk path over the direct window must give every key the id Intern gives it, stop at
  // new keys and keys outside the window, and leave a hit with the HashMap replay pending to
  // Intern: the Java iteration order (resizes happen on such calls) must come out the same.
  // Java's HashMap (capacity 16, doubling at 3/4 full) resizes at the 769th key; the key
  // that makes it 769 comes last, and only hits inside the window follow: the first of them
  // does the resize.
  std::mt19937_64 rng(5);
  std::vector<uint64_t> ks;
  for (int row = 0; row < 12000; ++row) ks.push_back(rng() % 700);  // the window opens
  for (uint64_t k = 700; k < 769; ++k) {
    ks.push_back(k);
    for (int hit = 0; hit < 3; ++hit) ks.push_back(rng() % k);
  }
  for (int row = 0; row < 2000; ++row) {
    const uint64_t k = rng() % 769;
    ks.push_back(k % 97 == 3 ? k + 1 : k);  // inside the window: none goes through Intern
  }
  std::vector<uint64_t> keys;
  for (uint64_t k : ks) keys.push_back(k % 97 == 3 ? (uint64_t{1} << 40) + k : 5000 + 3 * k);
  index::bitmap::NumericKeyDictionary one_by_one(index::bitmap::KeyKind::kInt32);
  index::bitmap::NumericKeyDictionary bulk(index::bitmap::KeyKind::kInt32);
  std::vector<uint32_t> expected(keys.size()), got(keys.size(), UINT32_MAX);
  for (size_t i = 0; i < keys.size(); ++i) expected[i] = one_by_one.Intern(keys[i]);
  const int64_t count = static_cast<int64_t>(keys.size());
  auto key_of = [&](int64_t j) { return keys[static_cast<size_t>(j)]; };
  auto take = [&](int64_t j, uint32_t id) { got[static_cast<size_t>(j)] = id; };
  int64_t bulk_rows = 0;
  for (int64_t j = 0; j < count;) {
    const int64_t stop = bulk.KnownIdsInWindow(j, count, key_of, take);
    ASSERT_GE(stop, j);
    bulk_rows += stop - j;
    j = stop;
    if (j < count) {
      got[static_cast<size_t>(j)] = bulk.Intern(keys[static_cast<size_t>(j)]);
      ++j;
    }
  }
  EXPECT_TRUE(bulk.HasWindow());
  EXPECT_GT(bulk_rows, count / 2);  // the window took most rows
  EXPECT_EQ(got, expected);
  EXPECT_EQ(bulk.size(), one_by_one.size());
  EXPECT_EQ(bulk.JavaOrder(), one_by_one.JavaOrder());
  EXPECT_EQ(bulk.SortedIds(), one_by_one.SortedIds());
}

TEST(HashTablesTest, BitmapDictionaryWindowCoversTheKeysSeenWhenItOpens) {
  // The direct window opens after 4,096 hashed lookups. The keys so far span 59,940 values
  // (60 apart, negative and positive), starting at the bottom: the window must cover them
  // all, not only the half above and below the first key, or every row of the others would
  // be hashed. Keys past the window's ends still get their ids through Intern.
  for (const int64_t bottom : {int64_t{0}, int64_t{-30000}, int64_t{-2147483648}}) {
    SCOPED_TRACE(bottom);
    index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kInt32);
    std::vector<uint64_t> keys;
    for (int64_t k = 0; k < 1000; ++k) keys.push_back(static_cast<uint64_t>(bottom + 60 * k));
    std::vector<uint32_t> ids;
    for (int round = 0; round < 5; ++round) {
      for (const uint64_t key : keys) ids.push_back(dictionary.Intern(key));
    }
    ASSERT_TRUE(dictionary.HasWindow());
    const int64_t count = static_cast<int64_t>(keys.size());
    std::vector<uint32_t> got(keys.size(), UINT32_MAX);
    const int64_t stop = dictionary.KnownIdsInWindow(
        0, count, [&](int64_t j) { return keys[static_cast<size_t>(j)]; },
        [&](int64_t j, uint32_t id) { got[static_cast<size_t>(j)] = id; });
    EXPECT_EQ(stop, count);
    EXPECT_EQ(got, std::vector<uint32_t>(ids.begin(), ids.begin() + count));
    // Far outside the window, still the same ids.
    const uint64_t far = static_cast<uint64_t>(bottom + 60 * 1000 + 70000);
    const uint32_t far_id = dictionary.Intern(far);
    EXPECT_EQ(far_id, 1000u);
    EXPECT_EQ(dictionary.Intern(far), far_id);
    EXPECT_EQ(dictionary.Intern(keys[999]), 999u);
  }
}

TEST(HashTablesTest, BitmapDictionaryWindowStepsOverTheKeysCommonDistance) {
  // Keys a common distance apart (minute timestamps in millis, multiples of 48 or of a
  // power of two, ...) open a window stepping by that distance, so it covers them all
  // however wide they spread. Keys off the step, beyond the window or near the ends of the
  // key space must not alias an entry: every key keeps the id of its first occurrence, on
  // the bulk path as through Intern.
  struct Case {
    int64_t bottom;
    uint64_t step;
    uint64_t expected_step;  // the window's
  };
  const Case cases[] = {
      {int64_t{1700000000000}, 60000, 60000},
      {-5000, 48, 48},                       // an even step: the rotate's part
      {0, 1024, 1024},                       // a power of two: the multiply is by 1
      {INT64_MIN + 7, 3, 3},                 // at the bottom of the key space
      {INT64_MAX - 999 * 999, 999, 999},     // at the top
      {-1, (uint64_t{1} << 40) + 1, (uint64_t{1} << 40) + 1},
      {0, uint64_t{1} << 50, 1},             // 2^16 such steps would wrap: no step
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.step);
    std::mt19937_64 rng(c.step);
    std::vector<uint64_t> on_step;
    for (uint64_t k = 0; k < 300; ++k) on_step.push_back(static_cast<uint64_t>(c.bottom) + k * c.step);
    // 6,000 rows on the step (the window opens among them), then a mix with keys off it.
    std::vector<uint64_t> rows;
    for (int r = 0; r < 6000; ++r) rows.push_back(on_step[rng() % on_step.size()]);
    for (int r = 0; r < 6000; ++r) {
      uint64_t key = on_step[rng() % on_step.size()];
      switch (rng() % 8) {
        case 0: key += 1 + rng() % 7; break;                 // off the step
        case 1: key += c.step * (1 + rng() % 70000); break;  // on it, maybe past the window
        case 2: key -= c.step * (1 + rng() % 70000); break;
        default: break;
      }
      rows.push_back(key);
    }
    std::unordered_map<uint64_t, uint32_t> first_ids;
    index::bitmap::NumericKeyDictionary one_by_one(index::bitmap::KeyKind::kInt64);
    index::bitmap::NumericKeyDictionary bulk(index::bitmap::KeyKind::kInt64);
    std::vector<uint32_t> bulk_ids(rows.size(), UINT32_MAX);
    const int64_t count = static_cast<int64_t>(rows.size());
    auto key_of = [&](int64_t j) { return rows[static_cast<size_t>(j)]; };
    auto take = [&](int64_t j, uint32_t id) { bulk_ids[static_cast<size_t>(j)] = id; };
    for (int64_t j = 0; j < count;) {
      j = bulk.HasWindow() ? bulk.KnownIdsInWindow(j, count, key_of, take) : j;
      if (j < count) {
        take(j, bulk.Intern(key_of(j)));
        ++j;
      }
    }
    for (size_t j = 0; j < rows.size(); ++j) {
      const uint32_t expected =
          first_ids.emplace(rows[j], static_cast<uint32_t>(first_ids.size())).first->second;
      ASSERT_EQ(one_by_one.Intern(rows[j]), expected) << "row " << j;
      ASSERT_EQ(bulk_ids[j], expected) << "row " << j;
    }
    ASSERT_TRUE(bulk.HasWindow());
    EXPECT_EQ(bulk.WindowStep(), c.expected_step);
    // Every key on the step inside the window takes its id from it.
    const int64_t stop = bulk.KnownIdsInWindow(
        0, static_cast<int64_t>(on_step.size()),
        [&](int64_t j) { return on_step[static_cast<size_t>(j)]; },
        [&](int64_t j, uint32_t id) { EXPECT_EQ(id, first_ids.at(on_step[static_cast<size_t>(j)])); });
    if (c.expected_step == c.step) {
      EXPECT_EQ(stop, static_cast<int64_t>(on_step.size()));
    }
    EXPECT_EQ(bulk.JavaOrder(), one_by_one.JavaOrder());
  }
}

TEST(HashTablesTest, BitmapDictionaryWindowNeedsManyKeysToTrustAStep) {
  // A clustered column's first rows may show a handful of keys sharing a divisor by chance;
  // the keys between them must stay in the window.
  index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kInt32);
  for (int row = 0; row < 5000; ++row) dictionary.Intern(static_cast<uint64_t>(100 * (row % 4)));
  ASSERT_TRUE(dictionary.HasWindow());
  EXPECT_EQ(dictionary.WindowStep(), 1u);
  for (uint64_t key = 0; key < 300; ++key) dictionary.Intern(key);
  std::vector<uint64_t> keys(300);
  for (uint64_t key = 0; key < 300; ++key) keys[key] = key;
  const int64_t stop = dictionary.KnownIdsInWindow(
      0, 300, [&](int64_t j) { return keys[static_cast<size_t>(j)]; }, [](int64_t, uint32_t) {});
  EXPECT_EQ(stop, 300);
}

TEST(HashTablesTest, StringDictionaryKeepsIdsThroughGrowthAndLongKeys) {
  // Slots hold a key's arena position with its length, or a marker for keys of 0xFFFF bytes
  // and more (whose length comes from the id): ids must survive both, and every rehash.
  for (const bool expect_ascending : {true, false}) {
    index::bitmap::StringKeyDictionary dictionary(expect_ascending);
    std::vector<std::string> keys;
    for (uint32_t i = 0; i < 50000; ++i) keys.push_back("key-" + std::to_string(i * 7919));
    const std::string long_key(0x10000, 'x');
    keys.insert(keys.begin() + 3, long_key);
    keys.insert(keys.begin() + 4, std::string(0xFFFF, 'x'));  // its prefix, also a long key
    keys.insert(keys.begin() + 5, std::string(0xFFFE, 'x'));  // short, a prefix of both
    keys.insert(keys.begin() + 6, "");
    for (uint32_t i = 0; i < keys.size(); ++i) ASSERT_EQ(dictionary.Intern(keys[i]), i) << i;
    for (uint32_t i = 0; i < keys.size(); ++i) ASSERT_EQ(dictionary.Intern(keys[i]), i) << i;
    EXPECT_EQ(dictionary.size(), keys.size());
    EXPECT_EQ(dictionary.key(3).bytes, long_key);
    EXPECT_EQ(dictionary.Intern(std::string(0xFFFF, 'y')), keys.size());  // new, same length
  }
}

TEST(HashTablesTest, StringDictionaryInAscendingOrderAgreesWithTheTable) {
  // Keys in ascending order are interned without a table until one comes below the last; ids,
  // the HashMap replay (resizes are due on calls for repeated keys) and the sorted ids must be
  // what the table alone gives.
  std::mt19937_64 rng(77);
  std::vector<std::string> ascending;
  for (uint32_t i = 0; i < 3000; ++i) {
    char name[16];
    std::snprintf(name, sizeof(name), "k%06u", i * 3);
    ascending.push_back(name);
  }
  ascending.insert(ascending.begin(), "");  // the smallest key first
  std::vector<std::vector<std::string>> sequences;
  for (const size_t break_at : {size_t{0}, size_t{13}, size_t{1500}, ascending.size()}) {
    std::vector<std::string> calls;
    for (size_t i = 0; i < break_at; ++i) {
      for (uint64_t r = rng() % 4; r-- > 0;) calls.push_back(ascending[i]);
      calls.push_back(ascending[i]);
    }
    // Then keys in any order: earlier ones, new ones between them, and above them all.
    for (size_t i = 0; i < 2000 && break_at < ascending.size(); ++i) {
      calls.push_back(rng() % 2 ? ascending[rng() % ascending.size()]
                                : "k" + std::to_string(rng() % 10000) + "x");
    }
    sequences.push_back(calls);
  }
  // 13 and 25 keys pass HashMap's resize thresholds (12, 24) on their last key; only the calls
  // that repeat it make Java resize, which reorders its iteration.
  for (const size_t keys : {size_t{13}, size_t{25}}) {
    std::vector<std::string> calls(ascending.begin(), ascending.begin() + keys);
    calls.insert(calls.end(), 3, ascending[keys - 1]);
    sequences.push_back(calls);
  }
  for (const std::vector<std::string>& calls : sequences) {
    index::bitmap::StringKeyDictionary sorted_way(true);
    index::bitmap::StringKeyDictionary table_way(false);
    for (size_t i = 0; i < calls.size(); ++i) {
      ASSERT_EQ(sorted_way.Intern(calls[i]), table_way.Intern(calls[i])) << "call " << i;
    }
    ASSERT_EQ(sorted_way.size(), table_way.size());
    EXPECT_EQ(sorted_way.JavaOrder(), table_way.JavaOrder()) << calls.size() << " calls";
    const std::vector<uint32_t> sorted_ids = sorted_way.SortedIds();
    EXPECT_EQ(sorted_ids, table_way.SortedIds()) << calls.size() << " calls";
    for (size_t i = 1; i < sorted_ids.size(); ++i) {
      ASSERT_LT(java::BinaryStringCompareTo(sorted_way.key(sorted_ids[i - 1]).bytes,
                                            sorted_way.key(sorted_ids[i]).bytes),
                0);
    }
    for (uint32_t id = 0; id < sorted_way.size(); id += 97) {
      EXPECT_EQ(sorted_way.key(id).bytes, table_way.key(id).bytes);
    }
  }
}

TEST(HashTablesTest, DictionariesCountTheHeapTheyHold) {
  // The writer trims the C heap after freeing a dictionary by this figure: it must cover the
  // keys' bytes and grow with the keys, and the lookup table's share must go with it.
  index::bitmap::StringKeyDictionary strings(/*expect_ascending=*/false);
  const size_t empty_strings = strings.MemoryBytes();
  size_t key_bytes = 0;
  for (uint32_t i = 0; i < 20000; ++i) {
    const std::string key = "a-key-of-some-length-" + std::to_string(i);
    key_bytes += key.size();
    strings.Intern(key);
  }
  const size_t full = strings.MemoryBytes();
  EXPECT_GT(full, empty_strings);
  EXPECT_GE(full, key_bytes + 20000 * sizeof(uint64_t));  // bytes and offsets at least
  strings.ReleaseLookup();
  EXPECT_LT(strings.MemoryBytes(), full);
  EXPECT_GE(strings.MemoryBytes(), key_bytes);  // the keys stay for the meta

  index::bitmap::NumericKeyDictionary numbers(index::bitmap::KeyKind::kInt64);
  const size_t empty_numbers = numbers.MemoryBytes();
  for (uint64_t i = 0; i < 20000; ++i) numbers.Intern(i * 1000003);
  // Ascending keys need no lookup table: the keys and their Java hash codes at least.
  EXPECT_GE(numbers.MemoryBytes(), empty_numbers + 20000 * (sizeof(uint64_t) + sizeof(int32_t)));
}

}  // namespace
}  // namespace pyfileindex
