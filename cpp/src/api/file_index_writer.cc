// FileIndexWriter: the table options' index writers over one data file, packed into a container.
#include <algorithm>
#include <cstring>

#include "api/boundary.h"
#include "api/row_type.h"
#include "column/arrow_column.h"
#include "container/container_format.h"
#include "container/index_plan.h"
#include "memory/huge_pages.h"
#include "roaring/container_span.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {

namespace {

// The caller's Arrow structs are read through raw pointers: reject the malformed shapes that
// would make us dereference null. (Buffers are checked per column type later.)
Status CheckArrowStruct(const ArrowSchema& schema, const ArrowArray& array) {
  if (schema.n_children < 0 || array.n_children < 0 || array.length < 0 || array.offset < 0) {
    return Status::InvalidArgument("Arrow array with a negative length, offset or child count");
  }
  if (schema.n_children > 0 && (schema.children == nullptr || array.children == nullptr)) {
    return Status::InvalidArgument("Arrow struct without its children");
  }
  for (int64_t c = 0; c < schema.n_children; ++c) {
    if (schema.children[c] == nullptr || (c < array.n_children && array.children[c] == nullptr)) {
      return Status::InvalidArgument("Arrow struct child ", c, " is null");
    }
  }
  return Status::OK();
}

class ContainerWriter final : public FileIndexWriter {
 public:
  ContainerWriter(std::vector<Field> fields) : fields_(std::move(fields)) {}

  Status Init(const Options& table_options, const WriterMemoryPolicy& memory_policy) {
    PFI_ASSIGN_OR_RETURN(plan_, container::PlanIndexes(fields_, table_options));
    for (const container::PlannedIndex& planned : plan_.indexes) {
      auto writer = planned.type->MakeWriter(*planned.value_type, planned.options);
      if (!writer.ok()) {
        return writer.status().WithContext("index '", planned.type->name(),
                                           "' on column '", planned.output_name, "'");
      }
      writers_.push_back(std::move(writer).ValueOrDie());
      writers_.back()->SetHeapTrim(memory::HeapTrim(memory_policy.trim_process_heap));
      rows_written_.push_back(0);
    }
    return Status::OK();
  }

  bool empty() const override { return plan_.indexes.empty(); }
  int64_t row_count() const override { return rows_written_.empty() ? 0 : rows_written_[0]; }
  const std::vector<std::string>& ignored_options() const override {
    return plan_.ignored_options;
  }

  Status Write(const ArrowSchema& schema, const ArrowArray& array) override {
    return api::CatchAll("FileIndexWriter::Write", [&] { return WriteUnguarded(schema, array); });
  }

  Status WriteColumn(const std::string& field_name, const ArrowSchema& schema,
                     const ArrowArray& array) override {
    return api::CatchAll("FileIndexWriter::WriteColumn",
                         [&] { return WriteColumnUnguarded(field_name, schema, array); });
  }

  Result<std::optional<std::vector<uint8_t>>> Finish() override {
    return api::CatchAll("FileIndexWriter::Finish",
                         [&]() -> Result<std::optional<std::vector<uint8_t>>> {
      std::vector<uint8_t> out;
      auto into_vector = [](void* context, size_t size) -> uint8_t* {
        auto* bytes = static_cast<std::vector<uint8_t>*>(context);
        bytes->resize(size);
        return bytes->data();
      };
      PFI_ASSIGN_OR_RETURN(bool written, FinishIntoUnguarded(into_vector, &out));
      if (!written) return std::optional<std::vector<uint8_t>>();
      return std::optional<std::vector<uint8_t>>(std::move(out));
    });
  }

  Result<bool> FinishInto(Allocate allocate, void* context) override {
    return api::CatchAll("FileIndexWriter::FinishInto",
                         [&] { return FinishIntoUnguarded(allocate, context); });
  }

