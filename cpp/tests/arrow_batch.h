// Arrow C data made by hand for tests of the public writer: a column that owns its buffers,
// and a record batch (a struct array) over such columns. Header-only, so the concurrency
// test's own executable can use it too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pyfileindex/arrow_c_abi.h"

namespace pyfileindex::test_arrow {

// One column with its buffers, owned here; `schema` / `array` point into it. Fill the values
// of its format ("l" int64, "i" int32, "g" double, "u" utf8: offsets and chars), clear
// validity bits for nulls, then call Finish.
struct OwnedColumn {
  std::string name;
  std::string format;
  std::vector<uint8_t> validity;
  std::vector<int64_t> int64_values;
  std::vector<int32_t> int32_values;
  std::vector<double> double_values;
  std::vector<int32_t> offsets;
  std::string chars;
  const void* buffers[3] = {nullptr, nullptr, nullptr};
  ArrowSchema schema{};
  ArrowArray array{};

  OwnedColumn() = default;
  OwnedColumn(std::string column_name, std::string column_format, int64_t rows)
      : name(std::move(column_name)),
        format(std::move(column_format)),
        validity(static_cast<size_t>((rows + 7) / 8), 0xFF) {
    if (format == "u") offsets.push_back(0);
  }
  OwnedColumn(const OwnedColumn&) = delete;  // schema and array point into it
  OwnedColumn& operator=(const OwnedColumn&) = delete;

  void SetNull(int64_t row) {
    validity[static_cast<size_t>(row / 8)] &= static_cast<uint8_t>(~(1u << (row % 8)));
  }
  void AppendString(const std::string& value) {
    chars += value;
    offsets.push_back(static_cast<int32_t>(chars.size()));
  }

  void Finish(int64_t length, int64_t null_count) {
    buffers[0] = null_count > 0 ? validity.data() : nullptr;
    int64_t n_buffers = 2;
    if (format == "l") buffers[1] = int64_values.data();
    if (format == "i") buffers[1] = int32_values.data();
    if (format == "g") buffers[1] = double_values.data();
    if (format == "u") {
      buffers[1] = offsets.data();
      buffers[2] = chars.data();
      n_buffers = 3;
    }
    schema = ArrowSchema{format.c_str(), name.c_str(), nullptr, ARROW_FLAG_NULLABLE, 0, nullptr,
                         nullptr, [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
    array = ArrowArray{length, null_count, 0, n_buffers, 0, buffers, nullptr, nullptr,
                       [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  }
};

// A record batch of finished columns of `length` rows each: what FileIndexWriter::Write takes.
struct OwnedBatch {
  std::vector<ArrowSchema*> schema_children;
  std::vector<ArrowArray*> array_children;
  const void* struct_buffers[1] = {nullptr};
  ArrowSchema schema{};
  ArrowArray array{};

  OwnedBatch(const std::vector<OwnedColumn*>& columns, int64_t length) {
    for (OwnedColumn* column : columns) {
      schema_children.push_back(&column->schema);
      array_children.push_back(&column->array);
    }
    const auto n = static_cast<int64_t>(columns.size());
    schema = ArrowSchema{"+s", "", nullptr, 0, n, schema_children.data(), nullptr,
                         [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
    array = ArrowArray{length, 0, 0, 1, n, struct_buffers, array_children.data(), nullptr,
                       [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  }
  OwnedBatch(const OwnedBatch&) = delete;
  OwnedBatch& operator=(const OwnedBatch&) = delete;
};

}  // namespace pyfileindex::test_arrow
