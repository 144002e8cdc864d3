// OpenOptions::row_count: an index storing another row count than the data file's is corrupt.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "arrow_batch.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"
#include "test_support.h"

namespace pyfileindex {
namespace {

using test_support::Type;

constexpr int64_t kRows = 50;

std::vector<Field> Fields() { return {{"a", Type("INT")}, {"b", Type("BIGINT")}}; }

std::vector<uint8_t> Container() {
  test_arrow::OwnedColumn a("a", "i", kRows), b("b", "l", kRows);
  for (int64_t row = 0; row < kRows; ++row) {
    a.int32_values.push_back(static_cast<int32_t>(row % 5));
    b.int64_values.push_back(row * 3);
  }
  a.Finish(kRows, 0);
  b.Finish(kRows, 0);
  test_arrow::OwnedBatch batch({&a, &b}, kRows);
  auto writer = FileIndexWriter::Make(
      Fields(), Options(std::map<std::string, std::string>{
                    {"file-index.bitmap.columns", "a"},
                    {"file-index.range-bitmap.columns", "a"},
                    {"file-index.bsi.columns", "b"},
                    {"file-index.bloom-filter.columns", "b"}}));
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->Write(batch.schema, batch.array).ok());
  auto finished = (*writer)->Finish();
  return **finished;
}

std::shared_ptr<FileIndexReader> OpenWith(const std::vector<uint8_t>& bytes, int64_t row_count) {
  OpenOptions options;
  options.row_count = row_count;
  auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), Fields(), options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return *reader;
}

TEST(ReaderRowCountTest, TheDataFilesRowCountAnswers) {
  const std::vector<uint8_t> bytes = Container();
  for (int64_t row_count : {int64_t{-1}, kRows}) {
    auto reader = OpenWith(bytes, row_count);
    auto answer = reader->Evaluate(*Predicate::Leaf(PredicateOp::kEqual, "a", {Literal::Int(2)}));
    ASSERT_TRUE(answer.ok()) << answer.status().ToString();
    EXPECT_EQ(answer->rows().Cardinality(), 10u);
    auto ranged = reader->Evaluate(*Predicate::Leaf(PredicateOp::kGreaterThan, "b",
                                                    {Literal::Int(140)}));
    ASSERT_TRUE(ranged.ok()) << ranged.status().ToString();
    EXPECT_EQ(ranged->rows().Cardinality(), 3u);
  }
}

TEST(ReaderRowCountTest, AnotherRowCountIsCorruptForEveryIndexStoringOne) {
  const std::vector<uint8_t> bytes = Container();
  for (int64_t row_count : {int64_t{0}, kRows - 1, kRows + 1, int64_t{1} << 40}) {
    SCOPED_TRACE(row_count);
    auto reader = OpenWith(bytes, row_count);
    const std::string says = "stores a row count of 50, the data file has " +
                             std::to_string(row_count) + " rows";
    // a: bitmap first (then range-bitmap); b: bsi, then the bloom filter (no row count).
    for (const char* column : {"a", "b"}) {
      auto answer =
          reader->Evaluate(*Predicate::Leaf(PredicateOp::kNotEqual, column, {Literal::Int(2)}));
      ASSERT_EQ(answer.status().code(), StatusCode::kCorrupt) << column;
      EXPECT_NE(answer.status().message().find(says), std::string::npos)
          << answer.status().message();
    }
    TopN top;
    top.column = "a";
    top.limit = 3;
    EXPECT_EQ(reader->EvaluateTopN(top, nullptr).status().code(), StatusCode::kCorrupt);
    for (const IndexEntry& entry : reader->entries()) {
      const StatusCode described = reader->Describe(entry).status().code();
      // The bloom filter stores no row count: it cannot disagree.
      EXPECT_EQ(described, entry.index_type == "bloom-filter" ? StatusCode::kOk
                                                               : StatusCode::kCorrupt)
          << entry.index_type;
    }
  }
}

TEST(ReaderRowCountTest, ANegativeRowCountOtherThanUnknownIsRefused) {
  const std::vector<uint8_t> bytes = Container();
  OpenOptions options;
  options.row_count = -2;
  auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), Fields(), options);
  ASSERT_EQ(reader.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(reader.status().message().find("row count -2"), std::string::npos);
}

}  // namespace
}  // namespace pyfileindex
