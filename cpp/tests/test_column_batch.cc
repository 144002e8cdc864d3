// ColumnBatch's valid-row views: the vector path (eight rows a step) and the per-row one must
// keep exactly the valid rows' views, in order, at any validity bit offset.
#include <gtest/gtest.h>

#include <algorithm>
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

// KeepValid takes a word of validity bits per 64 rows: every valid row, in order, at any bit
// offset and any start, reading no byte past the batch's last bit (the buffer ends there, so
// the sanitizer builds would catch it).
TEST(ColumnBatchTest, KeepValidKeepsTheValidRowsAtAnyOffset) {
  std::mt19937_64 rng(22);
  for (int round = 0; round < 2000; ++round) {
    const int64_t offset = static_cast<int64_t>(rng() % 71);
    const int64_t length = static_cast<int64_t>(rng() % 300);
    const int null_one_in = 1 + static_cast<int>(rng() % 6);  // 1: every row null
    std::vector<uint8_t> validity(static_cast<size_t>((offset + length + 7) / 8));
    std::vector<bool> valid;
    for (int64_t i = 0; i < length; ++i) {
      valid.push_back(rng() % null_one_in != 0 || rng() % 50 == 0);
      if (valid.back()) validity[(offset + i) >> 3] |= uint8_t(1u << ((offset + i) & 7));
    }
    ColumnBatch batch;
    batch.length = length;
    batch.validity = validity.empty() ? nullptr : validity.data();
    batch.validity_offset = offset;
    const int64_t begin = length > 0 ? static_cast<int64_t>(rng() % (length + 1)) : 0;
    const int64_t n = length - begin;
    std::vector<int64_t> expected;
    for (int64_t i = 0; i < n; ++i) {
      if (batch.validity == nullptr || valid[static_cast<size_t>(begin + i)]) expected.push_back(i);
    }
    std::vector<int64_t> rows(static_cast<size_t>(n), -1);
    const size_t kept = batch.KeepValid(begin, n, [&](size_t slot, int64_t i) {
      ASSERT_LT(slot, rows.size());
      rows[slot] = i;
    });
    ASSERT_EQ(kept, expected.size()) << "round " << round;
    rows.resize(kept);
    ASSERT_EQ(rows, expected) << "round " << round << " offset " << offset << " begin " << begin;
    // ValidRowOffsets: the same rows, within the slack it is given (exactly; ASan bounds it).
    std::vector<uint32_t> offsets(static_cast<size_t>(n + ColumnBatch::kValidRowOffsetsSlack));
    const size_t kept_offsets = batch.ValidRowOffsets(begin, n, offsets.data());
    ASSERT_EQ(kept_offsets, expected.size()) << "round " << round;
    for (size_t k = 0; k < kept_offsets; ++k) {
      ASSERT_EQ(offsets[k], static_cast<uint32_t>(expected[k])) << "round " << round << " slot " << k;
    }
    // ValidBits alone: exactly the rows asked for, the bits above them zero.
    if (length > 0 && batch.validity != nullptr) {
      const int64_t from = static_cast<int64_t>(rng() % length);
      const int count = 1 + static_cast<int>(rng() % std::min<int64_t>(64, length - from));
      uint64_t naive = 0;
      for (int k = 0; k < count; ++k) {
        naive |= uint64_t{valid[static_cast<size_t>(from + k)]} << k;
      }
      ASSERT_EQ(batch.ValidBits(from, count), naive) << "round " << round << " from " << from;
    }
  }
}

