// The public API's boundary promises: malformed input from an engine (null pointers, absurd
// predicate trees, broken Arrow structs) gives a Status, never a crash or an exception.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "pyfileindex/reader.h"
#include "pyfileindex/row_bitmap.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

std::vector<uint8_t> SmallContainer() {
  // Written by the library itself: one INT column with a bitmap index over 4 rows.
  const std::vector<int32_t> values = {1, 2, 1, 3};
  const void* buffers[2] = {nullptr, values.data()};
  ArrowArray column{4, 0, 0, 2, 0, buffers, nullptr, nullptr,
                    [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema column_schema{"i", "x", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                            [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  Options options;
  options.Set("file-index.bitmap.columns", "x");
  auto writer = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->WriteColumn("x", column_schema, column).ok());
  auto bytes = (*writer)->Finish();
  EXPECT_TRUE(bytes.ok() && bytes->has_value());
  return bytes.ok() && bytes->has_value() ? **bytes : std::vector<uint8_t>();
}

TEST(ApiBoundary, OpenRejectsNullDataWithASize) {
  auto reader = FileIndexReader::Open(nullptr, 16, {});
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kInvalidArgument);
}

TEST(ApiBoundary, DeserializeRejectsNullDataWithASize) {
  auto bitmap = RowBitmap::Deserialize(nullptr, 8);
  ASSERT_FALSE(bitmap.ok());
  EXPECT_EQ(bitmap.status().code(), StatusCode::kInvalidArgument);
}

TEST(ApiBoundary, EvaluateRejectsNullChildrenAndTooDeepTrees) {
  const std::vector<uint8_t> bytes = SmallContainer();
  auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), {{"x", *ParseDataType("INT")}});
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const PredicatePtr leaf = Predicate::Leaf(PredicateOp::kEqual, "x", {Literal::Int(1)});

  auto answer = (*reader)->Evaluate(*Predicate::And({leaf}));
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  ASSERT_TRUE(answer->is_rows());
  EXPECT_EQ(answer->rows().ToVector(), (std::vector<uint32_t>{0, 2}));

  auto with_null = (*reader)->Evaluate(*Predicate::Or({leaf, nullptr}));
  ASSERT_FALSE(with_null.ok());
  EXPECT_EQ(with_null.status().code(), StatusCode::kInvalidArgument);

  // 100 levels are fine; 10000 would exhaust a small thread stack, so they are refused.
  PredicatePtr nested = leaf;
  for (int i = 0; i < 100; ++i) nested = Predicate::And({nested});
  auto shallow = (*reader)->Evaluate(*nested);
  ASSERT_TRUE(shallow.ok()) << shallow.status().ToString();
  EXPECT_EQ(shallow->rows().ToVector(), (std::vector<uint32_t>{0, 2}));
  for (int i = 100; i < 10000; ++i) nested = (i % 2) ? Predicate::And({nested}) : Predicate::Or({nested});
  auto deep = (*reader)->Evaluate(*nested);
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), StatusCode::kInvalidArgument);
  // Tear the chain down iteratively: destroying 10000 nested shared_ptrs recursively could
  // itself overflow the stack of a sanitizer build.
  while (nested->children.size() == 1 && nested.use_count() == 1) {
    PredicatePtr child = nested->children[0];
    nested = std::move(child);
  }
}

TEST(ApiBoundary, WriteRejectsStructsWithNullChildren) {
  Options options;
  options.Set("file-index.bitmap.columns", "x");
  auto writer = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  const void* buffers[1] = {nullptr};
  ArrowSchema* schema_children[1] = {nullptr};
  ArrowArray* array_children[1] = {nullptr};
  ArrowSchema schema{"+s", "", nullptr, 0, 1, schema_children, nullptr,
                     [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  ArrowArray array{4, 0, 0, 1, 1, buffers, array_children, nullptr,
                   [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  Status status = (*writer)->Write(schema, array);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  schema.children = nullptr;
  status = (*writer)->Write(schema, array);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
}

}  // namespace
}  // namespace pyfileindex
