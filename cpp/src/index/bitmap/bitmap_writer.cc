#include "index/bitmap/bitmap_writer.h"

#include <limits>
#include <string>
#include <utility>

#include "index/keys/batch_keys.h"

namespace pyfileindex::index::bitmap {

using column::ColumnBatch;

namespace {

constexpr int64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java counts rows in an int

}  // namespace

Result<WriterOptions> ParseWriterOptions(const Options& options) {
  WriterOptions out;
  PFI_ASSIGN_OR_RETURN(int64_t version, options.GetInt("version", 2));
  if (version != 1 && version != 2) {
    // Java accepts the option and fails when serializing ("invalid version: N"); failing
    // before any row is indexed is kinder and ends the same way.
    return Status::InvalidArgument("bitmap index: invalid version: ", version,
                                   " (supported: 1, 2)");
  }
  out.version = static_cast<int>(version);
  if (out.version == 2) {  // Java parses the block size only when writing V2
    PFI_ASSIGN_OR_RETURN(out.block_size_limit,
                         options.GetMemorySize("index-block-size", 16 * 1024));
  }
  return out;
}

BitmapIndexWriter::BitmapIndexWriter(const DataType& type, const keys::PhysicalKey& mapping,
                                     WriterOptions options)
    : type_(type),
      mapping_(mapping),
      options_(options),
      ingest_(std::make_unique<KeyRowsIngest>(mapping)) {}

bool BitmapIndexWriter::TakesDictionaries() const {
  return mapping_.kind == KeyKind::kString;
}

Status BitmapIndexWriter::CheckBatch(const ColumnBatch& batch) const {
  if (failed_) return Status::InvalidArgument("bitmap index: the writer failed earlier");
  if (ingest_ == nullptr) return Status::InvalidArgument("bitmap index: Write after Serialize");
  if (batch.length < 0) return Status::InvalidArgument("bitmap index: negative batch length");
  if (batch.length > 0) {
    if (batch.physical != keys::PhysicalFor(mapping_)) {
      return Status::InvalidArgument("bitmap index on a ", type_.ToString(),
                                     " column received values of another physical kind");
    }
    const bool has_values = mapping_.kind == KeyKind::kString
                                ? batch.strings != nullptr || batch.dictionary != nullptr
                                : batch.values != nullptr;
    if (!has_values) return Status::InvalidArgument("bitmap index: batch without values");
  }
  if (ingest_->row_count() + batch.length > kMaxRows) {
    return Status::InvalidArgument("bitmap index: more than 2^31-1 rows in one data file");
  }
  return Status::OK();
}

void BitmapIndexWriter::ExpectRows(int64_t rows) {
  if (ingest_ != nullptr) ingest_->ExpectRows(rows);
}

Status BitmapIndexWriter::Write(const ColumnBatch& batch) {
  PFI_RETURN_NOT_OK(CheckBatch(batch));
  Status status = ingest_->Add(batch);
  // Earlier rows of the batch may be in already: no consistent result from here on.
  if (!status.ok()) failed_ = true;
  return status;
}

Result<size_t> BitmapIndexWriter::PrepareSerialize() {
  if (failed_) return Status::InvalidArgument("bitmap index: the writer failed earlier");
  if (ingest_ == nullptr) return Status::InvalidArgument("bitmap index: Serialize called twice");
  KeyRows rows = ingest_->Finish();
  ingest_.reset();  // its per-piece scratch goes before the layout allocates
  layout_ = std::make_unique<PayloadLayout>(std::move(rows), mapping_.kind, options_, trim_);
  return layout_->Plan();
}

void BitmapIndexWriter::SerializeTo(uint8_t* out) {
  layout_->WriteTo(out);
  layout_.reset();
}

Result<std::vector<uint8_t>> BitmapIndexWriter::Serialize() {
  PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
  std::vector<uint8_t> out(size);
  SerializeTo(out.data());
  return out;
}

}  // namespace pyfileindex::index::bitmap
