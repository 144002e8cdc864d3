// ColumnBatch's valid-row views: the vector path (eight rows a step) and the per-row one must
// keep exactly the valid rows' views, in order, at any validity bit offset.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "column/column_batch.h"

namespace pyfileindex::column {
namespace {

TEST(ColumnBatchTest, CopyValidViewsKeepsTheValidRowsInOrder) {
  std::mt19937_64 rng(21);
  std::string bytes(4096, 'x');
  for (char& c : bytes) c = static_cast<char>('a' + rng() % 26);
  for (int round = 0; round < 400; ++round) {
    const int64_t offset = static_cast<int64_t>(rng() % 19);
    const int64_t length = static_cast<int64_t>(rng() % 300);
    const int null_one_in = 1 + static_cast<int>(rng() % 5);  // 1: every row null
    // The validity buffer ends with the batch's last bit: a read past it would be caught by
    // the sanitizer builds.
    std::vector<uint8_t> validity(static_cast<size_t>((offset + length + 7) / 8));
    std::vector<std::string_view> views;
    for (int64_t i = 0; i < length; ++i) {
      if (rng() % null_one_in != 0) validity[(offset + i) >> 3] |= uint8_t(1u << ((offset + i) & 7));
      views.emplace_back(bytes.data() + rng() % 4000, rng() % 40);
    }
    ColumnBatch batch;
    batch.physical = Physical::kBytes;
    batch.length = length;
    batch.validity = validity.data();
    batch.validity_offset = offset;
    batch.strings = views.data();
    const int64_t begin = length > 0 ? static_cast<int64_t>(rng() % (length + 1)) : 0;
    const int64_t n = length - begin;
    std::vector<std::string_view> expected;
    for (int64_t i = 0; i < n; ++i) {
      if (batch.IsValid(begin + i)) expected.push_back(views[static_cast<size_t>(begin + i)]);
    }
    std::vector<std::string_view> out(static_cast<size_t>(n + ColumnBatch::kCopyValidViewsSlack));
    const size_t kept = batch.CopyValidViews(begin, n, out.data());
    ASSERT_EQ(kept, expected.size()) << "round " << round;
    for (size_t k = 0; k < kept; ++k) {
      ASSERT_EQ(out[k].data(), expected[k].data()) << "round " << round << " view " << k;
      ASSERT_EQ(out[k].size(), expected[k].size()) << "round " << round << " view " << k;
    }
  }
}

}  // namespace
}  // namespace pyfileindex::column
