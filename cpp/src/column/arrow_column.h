// Arrow C Data Interface -> ColumnBatch, for every layout pyarrow produces for Paimon's types.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "column/column_batch.h"
#include "pyfileindex/arrow_c_abi.h"
#include "pyfileindex/status.h"

namespace pyfileindex::column {

// Owns whatever a batch needed to convert (booleans unpacked, string views, widened integers,
// gathered map values); the Arrow buffers themselves are borrowed for the call only.
class ColumnBatchHolder {
 public:
  ColumnBatch batch;

  std::vector<uint8_t> scratch_bytes;
  std::vector<int64_t> scratch_int64;
  std::vector<std::string_view> scratch_strings;
  std::vector<uint8_t> scratch_validity;
  std::unique_ptr<ColumnBatchHolder> dictionary;  // a kept dictionary's values
};

// Views `array` (described by `schema`) as values of the Paimon type `type`. Errors name the
// Arrow format and the Paimon type when they do not fit. `holder` must outlive the batch.
// The batch forms a consumer takes besides the plain one (see ColumnBatch).
struct BatchForms {
  // A dictionary array of strings with int32 indices and no null values stays encoded
  // (ColumnBatch::dictionary); otherwise, and for every other layout, rows are gathered.
  bool dictionary = false;
  // utf8 / binary (32- or 64-bit offsets) arrays keep Arrow's offsets (ColumnBatch::
  // string_data) instead of getting a view per row.
  bool string_offsets = false;
};
Status MakeColumnBatch(const ArrowSchema& schema, const ArrowArray& array, const DataType& type,
                       ColumnBatchHolder* holder, BatchForms forms = {});

// For a MAP<K, V> column: the values of key `key` per row (null where the map is null or lacks
// the key), as a batch of `value_type`.
Status MakeMapValueBatch(const ArrowSchema& schema, const ArrowArray& array,
                         const DataType& map_type, std::string_view key,
                         ColumnBatchHolder* holder);

}  // namespace pyfileindex::column
