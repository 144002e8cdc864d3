#include "index/range_bitmap/range_bitmap_writer.h"

#include <limits>
#include <string>
#include <utility>

#include "index/keys/batch_keys.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using column::ColumnBatch;
using column::Physical;
using column::PhysicalName;

constexpr uint64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java's int row counter
constexpr size_t kMaxStringBytes = static_cast<size_t>(std::numeric_limits<int32_t>::max() - 4);

}  // namespace

Result<std::unique_ptr<ColumnIndexWriter>> RangeBitmapWriter::Make(const DataType& type,
                                                                   const Options& options) {
  PFI_ASSIGN_OR_RETURN(KeySpec spec, KeySpecFor(type));
  PFI_ASSIGN_OR_RETURN(int64_t chunk_size,
                       options.GetMemorySize(kChunkSizeOption, spec.default_chunk_size));
  // Java: (int) MemorySize.parse(...).getBytes() -- keeps the low 32 bits.
  const int32_t narrowed = static_cast<int32_t>(static_cast<uint32_t>(chunk_size));
  return std::unique_ptr<ColumnIndexWriter>(new RangeBitmapWriter(type, spec, narrowed));
}

Status RangeBitmapWriter::CheckBatch(const ColumnBatch& batch) const {
  if (ingest_ == nullptr) return Status::InvalidArgument("range-bitmap: Write after Serialize");
  const Physical expected = keys::PhysicalFor(spec_);
  if (batch.physical != expected) {
    return Status::InvalidArgument("range-bitmap: a ", PhysicalName(batch.physical),
                                   " batch cannot feed a column of type ", type_.ToString(),
                                   " (expected ", PhysicalName(expected), ")");
  }
  if (batch.length < 0 || batch.null_count < 0 || batch.null_count > batch.length) {
    return Status::InvalidArgument("range-bitmap: malformed batch (length ", batch.length,
                                   ", null count ", batch.null_count, ")");
  }
  const bool has_strings = batch.strings != nullptr ||
                           (batch.dictionary != nullptr && batch.dictionary_indices != nullptr &&
                            batch.dictionary->strings != nullptr);
  if (batch.length > 0 && batch.length != batch.null_count &&
      (expected == Physical::kBytes ? !has_strings : batch.values == nullptr)) {
    return Status::InvalidArgument("range-bitmap: batch without values");
  }
  if (ingest_->rows() + static_cast<uint64_t>(batch.length) > kMaxRows) {
    return Status::InvalidArgument(
        "range-bitmap: a data file with more than 2147483647 rows cannot be indexed");
  }
  return Status::OK();
}

Status RangeBitmapWriter::CheckKeys(const ColumnBatch& batch) const {
  if (batch.null_count == batch.length) return Status::OK();  // values may be absent
  if (spec_.kind == KeyKind::kString && batch.dictionary != nullptr) {
    // Only a value some valid row uses can be refused.
    const column::ColumnBatch& values = *batch.dictionary;
    bool too_long = false;
    for (int64_t v = 0; v < values.length; ++v) {
      too_long |= values.strings[v].size() > kMaxStringBytes;
    }
    if (too_long) {
      for (int64_t i = 0; i < batch.length; ++i) {
        if (batch.IsValid(i) &&
            values.strings[batch.dictionary_indices[i]].size() > kMaxStringBytes) {
          return Status::InvalidArgument("range-bitmap: a string longer than 2^31-5 bytes");
        }
      }
    }
    return Status::OK();
  }
  if (spec_.kind == KeyKind::kString) {
    const std::string_view* strings = batch.strings;
    bool too_long = false;
    for (int64_t i = 0; i < batch.length; ++i) too_long |= strings[i].size() > kMaxStringBytes;
    // Null rows' views are empty or point at real bytes: only a valid row can be refused.
    if (too_long) {
      for (int64_t i = 0; i < batch.length; ++i) {
        if (batch.IsValid(i) && strings[i].size() > kMaxStringBytes) {
          return Status::InvalidArgument("range-bitmap: a string longer than 2^31-5 bytes");
        }
      }
    }
    return Status::OK();
  }
  // Keys in the batch's own unit cannot overflow: only a conversion is checked.
  const column::TimeUnit unit = batch.timestamp_unit;
  if (!spec_.is_timestamp() || keys::TimestampsAreKeys(spec_, unit)) return Status::OK();
  const int64_t* values = batch.values_as<int64_t>();
  for (int64_t i = 0; i < batch.length; ++i) {
    if (!batch.IsValid(i)) continue;
    bool overflow = false;
    keys::TimestampKey(spec_, values[i], unit, &overflow);
    if (overflow) {
      return Status::InvalidArgument("range-bitmap: a timestamp of column type ",
                                     type_.ToString(), " overflows epoch ",
                                     keys::TimestampKeyUnitName(spec_));
    }
  }
  return Status::OK();
}

void RangeBitmapWriter::ExpectRows(int64_t rows) {
  if (rows <= 0 || ingest_ == nullptr) return;
  const uint64_t total = ingest_->rows() + static_cast<uint64_t>(rows);
  if (total > kMaxRows) return;  // Write will refuse the batch
  ingest_->ExpectTotalRows(total);
}

Status RangeBitmapWriter::Write(const ColumnBatch& batch) {
  PFI_RETURN_NOT_OK(CheckBatch(batch));
  PFI_RETURN_NOT_OK(CheckKeys(batch));
  ingest_->Add(batch);
  return Status::OK();
}

Result<size_t> RangeBitmapWriter::PrepareSerialize() {
  if (ingest_ == nullptr) return Status::InvalidArgument("range-bitmap: Serialize called twice");
  IngestedIds ids = ingest_->Finish();
  ingest_.reset();
  layout_ = std::make_unique<SlicesLayout>(std::move(ids), spec_, chunk_size_);
  return layout_->Plan();
}

void RangeBitmapWriter::SerializeTo(uint8_t* out) {
  layout_->WriteTo(out);
  layout_.reset();
}

Result<std::vector<uint8_t>> RangeBitmapWriter::Serialize() {
  PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
  std::vector<uint8_t> out(size);
  SerializeTo(out.data());
  return out;
}

}  // namespace pyfileindex::index::range_bitmap