 private:
  Status WriteUnguarded(const ArrowSchema& schema, const ArrowArray& array) {
    if (finished_) return Status::InvalidArgument("Write() after Finish()");
    if (schema.format == nullptr || std::strcmp(schema.format, "+s") != 0) {
      return Status::InvalidArgument("Write() takes a struct array (a record batch)");
    }
    if (schema.n_children != array.n_children) {
      return Status::InvalidArgument("Arrow schema and array disagree on the column count");
    }
    PFI_RETURN_NOT_OK(CheckArrowStruct(schema, array));
    for (size_t i = 0; i < plan_.indexes.size(); ++i) {
      const std::string& name = fields_[plan_.indexes[i].field_index].name;
      int64_t child = -1;
      for (int64_t c = 0; c < schema.n_children; ++c) {
        if (schema.children[c]->name == nullptr || name != schema.children[c]->name) continue;
        if (child >= 0) {  // which of them holds the file's values is anyone's guess
          return Status::InvalidArgument("column '", name,
                                         "' appears more than once in the written batch");
        }
        child = c;
      }
      if (child < 0) {
        return Status::InvalidArgument("column '", name,
                                       "' is indexed but missing from the written batch");
      }
      // A struct's offset and length apply to its children.
      ArrowArray column = *array.children[child];
      column.offset += array.offset;
      column.length = array.length;
      if (array.children[child]->length < array.offset + array.length) {
        return Status::InvalidArgument("column '", name, "' is shorter than its batch");
      }
      PFI_RETURN_NOT_OK(WriteIndex(i, *schema.children[child], column));
    }
    return Status::OK();
  }

  Status WriteColumnUnguarded(const std::string& field_name, const ArrowSchema& schema,
                              const ArrowArray& array) {
    if (finished_) return Status::InvalidArgument("WriteColumn() after Finish()");
    bool known = false;
    for (size_t i = 0; i < plan_.indexes.size(); ++i) {
      if (fields_[plan_.indexes[i].field_index].name != field_name) continue;
      known = true;
      PFI_RETURN_NOT_OK(WriteIndex(i, schema, array));
    }
    for (const Field& field : fields_) known = known || field.name == field_name;
    if (!known) return Status::NotFound("no field named '", field_name, "'");
    return Status::OK();
  }

  Result<bool> FinishIntoUnguarded(Allocate allocate, void* context) {
    if (finished_) return Status::InvalidArgument("Finish() called twice");
    finished_ = true;
    if (empty()) return false;
    for (size_t i = 1; i < rows_written_.size(); ++i) {
      if (rows_written_[i] != rows_written_[0]) {
        return Status::InvalidArgument(
            "indexed columns were given different row counts: '", plan_.indexes[0].output_name,
            "' ", rows_written_[0], ", '", plan_.indexes[i].output_name,
            "' ", rows_written_[i]);
      }
    }
    // Every payload's size first, then the header, then the payloads straight into place.
    std::vector<container::ColumnLayout> columns;
    std::vector<size_t> order;  // index ids in container order, for the payloads
    std::vector<size_t> sizes(writers_.size(), 0);
    for (const auto& [output_name, index_ids] : plan_.layout) {
      container::ColumnLayout column;
      column.column = output_name;
      for (size_t id : index_ids) {
        const container::PlannedIndex& planned = plan_.indexes[id];
        std::optional<size_t> size;
        // A map-key writer that never saw a record is an "empty index" (Java: writer.empty()).
        if (!(planned.map_key && rows_written_[id] == 0)) {
          auto prepared = writers_[id]->PrepareSerialize();
          if (!prepared.ok()) {
            return prepared.status().WithContext("index '", planned.type->name(),
                                                 "' on column '", output_name, "'");
          }
          size = sizes[id] = *prepared;
          order.push_back(id);
        }
        column.indexes.emplace_back(std::string(planned.type->name()), size);
      }
      columns.push_back(std::move(column));
    }
    PFI_ASSIGN_OR_RETURN(std::vector<uint8_t> head, container::WriteContainerHead(columns));
    size_t total = head.size();
    for (size_t id : order) total += sizes[id];
    uint8_t* out = allocate(context, total);
    if (out == nullptr) return Status::Internal("out of memory");
    // The caller's fresh block, all of it written below: faulted in huge pages if the system
    // offers them on advice.
    const memory::ScopedHugePages huge_pages(out, total);
    std::copy(head.begin(), head.end(), out);
    out += head.size();
    for (size_t id : order) {
      writers_[id]->SerializeTo(out);
      writers_[id].reset();  // the index is in the container: its memory goes now
      out += sizes[id];
    }
    return true;
  }

