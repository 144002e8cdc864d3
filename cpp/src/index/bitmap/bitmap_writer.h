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
  // Up to this many distinct keys, a chunk's rows are grouped by key before being appended.
  static constexpr size_t kGroupedMaxKeys = 1 << 12;
  static constexpr uint32_t kNullId = 0xFFFFFFFFu;

  Status CheckBatch(const column::ColumnBatch& batch) const;
  // Adds rows [begin, begin+n) of `batch` to their keys' (or the nulls') row lists.
  Status AddChunk(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  template <typename KeyAt>
  void AddNumeric(const column::ColumnBatch& batch, int64_t begin, int64_t n, KeyAt key_at);
  void AddStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Appends rows first_row + i (i < n) to the lists of keys ids_[i] (kNullId: the nulls).
  void Distribute(uint32_t first_row, int64_t n);
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
  // Scratch of the current chunk, reused: key id per row, and the grouping by key.
  std::vector<uint32_t> ids_;
  std::vector<uint64_t> hashes_;  // string keys' table hashes, when prefetching
  std::vector<uint32_t> group_starts_;
  std::vector<uint32_t> group_fill_;
  std::vector<uint32_t> grouped_rows_;
};

}  // namespace pyfileindex::index::bitmap
