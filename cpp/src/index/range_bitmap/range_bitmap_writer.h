// The range-bitmap index writer (Paimon's RangeBitmapFileIndex.Writer + RangeBitmap.Appender).
//
// Rows are buffered as ordered keys (key_kind.h) plus a validity bitset; Serialize() sorts the
// distinct keys once, assigns codes and writes header, chunked dictionary and code BSI.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/index_type.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "index/range_bitmap/dictionary_writer.h"
#include "index/range_bitmap/key_codes.h"
#include "index/range_bitmap/key_kind.h"

namespace pyfileindex::index::range_bitmap {

inline constexpr const char* kChunkSizeOption = "chunk-size";

class RangeBitmapWriter final : public ColumnIndexWriter {
 public:
  // `options`: this column's range-bitmap options; only `chunk-size` is read.
  static Result<std::unique_ptr<ColumnIndexWriter>> Make(const DataType& type,
                                                         const Options& options);

  Status Write(const column::ColumnBatch& batch) override;
  // Sizes the per-row keys for the rows to come: one allocation instead of doubling ones,
  // each of which copies the keys so far into fresh pages.
  void ExpectRows(int64_t rows) override;
  Result<std::vector<uint8_t>> Serialize() override;
  // In place: the row keys are gone once PrepareSerialize has encoded the bit slices, and
  // each slice is released as soon as it is written.
  Result<size_t> PrepareSerialize() override;
  void SerializeTo(uint8_t* out) override;

 private:
  RangeBitmapWriter(DataType type, KeySpec spec, int32_t chunk_size)
      : type_(std::move(type)), spec_(spec), chunk_size_(chunk_size) {}

  Status CheckBatch(const column::ColumnBatch& batch) const;
  void AppendValidity(const column::ColumnBatch& batch);
  Status AppendKeys(const column::ColumnBatch& batch);
  // Header + dictionary into head_, the code BSI encoded into bsi_, from the sorted distinct
  // keys and the per-row codes; returns the payload's size.
  Result<size_t> Assemble(const SortedKeys& keys, const uint32_t* codes);

  DataType type_;
  KeySpec spec_;
  int32_t chunk_size_;
  uint64_t rows_ = 0;
  std::vector<uint64_t> validity_;  // bit r: row r has a key
  std::vector<uint32_t> keys32_;    // ordered keys of 1..4-byte kinds, per non-null row
  std::vector<uint64_t> keys64_;    // ordered keys of 8-byte kinds, per non-null row
  StringKeyTable strings_;
  std::vector<uint32_t> string_ids_;  // per non-null row
  // Java keeps the first key object of each TreeMap entry: for the one NaN entry, the raw bits
  // of the first NaN written.
  bool seen_nan_ = false;
  uint64_t first_nan_bits_ = 0;
  bool serialized_ = false;
  // Between PrepareSerialize and SerializeTo.
  std::vector<uint8_t> head_;
  std::unique_ptr<CodeBsi> bsi_;
};

}  // namespace pyfileindex::index::range_bitmap
