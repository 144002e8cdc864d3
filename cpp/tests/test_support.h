// Helpers the C++ tests share: where ../shared is, file bytes and hex text, data types, and
// columns that own the buffers a ColumnBatch points into.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "column/column_batch.h"
#include "pyfileindex/data_type.h"

namespace pyfileindex::test_support {

// The shared/ folder beside the checkout ($PYFILEINDEX_SHARED_DIR overrides it).
std::string SharedDir();

// The whole file; a file that cannot be opened fails the calling test (and gives no bytes).
std::vector<uint8_t> ReadFileBytes(const std::string& path);

// Pairs of hex digits, either case; anything else (spaces) only separates them.
std::vector<uint8_t> FromHex(const std::string& text);
std::string ToHex(const std::vector<uint8_t>& bytes);

// The payload of (column, index type) in the index file at `path`; a file without one fails
// the calling test (and gives no bytes).
std::vector<uint8_t> IndexPayload(const std::string& path, const std::string& column,
                                  const std::string& index_type);

// The parsed type; text that does not parse fails the calling test (and gives a default type).
DataType Type(const std::string& text);

// Owns the buffers its batch points into. Not movable: the batch keeps raw pointers.
struct TestColumn {
  DataType type;
  std::vector<uint8_t> validity;
  std::vector<int8_t> i8;
  std::vector<int16_t> i16;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<uint8_t> wide;  // 16-byte little-endian decimals
  std::vector<std::string> text;
  std::vector<std::string_view> views;
  column::ColumnBatch batch;

  TestColumn() = default;
  TestColumn(const TestColumn&) = delete;
  TestColumn& operator=(const TestColumn&) = delete;

  // Row i is null where is_null[i]; sets the batch's validity bitmap and null count.
  void SetNulls(const std::vector<bool>& is_null);
};

// A fixed-width column: `values` go to the member `storage` and the batch reads them there.
template <typename T>
std::unique_ptr<TestColumn> Fixed(const std::string& type_text, column::Physical physical,
                                  std::vector<T> TestColumn::*storage, std::vector<T> values,
                                  const std::vector<bool>& is_null = {}) {
  auto column = std::make_unique<TestColumn>();
  column->type = Type(type_text);
  std::vector<T>& stored = column.get()->*storage;
  stored = std::move(values);
  column->batch.type = &column->type;
  column->batch.physical = physical;
  column->batch.length = static_cast<int64_t>(stored.size());
  column->batch.values = stored.data();
  if (!is_null.empty()) column->SetNulls(is_null);
  return column;
}

std::unique_ptr<TestColumn> Strings(const std::string& type_text, std::vector<std::string> values,
                                    const std::vector<bool>& is_null = {});

std::unique_ptr<TestColumn> Timestamps(const std::string& type_text, column::TimeUnit unit,
                                       std::vector<int64_t> values,
                                       const std::vector<bool>& is_null = {});

// A dictionary-encoded string column: row i is the value codes[i] of `values` (which must
// outlive it), or null where is_null[i] (a null row's code is never read).
std::unique_ptr<TestColumn> DictionaryEncoded(const TestColumn& values, std::vector<int32_t> codes,
                                              const std::vector<bool>& is_null = {});

// Rows [begin, begin + length) of `full`, reading the same buffers (validity offset carried,
// null count that of the slice).
column::ColumnBatch SliceRows(const column::ColumnBatch& full, int64_t begin, int64_t length);

}  // namespace pyfileindex::test_support
