// A data file's index must not depend on how its rows arrive: one large Arrow array (which
// the writer feeds to the indexes in slices), the same array at a non-zero offset, and many
// small batches all give the same container bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

void NoRelease(ArrowArray* a) { a->release = nullptr; }
void NoReleaseSchema(ArrowSchema* s) { s->release = nullptr; }

// An Arrow column (int32, int64 or utf8) with a validity bitmap, and `lead` junk rows in front that
// an offset skips.
struct Column {
  std::string format;
  std::vector<uint8_t> validity;
  std::vector<int32_t> ints;
  std::vector<int64_t> longs;
  std::vector<int32_t> offsets;
  std::string chars;
  int64_t lead = 0;
  int64_t length = 0;
  int64_t nulls = 0;
  const void* buffers[3] = {nullptr, nullptr, nullptr};

  ArrowArray Array(int64_t begin, int64_t count, bool exact_null_count) {
    buffers[0] = validity.data();
    buffers[1] = format == "i"   ? static_cast<const void*>(ints.data())
                 : format == "l" ? static_cast<const void*>(longs.data())
                                 : offsets.data();
    buffers[2] = chars.data();
    int64_t null_count = -1;
    if (exact_null_count) {
      null_count = 0;
      for (int64_t i = lead + begin; i < lead + begin + count; ++i) {
        null_count += ((validity[i >> 3] >> (i & 7)) & 1) == 0;
      }
    }
    return ArrowArray{count, null_count, lead + begin, format == "u" ? 3 : 2, 0, buffers,
                      nullptr, nullptr, NoRelease, nullptr};
  }
  ArrowSchema Schema() {
    return ArrowSchema{format.c_str(), "c", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                       NoReleaseSchema, nullptr};
  }
};

Column MakeColumn(const std::string& format, int64_t lead, int64_t length, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Column c;
  c.format = format;
  c.lead = lead;
  c.length = length;
  const int64_t total = lead + length;
  c.validity.assign(static_cast<size_t>((total + 7) / 8), 0);
  c.offsets.push_back(0);
  for (int64_t i = 0; i < total; ++i) {
    const bool valid = rng() % 7 != 0;
    if (valid) c.validity[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    const int32_t value = static_cast<int32_t>(rng() % 3000) - 1500;
    c.ints.push_back(value);
    c.longs.push_back(int64_t{value} * 1'000'000'007);
    c.chars += "k" + std::to_string(value);
    c.offsets.push_back(static_cast<int32_t>(c.chars.size()));
  }
  return c;
}

std::vector<uint8_t> Build(const std::string& type, const std::string& index, Column& column,
                           const std::vector<int64_t>& batch_sizes, bool exact_null_count) {
  Options options;
  options.Set("file-index." + index + ".columns", "c");
  if (index == "bloom-filter") options.Set("file-index.bloom-filter.c.items", "5000");
  auto writer = FileIndexWriter::Make({{"c", *ParseDataType(type)}}, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  ArrowSchema schema = column.Schema();
  int64_t begin = 0;
  for (int64_t size : batch_sizes) {
    ArrowArray array = column.Array(begin, size, exact_null_count);
    const Status status = (*writer)->WriteColumn("c", schema, array);
    EXPECT_TRUE(status.ok()) << status.ToString();
    begin += size;
  }
  EXPECT_EQ(begin, column.length);
  auto bytes = (*writer)->Finish();
  EXPECT_TRUE(bytes.ok() && bytes->has_value());
  return bytes.ok() && bytes->has_value() ? **bytes : std::vector<uint8_t>();
}

TEST(WriterBatching, OneLargeArrayEqualsManySmallBatches) {
  const int64_t rows = 300'001;  // several slices of the large array, and a ragged tail
  // 4-byte, 8-byte and string keys (each kept in its own per-row vector by some writers).
  const std::vector<std::pair<std::string, std::string>> types = {
      {"i", "INT"}, {"l", "BIGINT"}, {"u", "STRING"}};
  for (const auto& [format, type] : types) {
    Column column = MakeColumn(format, /*lead=*/13, rows, format == "u" ? 5 : 6);
    std::vector<int64_t> small(rows / 997, 997);
    small.push_back(rows - static_cast<int64_t>(small.size()) * 997);
    for (const char* index : {"bitmap", "bloom-filter", "bsi", "range-bitmap"}) {
      if (type == "STRING" && std::string(index) == "bsi") continue;  // bsi takes no strings
      SCOPED_TRACE(type + " " + index);
      const std::vector<uint8_t> whole = Build(type, index, column, {rows}, true);
      ASSERT_FALSE(whole.empty());
      EXPECT_EQ(whole, Build(type, index, column, {rows}, /*exact_null_count=*/false));
      EXPECT_EQ(whole, Build(type, index, column, small, true));
      // Large arrays one after another: each announces its rows (sizing hints that add up).
      EXPECT_EQ(whole, Build(type, index, column, {70'000, 100'000, rows - 170'000}, false));
    }
  }
}

TEST(WriterBatching, DecreasingStringOffsetsAreRefusedAtTheirRow) {
  // Offsets of a valid row that go backwards name that row; a null row's offsets are not read.
  // The bloom filter takes Arrow's offsets, the bitmap a view per row: both check.
  for (const char* index : {"bloom-filter", "bitmap"})
  for (const bool with_nulls : {false, true}) {
    SCOPED_TRACE(std::string(index) + (with_nulls ? " with nulls" : ""));
    Column column = MakeColumn("u", /*lead=*/0, 5000, 7);
    std::fill(column.validity.begin(), column.validity.end(), uint8_t{0xFF});
    column.validity[4000 >> 3] &= static_cast<uint8_t>(~(1u << (4000 & 7)));  // row 4000 null
    if (!with_nulls) column.validity.clear();
    column.offsets[4001] = column.offsets[4000] - 1;  // row 4000 ends before it starts
    column.offsets[3001] = with_nulls ? column.offsets[3001] : column.offsets[3000] - 2;
    Options options;
    options.Set(std::string("file-index.") + index + ".columns", "c");
    auto writer = FileIndexWriter::Make({{"c", *ParseDataType("STRING")}}, options);
    ASSERT_TRUE(writer.ok());
    ArrowSchema schema = column.Schema();
    ArrowArray array = column.Array(0, 5000, /*exact_null_count=*/with_nulls);
    if (!with_nulls) {
      array.buffers[0] = nullptr;
      array.null_count = 0;
    }
    const Status status = (*writer)->WriteColumn("c", schema, array);
    if (with_nulls) {
      EXPECT_TRUE(status.ok()) << status.ToString();
    } else {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
      EXPECT_NE(status.ToString().find("decrease at row 3000"), std::string::npos)
          << status.ToString();
    }
  }
}

}  // namespace
}  // namespace pyfileindex
