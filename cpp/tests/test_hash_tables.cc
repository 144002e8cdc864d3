// The writers' hash tables under keys built to collide.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hash/mix64.h"
#include "hash/table_bytes.h"
#include "hash/table_seed.h"
#include "index/bitmap/key_dictionary.h"
#include "mix64_inverse.h"

namespace pyfileindex {
namespace {

TEST(TableBytesTest, SameBytesIsEqualityAtEveryLength) {
  // The compare reads overlapping words: a difference in any byte, at any length around the
  // 4- and 8-byte steps, must be seen; equal bytes at different addresses must match.
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
    }
    EXPECT_FALSE(hash::SameBytes(a, a + "x")) << n;
    if (n > 0) {
      EXPECT_FALSE(hash::SameBytes(a, a.substr(0, n - 1))) << n;
    }
  }
}

TEST(TableSeedTest, OneSeedPerProcess) {
  EXPECT_EQ(hash::TableSeed(), hash::TableSeed());
}

TEST(HashTablesTest, BitmapDictionaryKeysWithSmallMixedBitsStayDistinct) {
  // Unseeded, every one of these keys would take slot 0 of the integer dictionary, and each
  // insert would walk the chain of all earlier keys (about 2 * 10^10 steps here).
  index::bitmap::NumericKeyDictionary dictionary(index::bitmap::KeyKind::kLong);
  const uint32_t count = 200000;
  std::vector<uint64_t> keys(count);
  for (uint32_t i = 0; i < count; ++i) keys[i] = testing::UnMix64(uint64_t{i} + 1);
  for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(dictionary.InternHashed(keys[i]), i);
  for (uint32_t i = 0; i < count; i += 997) ASSERT_EQ(dictionary.InternHashed(keys[i]), i);
  EXPECT_EQ(dictionary.size(), count);
}

TEST(HashTablesTest, StringDictionaryKeepsIdsThroughGrowthAndLongKeys) {
  // Slots hold a key's arena position with its length, or a marker for keys of 0xFFFF bytes
  // and more (whose length comes from the id): ids must survive both, and every rehash.
  index::bitmap::StringKeyDictionary dictionary;
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

}  // namespace
}  // namespace pyfileindex
