// The range-bitmap writer's ingest stage: rows, a container's span (a block) at a time, into
// their keys' ids. Each non-null row's key is interned as it comes (distinct keys -> ids in
// order of first occurrence) and the block keeps only the rows' ids, bit-packed or as runs
// (packed_row_ids.h), plus a validity bitset once a null has come. The open block collects
// runs while its ids change at few rows (sorted columns), an id per row only past that. So
// ingest holds a few bits per row (a few bytes per run of equal keys) and the distinct keys,
// never a key per row.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "column/column_batch.h"
#include "index/range_bitmap/key_codes.h"
#include "index/range_bitmap/key_kind.h"
#include "index/range_bitmap/ordered_key_interner.h"
#include "index/range_bitmap/packed_row_ids.h"

namespace pyfileindex::index::range_bitmap {

// What ingest hands to the layout: the rows' ids by block, which rows have a key, and the
// distinct keys in the interner of their kind.
struct IngestedIds {
  uint64_t rows = 0;
  // Bit r: row r has a key. Empty while every row has one (has_nulls false).
  bool has_nulls = false;
  std::vector<uint64_t> validity;
  OrderedKeyInterner<uint32_t> keys32;  // ordered keys of 1..4-byte kinds
  OrderedKeyInterner<uint64_t> keys64;  // ordered keys of 8-byte kinds
  StringKeyTable strings;
  std::vector<PackedRowIds> blocks;
  // Java keeps the first key object of each TreeMap entry: for the one NaN entry, the raw
  // bits of the first NaN written.
  bool seen_nan = false;
  uint64_t first_nan_bits = 0;
};

class IdBlockIngest {
 public:
  explicit IdBlockIngest(const KeySpec& spec) : spec_(spec) {}

  uint64_t rows() const { return in_.rows; }
  // Lets the key interner size its direct window, and the blocks their list, for `total` rows.
  void ExpectTotalRows(uint64_t total);
  // Adds the batch's rows (checked by the writer: nothing here fails).
  void Add(const column::ColumnBatch& batch);
  // The ids and keys, the last block closed and the validity padded to whole blocks; the
  // ingest is spent afterwards.
  IngestedIds Finish();

 private:
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
  // Room for a batch of batch_rows rows and, when the open block keeps ids, for its rows
  // [0, block_rows).
  void SizeScratch(size_t block_rows, size_t batch_rows);
  // Adds ids[0, n), rows [at, at + n) of the open block, to its runs; past
  // tuning::kMaxOpenRuns the block turns to an id per row in open_ids_.
  void ExtendRuns(const uint32_t* ids, uint32_t at, uint32_t n);
  void CloseBlock();

  KeySpec spec_;
  IngestedIds in_;
  uint64_t expected_rows_ = 0;
  // A dictionary-encoded batch: by dictionary value, its id + 1 once a row used it (0: not
  // yet). Reset for every batch, which brings its own dictionary.
  std::vector<uint32_t> dictionary_ids_;
  // The open block: while open_as_runs_, its runs (ends and ids, as PackedRowIds takes them),
  // else its ids by row.
  bool open_as_runs_ = true;
  std::vector<uint32_t> open_run_ends_;
  std::vector<uint32_t> open_run_ids_;
  std::vector<uint32_t> open_ids_;
  // Per-batch scratch: the batch's ids while the block is runs, its valid keys and their ids.
  std::vector<uint32_t> batch_ids_;
  std::vector<uint32_t> scratch32_;
  std::vector<uint64_t> scratch64_;
  std::vector<uint32_t> scratch_ids_;
};

}  // namespace pyfileindex::index::range_bitmap
