/// @file
/// The file indexes a table's options declare for a data file, read as FileIndexWriter reads
/// them: for callers that prepare a write (which columns to read, and in which form).
#pragma once

#include <string>
#include <vector>

#include "pyfileindex/data_type.h"
#include "pyfileindex/export.h"
#include "pyfileindex/options.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// One index the table options declare on one column (or one key of a MAP column).
struct IndexDeclaration {
  std::string column;      ///< the container's name for it: "f0", or "m[k]" for key k of MAP m
  std::string field;       ///< the row type's field it reads: "f0", or "m"
  std::string index_type;  ///< "bitmap", "bloom-filter", "bsi" or "range-bitmap"
  /// True when the index's writer takes the column as a dictionary-encoded array of strings
  /// as it is, working once per distinct value instead of once per row. False for map keys
  /// and for columns of other types (their dictionaries are decoded row by row first).
  bool takes_dictionaries = false;
};

/// The indexes `table_options` declare for a data file of row type `fields`, in the order the
/// container lays them out; empty when the options declare none. Options are checked exactly
/// as FileIndexWriter::Make checks them, with the same errors.
PYFILEINDEX_EXPORT Result<std::vector<IndexDeclaration>> DeclaredIndexes(
    const std::vector<Field>& fields, const Options& table_options);

}  // namespace pyfileindex
