// The writers' hash tables under keys built to collide.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hash/mix64.h"
#include "hash/table_seed.h"
#include "index/bitmap/key_dictionary.h"
#include "mix64_inverse.h"

namespace pyfileindex {
namespace {

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
