/// @file
/// Builds the file-index container for one data file, as Java Paimon's DataFileIndexWriter
/// does: byte-identical with Java for the same rows and options.
///
///   Options options({{"file-index.bitmap.columns", "f0,f1"}});
///   auto writer = FileIndexWriter::Make(fields, options);          // check writer.ok()
///   (*writer)->Write(schema, array);                                // per record batch
///   auto bytes = (*writer)->Finish();                               // the .index file
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pyfileindex/arrow_c_abi.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/export.h"
#include "pyfileindex/options.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// What a writer may do to the process's memory beyond allocating and freeing its own blocks.
/// Not a Paimon option: the index bytes are the same under every policy.
struct WriterMemoryPolicy {
  /// After a large index frees many small heap blocks at once (a bitmap index's dictionary of
  /// many keys, the row lists of many rare keys), hand the C library's free heap pages back to
  /// the system (glibc `malloc_trim`; nothing elsewhere). It lowers the build's resident peak,
  /// but walks and trims the heap the whole process shares, so it is off unless asked: an
  /// embedding engine with its own memory policy keeps it off. The Python binding turns it on
  /// (the Python process is pyfileindex's own).
  bool trim_process_heap = false;
};

/// Collects one data file's rows and writes its index container.
///
/// Thread safety: none; use one writer from one thread at a time (different writers are
/// independent). Errors: every method returns Status/Result and never throws.
class PYFILEINDEX_EXPORT FileIndexWriter {
 public:
  virtual ~FileIndexWriter() = default;

  /// `fields` is the data file's row type; `table_options` are the Paimon table options
  /// (`file-index.<type>.columns`, `file-index.<type>.<column>.<option>`, ...). Fails on unknown
  /// index types, undeclared or unsupported columns, option names an index does not have,
  /// malformed option values, and a field name given twice. Other table options are not file index options and are ignored.
  static Result<std::unique_ptr<FileIndexWriter>> Make(std::vector<Field> fields,
                                                       const Options& table_options);
  /// Same, under `memory` (the default WriterMemoryPolicy never trims the process heap).
  static Result<std::unique_ptr<FileIndexWriter>> Make(std::vector<Field> fields,
                                                       const Options& table_options,
                                                       const WriterMemoryPolicy& memory);

  /// True when the options declare no index: Java writes no index for such a file.
  virtual bool empty() const = 0;

  /// Appends the next rows of the data file. `schema`/`array` describe a struct (record batch,
  /// Arrow format "+s") whose children are matched to fields by name; columns no index needs
  /// may be absent. The array is only read during the call (zero-copy; nothing is retained, and
  /// the caller still owns and releases it).
  virtual Status Write(const ArrowSchema& schema, const ArrowArray& array) = 0;

  /// Same, for one column given separately (by field name). Every indexed column must be
  /// given the same number of rows before Finish().
  virtual Status WriteColumn(const std::string& field_name, const ArrowSchema& schema,
                             const ArrowArray& array) = 0;

  /// The container bytes for all rows written; std::nullopt when empty(). Call once.
  virtual Result<std::optional<std::vector<uint8_t>>> Finish() = 0;

  /// Where FinishInto() writes the container: called once with its exact size, returns memory
  /// for that many bytes, or nullptr (FinishInto then fails with "out of memory").
  using Allocate = uint8_t* (*)(void* context, size_t size);

  /// Finish() into memory the caller owns (one copy of the container fewer, e.g. when it goes
  /// into a Python bytes object): every index payload is written straight into its place, and
  /// each index's memory is released as soon as its payload is written. Returns false, without
  /// calling `allocate`, when empty(). Call once, instead of Finish().
  virtual Result<bool> FinishInto(Allocate allocate, void* context) = 0;

  /// Rows written so far.
  virtual int64_t row_count() const = 0;

  /// Table options under `file-index.` that have no effect, in the order given: keys that are
  /// neither a columns declaration, a per-index option (`file-index.<type>.<column>.<option>`:
  /// exactly three parts) nor `in-manifest-threshold` / `read.enabled`. Java ignores them as
  /// well, and tables it writes can carry them, so they are accepted; a caller may warn, since
  /// e.g. `file-index.bloom-filter.fpp` (no column) changes nothing.
  virtual const std::vector<std::string>& ignored_options() const = 0;
};

}  // namespace pyfileindex
