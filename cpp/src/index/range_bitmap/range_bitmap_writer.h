// The range-bitmap index writer (Paimon's RangeBitmapFileIndex.Writer + RangeBitmap.Appender).
//
// Two stages, each in its own file:
//   ingest  (id_block_ingest.h)  rows, block by block, into their keys' ids and the distinct
//                                keys: a few bits per row, never a key per row;
//   layout  (slices_layout.h)    the sorted keys, the ids' codes as bit slices and the chunked
//                                dictionary, written in place as Java's payload.
// This class checks the batches, runs the stages in order and refuses calls out of order. It
// only ever hands back the pages of its own large blocks, so the caller's heap-trim policy
// does not concern it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/index_type.h"
#include "index/range_bitmap/id_block_ingest.h"
#include "index/range_bitmap/key_kind.h"
#include "index/range_bitmap/slices_layout.h"

namespace pyfileindex::index::range_bitmap {

inline constexpr const char* kChunkSizeOption = "chunk-size";

class RangeBitmapWriter final : public ColumnIndexWriter {
 public:
  // `options`: this column's range-bitmap options; only `chunk-size` is read.
  static Result<std::unique_ptr<ColumnIndexWriter>> Make(const DataType& type,
                                                         const Options& options);

  Status Write(const column::ColumnBatch& batch) override;
  // Dictionary-encoded strings are taken as they are: each value is interned once a batch.
  bool TakesDictionaries() const override { return spec_.kind == KeyKind::kString; }
  // Lets the key interner size its direct window for the rows to come.
  void ExpectRows(int64_t rows) override;
  Result<std::vector<uint8_t>> Serialize() override;
  // Encodes the bit slices and the dictionary; the blocks are gone afterwards.
  Result<size_t> PrepareSerialize() override;
  // Each part is released as soon as it is written.
  void SerializeTo(uint8_t* out) override;

 private:
  RangeBitmapWriter(DataType type, KeySpec spec, int32_t chunk_size)
      : type_(std::move(type)),
        spec_(spec),
        chunk_size_(chunk_size),
        ingest_(std::make_unique<IdBlockIngest>(spec_)) {}

  Status CheckBatch(const column::ColumnBatch& batch) const;
  // What could fail in a batch's keys, checked before any of it is kept.
  Status CheckKeys(const column::ColumnBatch& batch) const;

  DataType type_;
  KeySpec spec_;
  int32_t chunk_size_;
  std::unique_ptr<IdBlockIngest> ingest_;  // until PrepareSerialize
  std::unique_ptr<SlicesLayout> layout_;   // from PrepareSerialize to SerializeTo
};

}  // namespace pyfileindex::index::range_bitmap
