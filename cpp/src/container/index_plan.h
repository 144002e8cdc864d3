// IndexPlan: which index writers a data file gets from the table options, and the order Java
// lays their payloads out in the container.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "index/index_type.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/options.h"
#include "pyfileindex/status.h"

namespace pyfileindex::container {

// One (column, index type) writer.
struct PlannedIndex {
  std::string output_name;              // name in the container: "f0", or "m[k]" for a map key
  size_t field_index = 0;               // the data file field it reads
  std::optional<std::string> map_key;   // set for "m[k]" indexes
  const index::IndexType* type = nullptr;
  Options options;                      // this writer's options ("version", "items", ...)
  const DataType* value_type = nullptr; // column type, or the map's value type
};

struct IndexPlan {
  std::vector<PlannedIndex> indexes;
  // Container order: output columns in Java's order, each with its indexes (into `indexes`).
  std::vector<std::pair<std::string, std::vector<size_t>>> layout;
  int64_t in_manifest_threshold = 500;
  // Table options under "file-index." that have no effect (Java ignores them as well), e.g. a
  // per-index option without its column: "file-index.bloom-filter.fpp".
  std::vector<std::string> ignored_options;
};

// `fields` must outlive the plan (value_type points into it). Replays FileIndexOptions and
// DataFileIndexWriter: table options -> per-column index declarations -> writers.
Result<IndexPlan> PlanIndexes(const std::vector<Field>& fields, const Options& table_options);

}  // namespace pyfileindex::container
