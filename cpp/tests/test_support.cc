#include "test_support.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "container/container_format.h"
#include "io/byte_span.h"

namespace pyfileindex::test_support {

using column::ColumnBatch;
using column::Physical;

std::string SharedDir() {
  if (const char* env = std::getenv("PYFILEINDEX_SHARED_DIR")) return env;
#ifdef PYFILEINDEX_SOURCE_DIR
  return std::string(PYFILEINDEX_SOURCE_DIR) + "/../shared";
#else
  return "../shared";
#endif
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> FromHex(const std::string& text) {
  std::vector<uint8_t> out;
  int high = -1;
  for (const char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) continue;
    const int digit = std::isdigit(static_cast<unsigned char>(c))
                          ? c - '0'
                          : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    if (high < 0) {
      high = digit;
    } else {
      out.push_back(static_cast<uint8_t>(high * 16 + digit));
      high = -1;
    }
  }
  EXPECT_LT(high, 0) << "odd number of hex digits in: " << text;
  return out;
}

std::string ToHex(const std::vector<uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

std::vector<uint8_t> IndexPayload(const std::string& path, const std::string& column,
                                  const std::string& index_type) {
  const std::vector<uint8_t> file = ReadFileBytes(path);
  auto entries = container::ReadContainerHeader(io::ByteSpan(file));
  EXPECT_TRUE(entries.ok()) << path << ": " << entries.status().ToString();
  if (!entries.ok()) return {};
  for (const IndexEntry& entry : *entries) {
    if (entry.column == column && entry.index_type == index_type) {
      return std::vector<uint8_t>(file.begin() + entry.offset,
                                  file.begin() + entry.offset + entry.length);
    }
  }
  ADD_FAILURE() << "no " << index_type << " index for " << column << " in " << path;
  return {};
}

DataType Type(const std::string& text) {
  Result<DataType> type = ParseDataType(text);
  EXPECT_TRUE(type.ok()) << text << ": " << type.status().ToString();
  return type.ok() ? *type : DataType();
}

void TestColumn::SetNulls(const std::vector<bool>& is_null) {
  validity.assign((is_null.size() + 7) / 8, 0);
  int64_t nulls = 0;
  for (size_t i = 0; i < is_null.size(); ++i) {
    if (is_null[i]) {
      ++nulls;
    } else {
      validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
  }
  batch.validity = validity.data();
  batch.null_count = nulls;
}

std::unique_ptr<TestColumn> Strings(const std::string& type_text, std::vector<std::string> values,
                                    const std::vector<bool>& is_null) {
  auto column = std::make_unique<TestColumn>();
  column->type = Type(type_text);
  column->text = std::move(values);
  for (const std::string& s : column->text) column->views.emplace_back(s);
  column->batch.type = &column->type;
  column->batch.physical = Physical::kBytes;
  column->batch.length = static_cast<int64_t>(column->text.size());
  column->batch.strings = column->views.data();
  if (!is_null.empty()) column->SetNulls(is_null);
  return column;
}

std::unique_ptr<TestColumn> Timestamps(const std::string& type_text, column::TimeUnit unit,
                                       std::vector<int64_t> values,
                                       const std::vector<bool>& is_null) {
  auto column = Fixed(type_text, Physical::kTimestamp, &TestColumn::i64, std::move(values),
                      is_null);
  column->batch.timestamp_unit = unit;
  return column;
}

std::unique_ptr<TestColumn> DictionaryEncoded(const TestColumn& values, std::vector<int32_t> codes,
                                              const std::vector<bool>& is_null) {
  auto column = std::make_unique<TestColumn>();
  column->type = values.type;
  column->i32 = std::move(codes);
  column->batch.type = &column->type;
  column->batch.physical = Physical::kBytes;
  column->batch.length = static_cast<int64_t>(column->i32.size());
  column->batch.dictionary = &values.batch;
  column->batch.dictionary_indices = column->i32.data();
  if (!is_null.empty()) column->SetNulls(is_null);
  return column;
}

ColumnBatch SliceRows(const ColumnBatch& full, int64_t begin, int64_t length) {
  ColumnBatch part = full;
  part.length = length;
  part.validity_offset = full.validity_offset + begin;
  part.null_count = 0;
  for (int64_t i = 0; i < length; ++i) part.null_count += part.IsValid(i) ? 0 : 1;
  if (full.physical == Physical::kBytes) {
    // Whichever form the strings are in: views, dictionary codes or Arrow offsets.
    if (full.strings != nullptr) part.strings = full.strings + begin;
    if (full.dictionary_indices != nullptr) {
      part.dictionary_indices = full.dictionary_indices + begin;
    }
    if (full.offsets32 != nullptr) part.offsets32 = full.offsets32 + begin;
    if (full.offsets64 != nullptr) part.offsets64 = full.offsets64 + begin;
  } else {
    part.values = static_cast<const uint8_t*>(full.values) +
                  static_cast<size_t>(begin) * column::ValueWidth(full.physical);
  }
  return part;
}

}  // namespace pyfileindex::test_support
