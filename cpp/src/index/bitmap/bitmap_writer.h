// BitmapIndexWriter: Paimon's BitmapFileIndex.Writer, byte for byte (versions 1 and 2).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/key_dictionary.h"
#include "index/bitmap/row_sets.h"
#include "index/index_type.h"

namespace pyfileindex::index::bitmap {

struct WriterOptions {
  int version = 2;
  int64_t block_size_limit = 16 * 1024;  // V2 "index-block-size"
};

// Reads "version" (1|2, default 2) and, for version 2, "index-block-size" (default 16kb).
Result<WriterOptions> ParseWriterOptions(const Options& options);

class BitmapIndexWriter final : public ColumnIndexWriter {
 public:
  BitmapIndexWriter(const DataType& type, const KeyMapping& mapping, WriterOptions options);

  Status Write(const column::ColumnBatch& batch) override;
  Result<std::vector<uint8_t>> Serialize() override;

 private:
  // Rows are processed in chunks of this many (bounds the timestamp conversion scratch).
  static constexpr int64_t kChunkRows = 1 << 16;

  Status CheckBatch(const column::ColumnBatch& batch) const;
  // Adds rows [begin, begin+n) of `batch` to their keys' (or the nulls') row lists.
  Status AddChunk(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  template <typename KeyAt>
  void AddNumeric(const column::ColumnBatch& batch, int64_t begin, int64_t n, KeyAt key_at);
  void AddStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // TIMESTAMP values of the chunk as keys (millis or micros) into ts_keys_.
  Status TimestampKeys(const column::ColumnBatch& batch, int64_t begin, int64_t n);

  const WriterKeys& keys() const;

  DataType type_;
  KeyMapping mapping_;
  WriterOptions options_;
  std::unique_ptr<NumericKeyDictionary> numeric_;
  std::unique_ptr<StringKeyDictionary> strings_;
  RowSets rows_;
  RowList nulls_;
  int64_t row_count_ = 0;
  bool failed_ = false;  // a Write failed half-way; Serialize refuses

  std::vector<int64_t> ts_keys_;  // converted timestamps of the current chunk
};

}  // namespace pyfileindex::index::bitmap
