// A container over rows of four columns (id BIGINT, score INT, name STRING, price DOUBLE) whose
// values all come from one key per row: the reader's damage test (test_reader_fuzz.cc) mutates
// such containers, and the fuzz seed writer (cpp/fuzz/make_seeds.cc) saves them as seeds.
// Header-only, as arrow_batch.h: the seed writer links no test library.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arrow_batch.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/options.h"
#include "pyfileindex/status.h"
#include "pyfileindex/writer.h"

namespace pyfileindex::test_arrow {

inline std::vector<Field> KeyedFields() {
  auto type = [](const char* name) { return ParseDataType(name).ValueOrDie(); };
  return {{"id", type("BIGINT")}, {"score", type("INT")}, {"name", type("STRING")},
          {"price", type("DOUBLE")}};
}

// One row per key, nulls (in every column) every `null_every` rows (0: none), indexed as
// `options` say; the writer's error, or Internal when it wrote no index.
inline Result<std::vector<uint8_t>> KeyedContainer(const std::vector<uint64_t>& keys,
                                                   int64_t null_every, const Options& options) {
  const auto rows = static_cast<int64_t>(keys.size());
  OwnedColumn id("id", "l", rows), score("score", "i", rows), name("name", "u", rows),
      price("price", "g", rows);
  int64_t nulls = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const uint64_t key = keys[static_cast<size_t>(row)];
    id.int64_values.push_back(static_cast<int64_t>(key) * 1000003 - 77);
    score.int32_values.push_back(static_cast<int32_t>(key));
    name.AppendString("name-" + std::to_string(key));
    price.double_values.push_back(static_cast<double>(key) / 7);
    if (null_every > 0 && row % null_every == 0) {
      for (auto* column : {&id, &score, &name, &price}) column->SetNull(row);
      ++nulls;
    }
  }
  for (auto* column : {&id, &score, &name, &price}) column->Finish(rows, nulls);
  OwnedBatch batch({&id, &score, &name, &price}, rows);
  PFI_ASSIGN_OR_RETURN(auto writer, FileIndexWriter::Make(KeyedFields(), options));
  PFI_RETURN_NOT_OK(writer->Write(batch.schema, batch.array));
  PFI_ASSIGN_OR_RETURN(auto finished, writer->Finish());
  if (!finished.has_value()) return Status::Internal("the writer wrote no index");
  return std::move(*finished);
}

}  // namespace pyfileindex::test_arrow