  // Flat arrays are handed to the index writers in slices of one roaring container's span of
  // rows (roaring::kRowsPerContainer): a conversion that materializes per-row data (string
  // views, timestamp keys) then stays cache-sized instead of growing with the caller's batch,
  // and a slice that starts on a container's first row ends on its last, where the writers
  // close their containers.
  // Strings and bytes: a slice's 16-byte views would be more than a default bloom filter's
  // whole payload at that span; a quarter of it keeps them small and costs no speed.
  static constexpr int64_t kViewSliceRows = roaring::kRowsPerContainer / 4;

  Status WriteIndex(size_t i, const ArrowSchema& schema, const ArrowArray& array) {
    const DataType& type = fields_[plan_.indexes[i].field_index].type;
    const int64_t slice_rows =
        type.IsString() || type.IsBinary() ? kViewSliceRows : int64_t{roaring::kRowsPerContainer};
    const bool sliceable = !plan_.indexes[i].map_key && schema.dictionary == nullptr &&
                           array.n_children == 0 && array.length > slice_rows;
    if (!sliceable) return WriteIndexSlice(i, schema, array);
    writers_[i]->ExpectRows(array.length);
    for (int64_t begin = 0; begin < array.length; begin += slice_rows) {
      ArrowArray slice = array;  // shallow: the same buffers, a window of rows
      slice.offset = array.offset + begin;
      slice.length = std::min(slice_rows, array.length - begin);
      slice.null_count = array.null_count == 0 ? 0 : -1;  // -1: unknown, validity is read
      slice.release = nullptr;  // not ours to release
      PFI_RETURN_NOT_OK(WriteIndexSlice(i, schema, slice));
    }
    return Status::OK();
  }

  Status WriteIndexSlice(size_t i, const ArrowSchema& schema, const ArrowArray& array) {
    const container::PlannedIndex& planned = plan_.indexes[i];
    const Field& field = fields_[planned.field_index];
    Status status;
    if (planned.map_key) {
      status = column::MakeMapValueBatch(schema, array, field.type, *planned.map_key, &holder_);
    } else {
      column::BatchForms forms;
      forms.dictionary = writers_[i]->TakesDictionaries();
      forms.string_offsets = writers_[i]->TakesStringOffsets();
      status = column::MakeColumnBatch(schema, array, field.type, &holder_, forms);
    }
    if (status.ok()) status = writers_[i]->Write(holder_.batch);
    if (!status.ok()) {
      return status.WithContext("index '", planned.type->name(), "' on column '",
                                planned.output_name, "'");
    }
    rows_written_[i] += array.length;
    return Status::OK();
  }

  std::vector<Field> fields_;
  container::IndexPlan plan_;
  std::vector<std::unique_ptr<index::ColumnIndexWriter>> writers_;
  std::vector<int64_t> rows_written_;
  column::ColumnBatchHolder holder_;  // reused across batches: no per-batch reallocation
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<FileIndexWriter>> FileIndexWriter::Make(std::vector<Field> fields,
                                                               const Options& table_options) {
  return Make(std::move(fields), table_options, WriterMemoryPolicy());
}

Result<std::unique_ptr<FileIndexWriter>> FileIndexWriter::Make(std::vector<Field> fields,
                                                               const Options& table_options,
                                                               const WriterMemoryPolicy& memory) {
  return api::CatchAll("FileIndexWriter::Make", [&]() -> Result<std::unique_ptr<FileIndexWriter>> {
    PFI_RETURN_NOT_OK(api::CheckUniqueNames(fields));
    auto writer = std::make_unique<ContainerWriter>(std::move(fields));
    PFI_RETURN_NOT_OK(writer->Init(table_options, memory));
    return std::unique_ptr<FileIndexWriter>(std::move(writer));
  });
}

}  // namespace pyfileindex
