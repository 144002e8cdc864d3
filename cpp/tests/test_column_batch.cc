// ColumnBatch's valid-row compaction: the vector path (eight rows a step) and the per-row one
// must keep exactly the valid rows' values, in order, at any validity bit offset.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "column/column_batch.h"

namespace pyfileindex::column {
namespace {

TEST(ColumnBatchTest, CompactValidKeepsTheValidRowsInOrder) {
  std::mt19937_64 rng(21);
  for (int round = 0; round < 400; ++round) {
    const int64_t offset = static_cast<int64_t>(rng() % 19);
    const int64_t length = static_cast<int64_t>(rng() % 300);
    const int null_one_in = 1 + static_cast<int>(rng() % 5);  // 1: every row null
    // The validity buffer ends with the batch's last bit: a read past it would be caught by
    // the sanitizer builds.
    std::vector<uint8_t> validity(static_cast<size_t>((offset + length + 7) / 8));
    for (int64_t i = 0; i < length; ++i) {
      if (rng() % null_one_in != 0) validity[(offset + i) >> 3] |= uint8_t(1u << ((offset + i) & 7));
    }
    ColumnBatch batch;
    batch.physical = Physical::kInt64;
    batch.length = length;
    batch.validity = validity.data();
    batch.validity_offset = offset;
    const int64_t begin = length > 0 ? static_cast<int64_t>(rng() % (length + 1)) : 0;
    const int64_t n = length - begin;
    std::vector<uint64_t> values(static_cast<size_t>(n));
    for (uint64_t& v : values) v = rng();
    std::vector<uint64_t> expected;
    for (int64_t i = 0; i < n; ++i) {
      if (batch.IsValid(begin + i)) expected.push_back(values[static_cast<size_t>(i)]);
    }
    const size_t kept = batch.CompactValid(begin, n, values.data());
    ASSERT_EQ(kept, expected.size()) << "round " << round;
    values.resize(kept);
    ASSERT_EQ(values, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace pyfileindex::column
