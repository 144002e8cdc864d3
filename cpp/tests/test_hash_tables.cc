// The writers' hash tables under keys built to collide.
#include <gtest/gtest.h>

#include <cstdint>
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

}  // namespace
}  // namespace pyfileindex
