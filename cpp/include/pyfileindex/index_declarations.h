/// @file
/// The file indexes a table's options declare for a data file, read as FileIndexWriter reads
/// them: for callers that prepare a write (which columns to read, and in which form).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pyfileindex/data_type.h"
#include "pyfileindex/export.h"
#include "pyfileindex/options.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// What a table option key means to the file index, read as Java's FileIndexOptions and
/// DataFileIndexWriter read it.
struct IndexOptionKey {
  enum class Kind : uint8_t {
    kOther,        ///< not under "file-index."
    kColumns,      ///< file-index.<type>.columns
    kIndexOption,  ///< file-index.<type>.<column>.<option>: exactly three parts
    kTableLevel,   ///< file-index.in-manifest-threshold, file-index.read.enabled
    kIgnored,      ///< any other key under "file-index.": Java ignores it too
  };
  Kind kind = Kind::kOther;
  std::string index_type;  ///< kColumns and kIndexOption
  std::string column;      ///< kIndexOption: "f0", or "m[k]"
  std::string option;      ///< kIndexOption: "fpp", "version", ...
};

/// The meaning of one table option key (see IndexOptionKey).
PYFILEINDEX_EXPORT IndexOptionKey ParseIndexOptionKey(std::string_view key);

/// One piece of a `file-index.<type>.columns` value.
struct IndexColumnName {
  std::string name;    ///< the piece trimmed of characters <= ' ' (Java's String.trim)
  bool blank = false;  ///< whitespace only (Character.isWhitespace): Paimon refuses it
};

/// The pieces of a `file-index.<type>.columns` value, as Java's value.split(",") gives them
/// (trailing empty pieces dropped).
PYFILEINDEX_EXPORT std::vector<IndexColumnName> SplitIndexColumns(std::string_view value);

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
