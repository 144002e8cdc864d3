// The plug-in interface every index type (bitmap, bloom-filter, bsi, range-bitmap) implements.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "column/column_batch.h"
#include "io/byte_span.h"
#include "memory/heap_trim.h"
#include "pattern/like_pattern.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/file_index_result.h"
#include "pyfileindex/options.h"
#include "pyfileindex/predicate.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index {

// Bytes of one index payload inside the container (borrowed; the container owns them).
using io::ByteSpan;

// Builds one index over one column of one data file. Rows arrive in order, batch by batch;
// every row (nulls included) is offered exactly once.
class ColumnIndexWriter {
 public:
  virtual ~ColumnIndexWriter() = default;
  virtual Status Write(const column::ColumnBatch& batch) = 0;
  // True when Write takes dictionary-encoded string batches as they are (ColumnBatch::
  // dictionary); otherwise every row's value is gathered before Write sees the batch.
  virtual bool TakesDictionaries() const { return false; }
  // True when Write takes utf8/binary batches as Arrow's offsets (ColumnBatch::string_data)
  // instead of one view per row.
  virtual bool TakesStringOffsets() const { return false; }
  // A size hint, like reserve(): `rows` more rows are about to come (the caller's whole batch,
  // which it then hands over in slices). Writers whose state grows with the rows may size it.
  virtual void ExpectRows(int64_t /*rows*/) {}
  // Whether the writer may trim the C library's heap after freeing many small blocks (the
  // caller's WriterMemoryPolicy; see memory/heap_trim.h). Set before the first Write. Writers
  // that never free many small blocks at once ignore it.
  virtual void SetHeapTrim(memory::HeapTrim /*trim*/) {}
  // The payload Java writes for the rows seen so far. Called once, after the last Write.
  virtual Result<std::vector<uint8_t>> Serialize() = 0;

  // Serialize() in two steps, so that the container places the payload straight into its
  // final buffer: the exact size (once, after the last Write), then the bytes (once). Index
  // types that can write in place override both; by default Serialize()'s bytes are kept in
  // between, costing one more copy of the payload.
  virtual Result<size_t> PrepareSerialize() {
    Result<std::vector<uint8_t>> bytes = Serialize();
    if (!bytes.ok()) return bytes.status();
    prepared_ = std::move(bytes).ValueOrDie();
    return prepared_.size();
  }
  // Moves the kept bytes into `out` piece by piece, handing each copied piece's pages back,
  // so the payload and its copy (a bloom filter's whole bit set) are never both whole.
  virtual void SerializeTo(uint8_t* out);

 private:
  std::vector<uint8_t> prepared_;
};

// Answers predicates on one column from one index payload. Implementations read lazily and
// cache what they read; every method must be safe to call from several threads at once.
class ColumnIndexReader {
 public:
  virtual ~ColumnIndexReader() = default;
  // `leaf` is a leaf predicate on this reader's column. Unsupported operators: REMAIN.
  // The caller has checked the leaf's arity (one literal for comparisons, two for BETWEEN,
  // none for IS [NOT] NULL) and that only IN / NOT IN hold NULL literals: the file reader does
  // so for every leaf (api/file_index_reader.cc, CheckLeafArity), so readers do not repeat it.
  virtual Result<FileIndexResult> Visit(const Predicate& leaf) const = 0;
  // A LIKE-family leaf (pattern/leaf_pattern.h) on a CHAR/VARCHAR column, its pattern compiled
  // by the caller: the rows whose value `like` matches, or with `negated` the non-NULL rows it
  // does not match. Readers that hold every distinct value answer exactly, reading at most
  // `scan_limit` dictionary entries (REMAIN beyond); the others answer REMAIN.
  virtual Result<FileIndexResult> VisitPattern(const pattern::LikePattern& like, bool negated,
                                               int64_t scan_limit) const {
    (void)like;
    (void)negated;
    (void)scan_limit;
    return FileIndexResult::Remain();
  }
  virtual Result<FileIndexResult> VisitTopN(const TopN& top_n, const RowBitmap* selection) const {
    (void)top_n;
    (void)selection;
    return FileIndexResult::Remain();
  }
  // Whether Visit(leaf)'s row set is exactly the rows where `leaf` is TRUE (SQL semantics),
  // rather than a superset, except that the answers of <> and NOT IN may also hold NULL rows
  // (Java's bitmap keeps them; the caller removes them): what lets a COUNT be answered from
  // the index alone (FileIndexReader::Count). Only asked when Visit answered rows. Default:
  // never.
  virtual bool ExactFor(const Predicate& leaf) const {
    (void)leaf;
    return false;
  }
  // The smallest and largest non-NULL value among `selection` (all rows when null), from the
  // index alone; nullopt when no selected row holds a value; NotFound when this index type
  // cannot tell (FileIndexReader::MinMax).
  virtual Result<std::optional<std::pair<Literal, Literal>>> MinMax(
      const RowBitmap* selection) const {
    (void)selection;
    return Status::NotFound("the index cannot tell the minimum and maximum");
  }
  // Facts for `pyfileindex inspect`: version, row count, cardinality, null count, ...
  virtual Result<std::vector<std::pair<std::string, std::string>>> Describe() const = 0;
  // The data file's row count as the payload stores it; -1 for a format that stores none
  // (bloom-filter). The container compares it with the caller's (OpenOptions::row_count).
  virtual int64_t StoredRowCount() const { return -1; }
};

class IndexType {
 public:
  virtual ~IndexType() = default;
  // The identifier in options and containers: "bitmap", "bloom-filter", "bsi", "range-bitmap".
  virtual std::string_view name() const = 0;
  // OK when Paimon 2.0 accepts `type` for this index, else InvalidArgument saying why.
  virtual Status CheckType(const DataType& type) const = 0;
  // The per-column option names this index reads (file-index.<type>.<column>.<name>). Java
  // ignores any other name; the planner rejects them, since a misspelt option would silently
  // build a different index than the one asked for.
  virtual std::vector<std::string_view> OptionNames() const = 0;
  // `options` holds this column's index options with the prefix stripped: {"version": "1"},
  // every key one of OptionNames().
  virtual Result<std::unique_ptr<ColumnIndexWriter>> MakeWriter(const DataType& type,
                                                                const Options& options) const = 0;
  // Parses the payload's header eagerly enough to reject corrupt bytes here.
  virtual Result<std::unique_ptr<ColumnIndexReader>> OpenReader(const DataType& type,
                                                                ByteSpan payload) const = 0;
};

// The built-in index types, by identifier; nullptr for an unknown one.
const IndexType* FindIndexType(std::string_view name);
// All built-in identifiers.
std::vector<std::string_view> IndexTypeNames();

}  // namespace pyfileindex::index
