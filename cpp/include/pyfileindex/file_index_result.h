/// @file
/// What a file index says about a data file for a predicate (Paimon's FileIndexResult).
#pragma once

#include <memory>

#include "pyfileindex/export.h"
#include "pyfileindex/row_bitmap.h"

namespace pyfileindex {

/// REMAIN, SKIP or a row set. An immutable value: copies share the row set, and one result may
/// be read from many threads at once.
///
///   switch (result.kind()) {
///     case FileIndexResult::Kind::kSkip:   // skip the data file
///     case FileIndexResult::Kind::kRemain: // read it all
///     case FileIndexResult::Kind::kRows:   // read result.rows().ToRanges() only
///   }
class PYFILEINDEX_EXPORT FileIndexResult {
 public:
  /// The three answers an index can give.
  enum class Kind : uint8_t {
    kRemain,  ///< the file must be read; the index cannot narrow it
    kSkip,    ///< no row can match: the file can be skipped
    kRows,    ///< only these rows can match (a superset of the true matches); may be empty
  };

  /// REMAIN: the answer that assumes nothing.
  FileIndexResult() : kind_(Kind::kRemain) {}

  /// The three kinds of answer.
  static FileIndexResult Remain() { return FileIndexResult(Kind::kRemain); }
  static FileIndexResult Skip() { return FileIndexResult(Kind::kSkip); }
  static FileIndexResult Rows(RowBitmap rows);

  /// Which answer this is.
  Kind kind() const { return kind_; }
  /// kind() == Kind::kRows.
  bool is_rows() const { return kind_ == Kind::kRows; }
  /// Paimon's remain(): REMAIN, or a non-empty row set (false means: skip the file).
  bool remain() const;
  /// The row set; only valid for kRows (check is_rows() first).
  const RowBitmap& rows() const { return *rows_; }
  /// The row set, moved out when no copy of this result shares it and copied otherwise; the
  /// result is REMAIN afterwards. Only valid for kRows.
  RowBitmap TakeRows() &&;

  /// Paimon's combination rules (FileIndexResult.and / or, BitmapIndexResult.and / or).
  FileIndexResult And(const FileIndexResult& other) const;
  FileIndexResult Or(const FileIndexResult& other) const;

 private:
  explicit FileIndexResult(Kind kind) : kind_(kind) {}

  Kind kind_;
  std::shared_ptr<const RowBitmap> rows_;  // shared: results are values, copies are cheap
};

}  // namespace pyfileindex
