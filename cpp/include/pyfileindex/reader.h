/// @file
/// Reads a file-index container (the bytes Paimon writes as a data file's `.index` sidecar or
/// embeds in the manifest) and evaluates predicates against it.
///
///   auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), fields);
///   if (!reader.ok()) return reader.status();
///   auto result = (*reader)->Evaluate(*predicate);  // REMAIN, SKIP or rows
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pyfileindex/data_type.h"
#include "pyfileindex/export.h"
#include "pyfileindex/file_index_result.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/predicate.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// One (column, index type) record of the container header.
struct IndexEntry {
  std::string column;      ///< the indexed column ("m[k]" for the key k of a MAP column m)
  std::string index_type;  ///< "bitmap", "bloom-filter", "bsi", "range-bitmap", or unknown
  int64_t offset = -1;  ///< absolute, from the container's first byte; -1 for an empty index
  int64_t length = 0;   ///< payload bytes
  /// An "empty index": the writer saw no record for this column.
  bool empty() const { return offset < 0; }
};

/// How FileIndexReader::Open reads a container.
struct OpenOptions {
  /// The data file's row count (the manifest's), or -1 when unknown. An index that stores
  /// another row count was written for other rows or is damaged: it is corrupt, and every
  /// question it would answer gives Corrupt (checked when the index is first used, since
  /// index bodies are read lazily). A damaged count otherwise decides the size of `!=` and
  /// NOT IN answers.
  int64_t row_count = -1;
  /// The most dictionary entries one LIKE-family leaf (STARTS WITH, ENDS WITH, CONTAINS, LIKE,
  /// NOT LIKE) may read from a bitmap or range-bitmap index; a leaf that would read more answers
  /// REMAIN. A prefix on a range-bitmap index reads no entries. Must not be negative.
  int64_t dictionary_scan_limit = kDefaultDictionaryScanLimit;
  static constexpr int64_t kDefaultDictionaryScanLimit = 100000;
};

/// An opened file-index container.
///
/// Thread safety: after Open() returns, one FileIndexReader may be used from any number of
/// threads at once, every method included. Index bodies are parsed lazily on first use, each
/// exactly once (guarded internally), and never change afterwards; results are independent
/// values.
///
/// Errors: every method returns Status/Result and never throws; corrupt index bytes give
/// Corrupt, a bad predicate InvalidArgument. Nothing is read outside [data, data + size).
class PYFILEINDEX_EXPORT FileIndexReader {
 public:
  virtual ~FileIndexReader() = default;

  /// Opens container bytes owned by the caller, without copying them: they must stay valid and
  /// unchanged while the reader lives (`keep_alive` is held by the reader for that purpose when
  /// given, e.g. the shared_ptr of a memory-mapped file). Reads only the header here (Corrupt
  /// when it is damaged); index bodies are read when a predicate needs them. `fields` is the
  /// row type the index was written for (each name once: InvalidArgument otherwise): a column
  /// absent from it, or whose type an index cannot read, answers REMAIN.
  static Result<std::shared_ptr<FileIndexReader>> Open(const uint8_t* data, size_t size,
                                                       std::vector<Field> fields,
                                                       std::shared_ptr<const void> keep_alive = {});
  /// Same, with `options` (OpenOptions::row_count: InvalidArgument when below -1).
  static Result<std::shared_ptr<FileIndexReader>> Open(const uint8_t* data, size_t size,
                                                       std::vector<Field> fields,
                                                       const OpenOptions& options,
                                                       std::shared_ptr<const void> keep_alive = {});

  /// The (column, index type) records of the container, in container order.
  virtual const std::vector<IndexEntry>& entries() const = 0;

  /// What the indexes say about `predicate`: SKIP (no row can match), REMAIN (cannot tell) or
  /// the rows that may match (a superset of the true matches: the engine still filters them).
  /// Leaves on columns without a usable index answer REMAIN; several indexes on one column are
  /// intersected; AND / OR combine as in Paimon.
  virtual Result<FileIndexResult> Evaluate(const Predicate& predicate) const = 0;

  /// TopN within `selection` (all rows when null), answered by an index that supports it
  /// (range-bitmap); REMAIN otherwise.
  virtual Result<FileIndexResult> EvaluateTopN(const TopN& top_n,
                                               const RowBitmap* selection) const = 0;

  /// The exact number of rows where `predicate` is TRUE (SQL semantics: a NULL never matches),
  /// leaving out the rows of `excluded` (e.g. a deletion vector; none when null), answered
  /// from the indexes alone; nullopt when they cannot answer exactly. Exact answers: the rows
  /// of bitmap, range-bitmap and bsi indexes where they hold every value exactly (not FLOAT /
  /// DOUBLE comparisons, nor TIMESTAMP equality on a bitmap), SKIP from any index (no row
  /// matches), and AND / OR of exact answers (an AND with one exact empty child is empty).
  /// Reads the row count of the answer's bitmap; no row position is copied out.
  virtual Result<std::optional<uint64_t>> Count(const Predicate& predicate,
                                                const RowBitmap* excluded = nullptr) const = 0;

  /// The smallest and largest non-NULL value of `column` within `selection` (all rows when
  /// null), from its range-bitmap index (the header's min/max keys, or with a selection the
  /// keys of the selection's lowest and highest codes). FLOAT / DOUBLE follow Java's order:
  /// -0.0 below 0.0, NaN above +Infinity. nullopt when no selected row holds a value; NotFound
  /// when the column has no range-bitmap index.
  virtual Result<std::optional<std::pair<Literal, Literal>>> MinMax(
      const std::string& column, const RowBitmap* selection = nullptr) const = 0;

  /// Per index: version, row count, cardinality, null count... as "key: value" pairs for tools.
  /// NotFound when `entry` is not one of entries().
  virtual Result<std::vector<std::pair<std::string, std::string>>> Describe(
      const IndexEntry& entry) const = 0;
};

}  // namespace pyfileindex