// Arrow's offsets instead of views: the same valid rows' bytes, whatever a null row's offsets
// hold (they may point anywhere, or decrease).
template <typename Offset>
void CheckViewsFromOffsets(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string bytes(8192, 'x');
  for (char& c : bytes) c = static_cast<char>('a' + rng() % 26);
  for (int round = 0; round < 300; ++round) {
    const int64_t offset = static_cast<int64_t>(rng() % 19);
    const int64_t length = static_cast<int64_t>(rng() % 300);
    const int null_one_in = static_cast<int>(rng() % 4);  // 0: no validity buffer
    std::vector<uint8_t> validity(static_cast<size_t>((offset + length + 7) / 8));
    std::vector<Offset> offsets(static_cast<size_t>(offset + length + 1));
    Offset at = 0;
    for (int64_t i = 0; i <= offset + length; ++i) {
      offsets[static_cast<size_t>(i)] = at;
      at = static_cast<Offset>(at + rng() % 25);
    }
    for (int64_t i = 0; i < length; ++i) {
      if (null_one_in == 0 || rng() % null_one_in != 0) {
        validity[(offset + i) >> 3] |= uint8_t(1u << ((offset + i) & 7));
      }
    }
    // Offsets only null rows use (a start after a null row or the batch's start, the end of a
    // last null row) hold anything, decreasing or far out of the data.
    const auto valid_row = [&](int64_t i) {
      return null_one_in == 0 || ((validity[(offset + i) >> 3] >> ((offset + i) & 7)) & 1);
    };
    for (int64_t i = 0; i < length; ++i) {
      if (valid_row(i)) continue;
      const Offset garbage = static_cast<Offset>(rng() % 2 ? rng() % 8000 : (1u << 29) + i);
      if (i == 0 || !valid_row(i - 1)) offsets[static_cast<size_t>(offset + i)] = garbage;
      if (i == length - 1) offsets[static_cast<size_t>(offset + i + 1)] = garbage;
    }
    ColumnBatch batch;
    batch.physical = Physical::kBytes;
    batch.length = length;
    batch.validity = null_one_in == 0 ? nullptr : validity.data();
    batch.validity_offset = offset;
    batch.string_data = bytes.data();
    if constexpr (sizeof(Offset) == 4) {
      batch.offsets32 = offsets.data() + offset;
    } else {
      batch.offsets64 = offsets.data() + offset;
    }
    const int64_t begin = length > 0 ? static_cast<int64_t>(rng() % (length + 1)) : 0;
    const int64_t n = length - begin;
    std::vector<std::string_view> expected;
    for (int64_t i = begin; i < begin + n; ++i) {
      if (!batch.IsValid(i)) continue;
      const Offset first = offsets[static_cast<size_t>(offset + i)];
      const Offset last = offsets[static_cast<size_t>(offset + i + 1)];
      expected.emplace_back(bytes.data() + first, static_cast<size_t>(last - first));
    }
    std::vector<std::string_view> out(static_cast<size_t>(n + ColumnBatch::kCopyValidViewsSlack));
    const size_t kept = batch.CopyValidViews(begin, n, out.data());
    ASSERT_EQ(kept, expected.size()) << "round " << round;
    for (size_t k = 0; k < kept; ++k) {
      ASSERT_EQ(out[k], expected[k]) << "round " << round << " view " << k;
      ASSERT_EQ(out[k].data(), expected[k].data()) << "round " << round << " view " << k;
    }
  }
}

TEST(ColumnBatchTest, NullRowsSpanValidBytesOnlyWhereEveryOffsetIsInsideThem) {
  // Rows 0 and 5 null among six of "aa", "b", ...: their offsets must neither leave the valid
  // rows' bytes nor decrease for the batch's null rows to be readable.
  const std::string bytes = "aabcccddddeeeee";
  const uint8_t validity[1] = {0b011110};  // rows 1-4 valid
  auto batch_of = [&](const std::vector<int32_t>& offsets) {
    ColumnBatch batch;
    batch.physical = Physical::kBytes;
    batch.length = 6;
    batch.validity = validity;
    batch.string_data = bytes.data();
    batch.offsets32 = offsets.data();
    return batch;
  };
  const std::vector<int32_t> in_order = {2, 2, 3, 6, 10, 10, 10};  // null rows span nothing
  EXPECT_TRUE(batch_of(in_order).NullRowsSpanValidBytes());
  std::vector<int32_t> leading = in_order;
  leading[0] = 0;  // null row 0 spans "aa", before the first valid row's bytes
  EXPECT_FALSE(batch_of(leading).NullRowsSpanValidBytes());
  std::vector<int32_t> trailing = in_order;
  trailing[6] = 1 << 29;  // null row 5 ends far past the data
  EXPECT_FALSE(batch_of(trailing).NullRowsSpanValidBytes());
  // Rows 2 and 3 null between valid rows 1 and 4, the offset between them out of order.
  const uint8_t middle_nulls[1] = {0b110011};
  std::vector<int32_t> decreasing = {0, 2, 3, 1, 6, 10, 15};
  ColumnBatch middle = batch_of(decreasing);
  middle.validity = middle_nulls;
  EXPECT_FALSE(middle.NullRowsSpanValidBytes());
  decreasing[3] = 4;
  EXPECT_TRUE(middle.NullRowsSpanValidBytes());
  const uint8_t all_null[1] = {0};
  ColumnBatch none_valid = batch_of(in_order);
  none_valid.validity = all_null;
  EXPECT_FALSE(none_valid.NullRowsSpanValidBytes());
  ColumnBatch views;  // no offsets at all
  EXPECT_FALSE(views.NullRowsSpanValidBytes());
}

TEST(ColumnBatchTest, CopyValidViewsFromInt32Offsets) { CheckViewsFromOffsets<int32_t>(5); }
TEST(ColumnBatchTest, CopyValidViewsFromInt64Offsets) { CheckViewsFromOffsets<int64_t>(6); }

}  // namespace
}  // namespace pyfileindex::column
