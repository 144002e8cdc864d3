// The range-bitmap index writer (Paimon's RangeBitmapFileIndex.Writer + RangeBitmap.Appender).
//
// Rows arrive 65536 at a time into blocks: each non-null row's key is interned as it comes
// (distinct keys -> ids in order of first occurrence) and the block keeps only the rows' ids,
// bit-packed or as runs (packed_row_ids.h), plus a validity bitset once a null has come. The
// open block collects runs while its ids change at few rows (sorted columns), an id per row
// only past that.
// PrepareSerialize sorts the distinct keys once, turns the blocks' ids into codes (ranks) and
// bit slices block by block, freeing each block as it goes, then plans the chunked dictionary,
// which SerializeTo writes from the keys. So a build holds a few bits per row (a few bytes per run of equal keys) and the
// distinct keys, never a key per row.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "index/index_type.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "index/range_bitmap/dictionary_writer.h"
#include "index/range_bitmap/key_codes.h"
#include "index/range_bitmap/key_kind.h"
#include "index/range_bitmap/ordered_key_interner.h"
#include "index/range_bitmap/packed_row_ids.h"

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
      : type_(std::move(type)), spec_(spec), chunk_size_(chunk_size) {}

  Status CheckBatch(const column::ColumnBatch& batch) const;
  // What could fail in a batch's keys, checked before any of it is kept.
  Status CheckKeys(const column::ColumnBatch& batch) const;
  // Rows [begin, begin + n) of `batch`, all in the open block: their ids into ids[0, n).
  void InternKeys(const column::ColumnBatch& batch, int64_t begin, int64_t n, uint32_t* ids);
  template <typename T, typename U, typename Map>
  void InternMapped(const column::ColumnBatch& batch, int64_t begin, int64_t n, uint32_t* ids,
                    OrderedKeyInterner<U>* interner, std::vector<U>* keys, bool pure, Map&& map);
  void InternStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n, uint32_t* ids);
  void InternDictionaryStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n,
                               uint32_t* ids);
  uint32_t InternString(std::string_view bytes);
  void AppendValidity(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Room for a piece of piece_rows rows and, when the open block keeps ids, for its rows
  // [0, block_rows).
  void SizeScratch(size_t block_rows, size_t piece_rows);
  // Adds ids[0, n), rows [at, at + n) of the open block, to its runs; past kMaxOpenRuns the
  // block turns to an id per row in open_ids_.
  void ExtendRuns(const uint32_t* ids, uint32_t at, uint32_t n);
  void CloseBlock();
  // The code BSI from the blocks and each id's code (rank; empty: ids are ranks): encoded
  // now, freeing the blocks (bsi_), or, when every block is runs and no row null, measured
  // now and written from the blocks and rank by SerializeTo (run_bsi_).
  void EncodeSlices(std::vector<uint32_t> rank, size_t cardinality);
  Result<size_t> PrepareFixed();
  Result<size_t> PrepareStrings();
  // The header into head_ and the dictionary's plan from keys_; returns the payload's size
  // (the slices are in bsi_).
  Result<size_t> Assemble();

  DataType type_;
  KeySpec spec_;
  int32_t chunk_size_;
  uint64_t rows_ = 0;
  uint64_t expected_rows_ = 0;
  // Bit r: row r has a key. Empty until the first null (while every row has one).
  bool has_nulls_ = false;
  std::vector<uint64_t> validity_;
  OrderedKeyInterner<uint32_t> keys32_;  // ordered keys of 1..4-byte kinds
  OrderedKeyInterner<uint64_t> keys64_;  // ordered keys of 8-byte kinds
  StringKeyTable strings_;
  // A dictionary-encoded batch: by dictionary value, its id + 1 once a row used it (0: not
  // yet). Reset for every batch, which brings its own dictionary.
  std::vector<uint32_t> dictionary_ids_;
  std::vector<PackedRowIds> blocks_;  // closed blocks
  // The open block: while open_as_runs_, its runs (ends and ids, as PackedRowIds takes them),
  // else its ids by row.
  bool open_as_runs_ = true;
  std::vector<uint32_t> open_run_ends_;
  std::vector<uint32_t> open_run_ids_;
  std::vector<uint32_t> open_ids_;
  // Per-piece scratch: the piece's ids while the block is runs, its valid keys and their ids.
  std::vector<uint32_t> piece_ids_;
  std::vector<uint32_t> scratch32_;
  std::vector<uint64_t> scratch64_;
  std::vector<uint32_t> scratch_ids_;
  // Java keeps the first key object of each TreeMap entry: for the one NaN entry, the raw bits
  // of the first NaN written.
  bool seen_nan_ = false;
  uint64_t first_nan_bits_ = 0;
  bool serialized_ = false;
  // Between PrepareSerialize and SerializeTo. The dictionary is written from the sorted keys
  // straight into the output: no copy of it is held next to the keys.
  std::vector<uint8_t> head_;
  SortedKeys keys_;
  DictionaryPlan dictionary_;
  std::vector<uint32_t> sorted_units_;  // strings: the keys' places in strings_, ascending
  std::vector<uint32_t> sorted32_;      // fixed-width keys in their stored form (keys_.fixed)
  std::vector<uint64_t> sorted64_;
  std::unique_ptr<CodeBsi> bsi_;
  std::unique_ptr<RunCodeBsi> run_bsi_;  // reads blocks_ and rank_ until SerializeTo
  std::vector<uint32_t> rank_;
};

}  // namespace pyfileindex::index::range_bitmap
