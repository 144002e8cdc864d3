// IdsBySortKey against a comparison sort of (key, id): both sides of the radix threshold,
// ties, keys sharing high or low digits, and the extremes of the key range; and the string
// dictionary's order (prefixes radix-sorted, shared prefixes compared whole).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "index/bitmap/ids_by_sort_key.h"
#include "index/bitmap/key_dictionary.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::bitmap {
namespace {

std::vector<uint32_t> Expected(const std::vector<uint64_t>& keys) {
  std::vector<std::pair<uint64_t, uint32_t>> tagged;
  for (uint32_t id = 0; id < keys.size(); ++id) tagged.emplace_back(keys[id], id);
  std::sort(tagged.begin(), tagged.end());
  std::vector<uint32_t> ids;
  for (const auto& t : tagged) ids.push_back(t.second);
  return ids;
}

TEST(IdsBySortKeyTest, MatchesAComparisonSort) {
  std::mt19937_64 rng(21);
  for (size_t n : {0, 1, 2, 100, 2047, 2048, 2049, 50000, 200000}) {
    for (int shape = 0; shape < 7; ++shape) {
      SCOPED_TRACE("n " + std::to_string(n) + " shape " + std::to_string(shape));
      std::vector<uint64_t> keys(n);
      for (uint64_t& key : keys) {
        const uint64_t r = rng();
        switch (shape) {
          case 0: key = r; break;                                      // every digit varies
          case 1: key = (uint64_t{1} << 63) ^ (r & 0xFFFFFFFFu); break;  // a widened int
          case 2: key = r % 97; break;                                 // many ties
          case 3: key = r & 0xFFFF000000000000u; break;                // only high digits
          case 4: key = (r & 1) ? ~uint64_t{0} : 0; break;             // the extremes
          case 5: key = uint64_t{0x5A5A} << 40; break;                 // all equal
          default: key = (uint64_t{1} << 63) ^ (1000 + 37 * (r % 200000)); break;  // 23 bits
        }
      }
      const std::vector<uint32_t> expected = Expected(keys);
      std::vector<uint64_t> sorted_keys;
      for (uint32_t id : expected) sorted_keys.push_back(keys[id]);
      std::vector<uint64_t> work = keys;
      EXPECT_EQ(IdsBySortKey(work.data(), n), expected);
      EXPECT_EQ(work, sorted_keys);  // the keys come back in the ids' order
      // Working arrays from scratch: misaligned, room for only some of them, and for all.
      for (size_t room : {n * 4 + 8, n * 16 + 64}) {
        std::vector<uint8_t> block(room + 1);
        work = keys;
        EXPECT_EQ(IdsBySortKey(work.data(), n, memory::Scratch(block.data() + 1, room)), expected);
        EXPECT_EQ(work, sorted_keys);
      }
    }
  }
}

TEST(IdsBySortKeyTest, StringDictionaryOrdersAsBinaryStringCompareTo) {
  std::mt19937_64 rng(22);
  std::vector<std::string> keys = {"", std::string(1, '\0'), "ab", std::string("ab\0", 3),
                                   std::string("ab\0\0\0\0\0\0", 8),
                                   std::string("ab\0\0\0\0\0\0\0", 9), "\xff", "\x80" "abc"};
  for (uint32_t i = 0; i < 6000; ++i) {
    std::string key;
    const size_t length = rng() % 14;
    // Most share an 8-byte head with others, so tied prefixes are common.
    for (size_t k = 0; k < length; ++k) {
      key += static_cast<char>(k < 7 ? "prefixe"[k] : static_cast<char>(rng() % 256));
    }
    if (i % 3 == 0) key = std::to_string(rng());
    keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::shuffle(keys.begin(), keys.end(), rng);
  StringKeyDictionary dictionary(/*expect_ascending=*/false);
  for (uint32_t i = 0; i < keys.size(); ++i) ASSERT_EQ(dictionary.Intern(keys[i]), i);
  std::vector<uint32_t> expected(keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) expected[i] = i;
  std::sort(expected.begin(), expected.end(), [&keys](uint32_t a, uint32_t b) {
    return java::BinaryStringCompareTo(keys[a], keys[b]) < 0;
  });
  EXPECT_EQ(dictionary.SortedIds(), expected);
}

}  // namespace
}  // namespace pyfileindex::index::bitmap
