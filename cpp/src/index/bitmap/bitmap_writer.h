// BitmapIndexWriter: Paimon's BitmapFileIndex.Writer, byte for byte (versions 1 and 2).
//
// Three stages, each in its own file:
//   ingest   (key_rows_ingest.h)  values, batch by batch, into each distinct key's rows;
//   layout   (payload_layout.h)   the keys and rows as Java's V1/V2 payload, written in place;
//   memory   (memory/heap_trim.h) whether the heap may be trimmed, as the caller's policy says.
// This class checks the batches, runs the stages in order and refuses calls out of order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/key_rows_ingest.h"
#include "index/bitmap/payload_layout.h"
#include "index/index_type.h"
#include "memory/heap_trim.h"

namespace pyfileindex::index::bitmap {

// Reads "version" (1|2, default 2) and, for version 2, "index-block-size" (default 16kb).
Result<WriterOptions> ParseWriterOptions(const Options& options);

class BitmapIndexWriter final : public ColumnIndexWriter {
 public:
  BitmapIndexWriter(const DataType& type, const keys::PhysicalKey& mapping, WriterOptions options);

  Status Write(const column::ColumnBatch& batch) override;
  // String keys: a dictionary's values are interned once each, at their first row.
  bool TakesDictionaries() const override;
  void ExpectRows(int64_t rows) override;
  void SetHeapTrim(memory::HeapTrim trim) override { trim_ = trim; }
  Result<std::vector<uint8_t>> Serialize() override;
  // In place: the payload is written straight from the rows, which are released as it goes.
  Result<size_t> PrepareSerialize() override;
  void SerializeTo(uint8_t* out) override;

 private:
  Status CheckBatch(const column::ColumnBatch& batch) const;

  DataType type_;
  keys::PhysicalKey mapping_;
  WriterOptions options_;
  memory::HeapTrim trim_;
  std::unique_ptr<KeyRowsIngest> ingest_;  // until PrepareSerialize
  std::unique_ptr<PayloadLayout> layout_;  // from PrepareSerialize to SerializeTo
  bool failed_ = false;  // a Write failed half-way; Serialize refuses
};

}  // namespace pyfileindex::index::bitmap
