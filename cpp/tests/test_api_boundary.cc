// The public API's boundary promises: malformed input from an engine (null pointers, absurd
// predicate trees, broken Arrow structs) gives a Status, never a crash or an exception.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pyfileindex/reader.h"
#include "pyfileindex/row_bitmap.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

// A writer over one INT column "x" holding 1, 2, 1, 3, with the indexes `options` declare.
std::unique_ptr<FileIndexWriter> SmallWriter(const Options& options) {
  static const std::vector<int32_t> values = {1, 2, 1, 3};
  static const void* buffers[2] = {nullptr, values.data()};
  ArrowArray column{4, 0, 0, 2, 0, buffers, nullptr, nullptr,
                    [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema column_schema{"i", "x", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                            [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  auto writer = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return nullptr;
  EXPECT_TRUE((*writer)->WriteColumn("x", column_schema, column).ok());
  return std::move(writer).ValueOrDie();
}

Options IndexedOptions() {
  Options options;
  options.Set("file-index.bitmap.columns", "x");
  options.Set("file-index.bloom-filter.columns", "x");
  options.Set("file-index.range-bitmap.columns", "x");
  return options;
}

std::vector<uint8_t> SmallContainer() {
  Options options;
  options.Set("file-index.bitmap.columns", "x");
  auto writer = SmallWriter(options);
  if (!writer) return {};
  auto bytes = writer->Finish();
  EXPECT_TRUE(bytes.ok() && bytes->has_value());
  return bytes.ok() && bytes->has_value() ? **bytes : std::vector<uint8_t>();
}

// FinishInto's allocator: a vector given as the context, counting its calls.
struct Destination {
  std::vector<uint8_t> bytes;
  int calls = 0;
  bool refuse = false;
};
uint8_t* AllocateIn(void* context, size_t size) {
  auto* destination = static_cast<Destination*>(context);
  ++destination->calls;
  if (destination->refuse) return nullptr;
  destination->bytes.resize(size);
  return destination->bytes.data();
}

TEST(ApiBoundary, FinishIntoWritesWhatFinishReturns) {
  auto expected = SmallWriter(IndexedOptions())->Finish();
  ASSERT_TRUE(expected.ok() && expected->has_value());
  Destination destination;
  auto written = SmallWriter(IndexedOptions())->FinishInto(AllocateIn, &destination);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_TRUE(*written);
  EXPECT_EQ(destination.calls, 1);
  EXPECT_EQ(destination.bytes, **expected);
}

TEST(ApiBoundary, FinishIntoWithoutIndexesAllocatesNothing) {
  Destination destination;
  auto written = SmallWriter(Options())->FinishInto(AllocateIn, &destination);
  ASSERT_TRUE(written.ok());
  EXPECT_FALSE(*written);
  EXPECT_EQ(destination.calls, 0);
}

TEST(ApiBoundary, FinishIntoReportsARefusedAllocation) {
  Destination destination;
  destination.refuse = true;
  auto writer = SmallWriter(IndexedOptions());
  auto written = writer->FinishInto(AllocateIn, &destination);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.status().message().find("out of memory"), std::string::npos);
  EXPECT_FALSE(writer->FinishInto(AllocateIn, &destination).ok());  // once only
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

TEST(ApiBoundary, EvaluateChecksEveryLeafsLiteralsBeforeAnIndexSeesThem) {
  // The index readers rely on this check (index_type.h, ColumnIndexReader::Visit): a leaf
  // with the wrong number of literals never reaches them, whatever index the column has.
  Options options = IndexedOptions();
  options.Set("file-index.bsi.columns", "x");
  auto writer = SmallWriter(options);
  ASSERT_TRUE(writer);
  auto bytes = writer->Finish();
  ASSERT_TRUE(bytes.ok() && bytes->has_value()) << bytes.status().ToString();
  auto reader = FileIndexReader::Open((*bytes)->data(), (*bytes)->size(),
                                      {{"x", *ParseDataType("INT")}});
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const std::vector<PredicatePtr> bad = {
      Predicate::Leaf(PredicateOp::kEqual, "x", {}),
      Predicate::Leaf(PredicateOp::kNotEqual, "x", {Literal::Int(1), Literal::Int(2)}),
      Predicate::Leaf(PredicateOp::kLessThan, "x", {}),
      Predicate::Leaf(PredicateOp::kBetween, "x", {Literal::Int(1)}),
      Predicate::Leaf(PredicateOp::kIsNull, "x", {Literal::Int(1)}),
      Predicate::Leaf(PredicateOp::kGreaterThan, "x", {Literal::Null()}),
  };
  for (const PredicatePtr& leaf : bad) {
    auto answer = (*reader)->Evaluate(*leaf);
    ASSERT_FALSE(answer.ok()) << leaf->ToString();
    EXPECT_EQ(answer.status().code(), StatusCode::kInvalidArgument) << leaf->ToString();
    EXPECT_NE(answer.status().message().find("'x'"), std::string::npos)
        << answer.status().message();
  }
  auto good = (*reader)->Evaluate(*Predicate::Leaf(PredicateOp::kBetween, "x",
                                                   {Literal::Int(2), Literal::Int(3)}));
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  ASSERT_TRUE(good->is_rows());
  EXPECT_EQ(good->rows().ToVector(), (std::vector<uint32_t>{1, 3}));
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


// Every option name an index reads is accepted; any other per-index name is an error naming
// the key and the index's real options (Java would build with the defaults, silently).
TEST(ApiBoundary, MakeRejectsOptionNamesAnIndexDoesNotHave) {
  const std::vector<Field> fields = {{"x", *ParseDataType("INT")}};
  const std::vector<std::pair<std::string, std::string>> known = {
      {"bitmap", "version"}, {"bitmap", "index-block-size"}, {"bloom-filter", "items"},
      {"bloom-filter", "fpp"}, {"range-bitmap", "chunk-size"}};
  const std::vector<std::string> values = {"1", "16kb", "100", "0.05", "64kb"};
  for (size_t i = 0; i < known.size(); ++i) {
    Options options;
    options.Set("file-index." + known[i].first + ".columns", "x");
    options.Set("file-index." + known[i].first + ".x." + known[i].second, values[i]);
    auto writer = FileIndexWriter::Make(fields, options);
    EXPECT_TRUE(writer.ok()) << known[i].first << "." << known[i].second << ": "
                             << writer.status().ToString();
  }
  const std::vector<std::pair<std::string, std::string>> unknown = {
      {"bitmap", "block-size"}, {"bloom-filter", "fppp"}, {"bsi", "version"},
      {"range-bitmap", "chunk_size"}};
  for (const auto& [type, name] : unknown) {
    Options options;
    options.Set("file-index." + type + ".columns", "x");
    const std::string key = "file-index." + type + ".x." + name;
    options.Set(key, "1");
    auto writer = FileIndexWriter::Make(fields, options);
    ASSERT_FALSE(writer.ok()) << key;
    EXPECT_EQ(writer.status().code(), StatusCode::kInvalidArgument);
    const std::string message = writer.status().message();
    EXPECT_NE(message.find("'" + key + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("no option '" + name + "'"), std::string::npos) << message;
  }
}

// Keys under file-index. that Java ignores stay accepted (Java-written tables carry some) and
// are reported, in the order given; the ones that mean something are not.
TEST(ApiBoundary, MakeReportsFileIndexOptionsWithoutEffect) {
  Options options;
  options.Set("file-index.bloom-filter.fpp", "0.01");  // no column: Java ignores it
  options.Set("file-index.bloom-filter.columns", "x");
  options.Set("file-index.bloom-filter.x.items", "50");
  options.Set("file-index.in-manifest-threshold", "1kb");
  options.Set("file-index.read.enabled", "true");
  options.Set("file-index.bitmap.version", "1");
  options.Set("file-index.bloom-filter.x.y.fpp", "0.5");  // four parts: ignored
  options.Set("bucket", "4");                             // not a file index option
  auto writer = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_EQ((*writer)->ignored_options(),
            (std::vector<std::string>{"file-index.bloom-filter.fpp", "file-index.bitmap.version",
                                      "file-index.bloom-filter.x.y.fpp"}));
  auto plain = FileIndexWriter::Make({{"x", *ParseDataType("INT")}}, IndexedOptions());
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE((*plain)->ignored_options().empty());
}

TEST(ApiBoundary, TypeParametersStayInJavasRanges) {
  // Java's types refuse these in their constructors (lengths from 1, precisions 0..9, DECIMAL
  // 1..38 with scale <= precision); a CHAR(0) field once parsed here.
  for (const char* refused : {"CHAR(0)", "VARCHAR(0)", "BINARY(0)", "VARBINARY(0)",
                              "VARCHAR(2147483648)", "DECIMAL(39, 0)", "DECIMAL(5, 6)",
                              "DECIMAL(0)", "TIME(10)", "TIMESTAMP(10)", "TIMESTAMP_LTZ(10)"}) {
    EXPECT_FALSE(ParseDataType(refused).ok()) << refused;
  }
  EXPECT_EQ(ParseDataType("CHAR")->precision, 1);
  EXPECT_EQ(ParseDataType("VARCHAR(2147483647)")->ToString(), "STRING");
  EXPECT_EQ(ParseDataType("DECIMAL(38, 38)")->ToString(), "DECIMAL(38, 38)");
  EXPECT_EQ(ParseDataType("TIMESTAMP(9)")->ToString(), "TIMESTAMP(9)");
}

TEST(ApiBoundary, RowTypesNameEachFieldOnce) {
  // Fields are matched by name; a row type naming one twice made a reader decode an index
  // with the wrong field's type (a bitmap V2 read as STRING keys reported corruption).
  const std::vector<Field> twice = {{"x", *ParseDataType("INT")}, {"x", *ParseDataType("STRING")}};
  Options options;
  options.Set("file-index.bitmap.columns", "x");
  auto writer = FileIndexWriter::Make(twice, options);
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(writer.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(writer.status().message().find("field 'x' appears more than once"), std::string::npos);
  const uint8_t empty[1] = {0};
  auto reader = FileIndexReader::Open(empty, 0, twice);
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("field 'x' appears more than once"), std::string::npos);
}

TEST(ApiBoundary, WideRowTypesNameTheFirstRepeatedField) {
  // Narrow and wide row types are checked in different ways; both name the first field (in
  // field order) whose name came before.
  for (size_t width : {5, 40, 300}) {
    std::vector<Field> fields;
    for (size_t i = 0; i < width; ++i) {
      fields.push_back({"f" + std::to_string(width - i), *ParseDataType("INT")});
    }
    const uint8_t empty[1] = {0};
    auto unique = FileIndexReader::Open(empty, 0, fields);
    EXPECT_NE(unique.status().message().find("magic"), std::string::npos)
        << width << ": " << unique.status().ToString();  // past the row type check
    fields.push_back({"f3", *ParseDataType("STRING")});
    fields.push_back({"f2", *ParseDataType("STRING")});
    auto reader = FileIndexReader::Open(empty, 0, fields);
    ASSERT_FALSE(reader.ok()) << width;
    EXPECT_NE(reader.status().message().find("field 'f3' appears more than once"),
              std::string::npos)
        << width << ": " << reader.status().message();
  }
}

TEST(ApiBoundary, DoubleLiteralsPrintAsDoublesThatReadBack) {
  // Messages name literals; a double prints with a point (never the locale's comma), as the
  // shortest text that reads back, and never as an integer would.
  EXPECT_EQ(Literal::Double(0.1).ToString(), "0.1");
  EXPECT_EQ(Literal::Double(5).ToString(), "5.0");
  EXPECT_EQ(Literal::Double(-2).ToString(), "-2.0");
  EXPECT_EQ(Literal::Double(1e300).ToString(), "1e+300");
  EXPECT_EQ(Literal::Double(std::numeric_limits<double>::infinity()).ToString(), "inf");
  EXPECT_EQ(Literal::Int(5).ToString(), "5");
  // Messages name the kind too: a decimal 5 and an integer 5 print alike.
  EXPECT_EQ(Literal::Decimal128(0, 5, 0).Describe(), "decimal literal 5");
  EXPECT_EQ(Literal::Int(5).Describe(), "integer literal 5");
  EXPECT_EQ(Literal::Double(0.5).Describe(), "floating-point literal 0.5");
}

}  // namespace
}  // namespace pyfileindex
