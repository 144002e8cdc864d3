// WriterMemoryPolicy changes what a writer does to the process's heap, never the bytes: a
// container built with heap trimming allowed equals the one built without, on columns large
// enough that the bitmap writer takes its trimming paths (a dictionary of many keys, the row
// lists of many rare keys).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "arrow_batch.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

// Two rows of each of kKeys distinct values in shuffled order, every 7th row null.
constexpr int64_t kKeys = 150000;
constexpr int64_t kRows = 2 * kKeys;

std::vector<uint8_t> Build(const Options& options,
                           const std::optional<WriterMemoryPolicy>& memory) {
  std::vector<int64_t> order(kRows);
  for (int64_t i = 0; i < kRows; ++i) order[i] = i / 2;
  std::mt19937_64 rng(47);
  std::shuffle(order.begin(), order.end(), rng);

  test_arrow::OwnedColumn name("name", "u", kRows);
  test_arrow::OwnedColumn id("id", "l", kRows);
  int64_t nulls = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    name.AppendString("key-" + std::to_string(order[i] * 7919 % 1000003));
    id.int64_values.push_back(order[i] * 1000003);
    if (i % 7 == 3) {
      name.SetNull(i);
      id.SetNull(i);
      ++nulls;
    }
  }
  name.Finish(kRows, nulls);
  id.Finish(kRows, nulls);
  test_arrow::OwnedBatch batch({&name, &id}, kRows);

  std::vector<Field> fields = {{"name", *ParseDataType("STRING")},
                               {"id", *ParseDataType("BIGINT")}};
  auto writer = memory ? FileIndexWriter::Make(fields, options, *memory)
                       : FileIndexWriter::Make(fields, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  Status written = (*writer)->Write(batch.schema, batch.array);
  EXPECT_TRUE(written.ok()) << written.ToString();
  auto bytes = (*writer)->Finish();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok() || !bytes->has_value()) return {};
  return std::move(**bytes);
}

TEST(WriterMemoryPolicyTest, TrimsNothingUnlessAsked) {
  EXPECT_FALSE(WriterMemoryPolicy().trim_process_heap);
}

TEST(WriterMemoryPolicyTest, TrimmingTheHeapLeavesTheBytesAsTheyAre) {
  for (const char* version : {"1", "2"}) {
    SCOPED_TRACE(std::string("bitmap version ") + version);
    Options options;
    options.Set("file-index.bitmap.columns", "name,id");
    options.Set("file-index.bitmap.name.version", version);
    options.Set("file-index.bitmap.id.version", version);
    options.Set("file-index.range-bitmap.columns", "id");
    WriterMemoryPolicy trim;
    trim.trim_process_heap = true;
    const std::vector<uint8_t> plain = Build(options, std::nullopt);
    const std::vector<uint8_t> trimmed = Build(options, trim);
    const std::vector<uint8_t> explicit_default = Build(options, WriterMemoryPolicy());
    ASSERT_FALSE(plain.empty());
    EXPECT_EQ(trimmed, plain);
    EXPECT_EQ(explicit_default, plain);
  }
}

}  // namespace
}  // namespace pyfileindex
