#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include <string>
#include <vector>

#include "hash/mix64.h"
#include "index/bitmap/distinct_estimate.h"
#include "index/bitmap/key_dictionary.h"

namespace pyfileindex::index::bitmap {
namespace {

TEST(DistinctEstimate, DomainForSampleInvertsDistinctInDraws) {
  for (double domain : {50.0, 1000.0, 1e5, 3e7}) {
    for (double sampled : {100.0, 8192.0}) {
      const double distinct = DistinctInDraws(domain, sampled);
      if (distinct >= sampled - 1e-6) continue;  // no repeats to solve from
      EXPECT_NEAR(DomainForSample(sampled, distinct) / domain, 1.0, 1e-6) << domain;
    }
  }
  EXPECT_NEAR(DistinctInDraws(1e5, 2e5), 1e5 * (1 - std::exp(-2.0)), 1e-6);
  EXPECT_NEAR(DistinctInDraws(1e12, 200), 200, 1e-6);  // no cancellation for rows << domain
}

// A sample of `sampled` keys drawn from a domain of `domain` keys (a fixed pseudo-random
// sequence, so the test is deterministic).
DistinctSample SampleOf(uint64_t domain, size_t sampled) {
  DistinctSample sample;
  sample.Start(sampled);
  for (size_t i = 0; i < sampled; ++i) {
    sample.Add(hash::Mix64(hash::Mix64(i + 12345) % domain));
  }
  return sample;
}

TEST(DistinctEstimate, ProjectsTheKeysOfUniformColumns) {
  // 200k rows from 100k keys hold about 86.5k of them; 200k rows from 10M about 198k.
  const DistinctSample hundred_k = SampleOf(100000, 8192);
  EXPECT_GT(hundred_k.repeats(), 200u);
  EXPECT_NEAR(hundred_k.ExpectedDistinct(200000) / 86466.0, 1.0, 0.15);
  const double wide = SampleOf(10000000, 8192).ExpectedDistinct(200000);
  EXPECT_GT(wide, 150000);
  EXPECT_LE(wide, 200000);
  // A small domain saturates: no more keys than it has, however many rows.
  EXPECT_LT(SampleOf(1000, 8192).ExpectedDistinct(1e7), 1200);
}

TEST(DistinctEstimate, AKeyPerSampledRowLeansBelowTheRows) {
  DistinctSample sample;
  sample.Start(4096);
  for (uint64_t i = 0; i < 4096; ++i) sample.Add(hash::Mix64(i));
  EXPECT_EQ(sample.sampled(), 4096u);
  EXPECT_EQ(sample.repeats(), 0u);
  const double expected = sample.ExpectedDistinct(200000);
  EXPECT_LT(expected, 200000);  // one repeat is assumed: never above the rows
  EXPECT_GT(expected, 180000);
}

TEST(DistinctEstimate, RepeatsAreCountedPerSampledRow) {
  DistinctSample sample;
  sample.Start(16);
  for (uint64_t key : {1, 2, 1, 1, 3, 2}) sample.Add(hash::Mix64(key));
  EXPECT_EQ(sample.sampled(), 6u);
  EXPECT_EQ(sample.repeats(), 3u);
  sample.Start(16);  // a new sample forgets the old one
  sample.Add(hash::Mix64(1));
  EXPECT_EQ(sample.sampled(), 1u);
  EXPECT_EQ(sample.repeats(), 0u);
  EXPECT_EQ(sample.ExpectedDistinct(100), 0);  // too small a sample to say anything
}

TEST(DistinctEstimate, DictionariesSizedAheadGiveTheSameIdsAndOrders) {
  // ExpectKeys before the first key, while the keys still ascend (the table is built later
  // at the expected size), and once the table exists (it is rehashed to that size), for too
  // few and too many expected keys: the same ids, HashMap order and sorted order as a
  // dictionary that only grows.
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < 3000; ++i) keys.push_back(i * 3);  // ascending first
  for (uint64_t i = 0; i < 40000; ++i) keys.push_back(hash::Mix64(i) % 30000);
  for (size_t expect_at : {size_t{0}, size_t{100}, size_t{5000}}) {
    for (size_t expected : {size_t{2000}, size_t{30000}, size_t{200000}}) {
      SCOPED_TRACE(std::to_string(expect_at) + " " + std::to_string(expected));
      NumericKeyDictionary growing(KeyKind::kInt64);
      NumericKeyDictionary sized(KeyKind::kInt64);
      StringKeyDictionary growing_text;
      StringKeyDictionary sized_text;
      for (size_t i = 0; i < keys.size(); ++i) {
        if (i == expect_at) {
          sized.ExpectKeys(expected);
          sized_text.ExpectKeys(expected, expected * 6);
        }
        ASSERT_EQ(sized.Intern(keys[i]), growing.Intern(keys[i]));
        const std::string text = "k" + std::to_string(keys[i]);
        ASSERT_EQ(sized_text.Intern(text), growing_text.Intern(text));
      }
      EXPECT_EQ(sized.JavaOrder(), growing.JavaOrder());
      EXPECT_EQ(sized.SortedIds(), growing.SortedIds());
      EXPECT_EQ(sized_text.JavaOrder(), growing_text.JavaOrder());
      EXPECT_EQ(sized_text.SortedIds(), growing_text.SortedIds());
      // And with the orders' working arrays in each dictionary's own lookup table.
      EXPECT_EQ(sized.JavaOrder(sized.LookupMemory()), growing.JavaOrder());
      EXPECT_EQ(sized_text.SortedIds(sized_text.LookupMemory()), growing_text.SortedIds());
    }
  }
}

}  // namespace
}  // namespace pyfileindex::index::bitmap
