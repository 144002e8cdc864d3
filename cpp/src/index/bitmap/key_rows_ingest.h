// The bitmap writer's ingest stage: a column's values, batch by batch, into each distinct
// key's rows (and the null rows), by key id in order of first occurrence.
//
// Rows go in a piece (tuning::kScratchRows) at a time. Each piece picks the cheapest way in:
// - numeric pieces in long runs of equal keys (sorted, clustered): a lookup and an append per
//   run (AddNumericRuns);
// - while there are few keys: each row straight into its key's open container, as its key is
//   looked up (AddInRowOrder), or after the piece's keys are (strings, dictionary arrays);
// - past tuning::kFrequentKeys keys: the piece's key ids first, then the rows, a rare key's
//   row list prefetched ahead (PlaceIds).
// The first kFrequentKeys keys keep their rows as containers (ContainerRows), later keys as
// row lists (RowSets); a numeric column keeps every key as a run list while each piece comes
// in long runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/container_rows.h"
#include "index/bitmap/key_dictionary.h"
#include "index/bitmap/row_sets.h"
#include "index/bitmap/tuning.h"
#include "index/index_type.h"
#include "memory/page_block.h"
#include "memory/zeroed_array.h"

namespace pyfileindex::index::bitmap {

// What ingest hands to the layout: the keys and each key's rows, by key id.
struct KeyRows {
  std::unique_ptr<NumericKeyDictionary> numeric;  // numeric keys, or
  std::unique_ptr<StringKeyDictionary> strings;   // string keys
  // The room reserved for the frequent keys' (and the nulls') rows: declared before them, so
  // it outlives their rows.
  memory::PageBlock reserved_rows;
  std::vector<ContainerRows> frequent;  // key ids [0, first_rare_id)
  RowSets rare;                         // key ids from first_rare_id, at id - first_rare_id
  // tuning::kFrequentKeys, or 0 while every piece of a numeric column came in long runs (a
  // sorted or clustered column): then every key keeps its rows as a run list, a few bytes with
  // one run inline, where a container would take a record and a body on the heap.
  uint32_t first_rare_id = static_cast<uint32_t>(tuning::kFrequentKeys);
  ContainerRows nulls;
  int64_t row_count = 0;

  const WriterKeys& keys() const {
    if (strings) return *strings;
    return *numeric;
  }
};

class KeyRowsIngest {
 public:
  explicit KeyRowsIngest(const keys::PhysicalKey& mapping);

  bool takes_dictionaries() const { return rows_.strings != nullptr; }
  int64_t row_count() const { return rows_.row_count; }
  // `rows` more rows are known to come (the caller's hint, the current batch): sizes the
  // reservations of the frequent keys' rows.
  void ExpectRows(int64_t rows);
  // Adds the batch's rows after those so far. On an error some of them may be in already.
  Status Add(const column::ColumnBatch& batch);
  // The keys and their rows, the rooms committed; the ingest is spent afterwards.
  KeyRows Finish();

 private:
  static constexpr uint32_t kNoId = 0xFFFFFFFFu;

  // Sizes the per-key arrays for the keys that a sample of rows [begin, length) of `batch`
  // projects over the rows known to come (ExpectRows; tuning::kEstimateFromKeys): once per
  // writer, at the first piece with a sample's worth of rows after it in its batch.
  void ExpectKeysFrom(const column::ColumnBatch& batch, int64_t begin);
  // Adds rows [begin, begin+n) of `batch` (within one kScratchRows-aligned piece of the file's
  // rows) to their keys' (or the nulls') rows.
  Status AddPiece(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  template <typename KeyAt>
  void AddNumeric(const column::ColumnBatch& batch, int64_t begin, int64_t n, KeyAt key_at);
  // Ids of `count` keys into the numeric dictionary, in order: key_of(j)'s id goes to
  // take(j, id) (a new key's id handed out first).
  template <typename KeyOf, typename Take>
  void InternAll(int64_t count, KeyOf key_of, Take take);
  // Adds the rows first_row + row_of(j) (j < count, ascending) of numeric keys key_of(j)
  // straight to their keys' open containers as they are interned, in row order: one store a
  // row into the key's room, no ids stored (while the piece starts with at most
  // kFrequentKeys keys; a rare key's rows go to its list).
  template <typename KeyOf, typename RowOf>
  void AddInRowOrder(uint32_t first_row, int64_t count, KeyOf key_of, RowOf row_of);
  // Rows [begin, begin+n) of `batch` whose keys' ids are in ids_ (by offset from `begin`):
  // all n of them, or when `valid` < n the valid_rows_ (ValidRows), the others null.
  void AddIds(const column::ColumnBatch& batch, int64_t begin, int64_t n, size_t valid);
  // Rows first_row + row_of(j) (j < count, ascending) to the keys ids_[row_of(j)], in row
  // order: a frequent key's row into its room, as AddInRowOrder does; a rare key's row (once
  // there are more than kFrequentKeys keys) to its list, prefetched a few rows ahead.
  template <typename RowOf>
  void PlaceIds(uint32_t first_row, int64_t count, RowOf row_of);
  // A frequent key's room: where its next row goes in its open container, and where the
  // room ends (both null: no room yet; always so for the rare keys' ids). Rows go straight
  // there, one store a row, in row order.
  struct Room {
    uint16_t* next;
    uint16_t* end;
  };
  // Stores a piece's rows in their keys' rooms: append(row, id) adds row first_row + row to
  // key `id` (a frequent key's room, or a rare key's list).
  struct RoomAppend {
    KeyRowsIngest* ingest;
    Room* rooms;
    uint32_t first_row;
    // The hot loop of the build: inlined into it, whatever the compiler's budget says.
    __attribute__((always_inline)) void operator()(uint32_t row, uint32_t id) const {
      Room& room = rooms[id];
      const uint32_t file_row = first_row + row;
      if (room.next == room.end && !ingest->MakeRoom(id, file_row)) return;
      *room.next++ = static_cast<uint16_t>(file_row);
    }
  };
  // BeginPiece(first_row), keeping the rooms open within the container span; the piece's
  // appender.
  RoomAppend OpenRooms(uint32_t first_row);
  // Room for more rows of key `id` in the container span of `row` (the rows stored in its
  // room so far committed), or, for a rare key, `row` added to it: false then.
  bool MakeRoom(uint32_t id, uint32_t row);
  // Commits the rows stored in every key's room and closes the rooms (before the rows are
  // added another way, their span ends, or they are serialized).
  void CloseRooms();
  // Whether the rows of [begin, begin+n) come in long runs of equal keys (or of nulls), as
  // in a sorted column: then they go in run by run.
  template <typename KeyAt>
  static bool InLongRuns(const column::ColumnBatch& batch, int64_t begin, int64_t n,
                         KeyAt key_at);
  // Rows [begin, begin+n) by runs of equal keys (and of nulls): one lookup and one append per
  // run, no per-row scratch.
  template <typename KeyAt>
  void AddNumericRuns(const column::ColumnBatch& batch, int64_t begin, int64_t n, KeyAt key_at);
  // Rows row .. row + count - 1 (within one container span) to key `id`, which may be new.
  void AddRowRun(uint32_t id, uint32_t row, uint32_t count);
  // The first piece that does not come in long runs: the keys so far below kFrequentKeys
  // move from their run lists to containers (first_rare_id becomes kFrequentKeys).
  void LeaveRunLists();
  // rows_.frequent holds the containers of the first `key_count` keys (at most
  // kFrequentKeys).
  void SizeFrequentKeys(size_t key_count);
  void AddStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  void AddDictionaryStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Whether most of the first of `count` rows to intern (`valid_rows` of `piece` when
  // `check_nulls`, else all) equal the row before them: a sorted or clustered column.
  static bool MostlyRepeats(const std::string_view* piece, const uint32_t* valid_rows,
                            bool check_nulls, size_t count);
  // valid_rows_: the offsets from `begin` of the rows with a value. Returns how many there
  // are.
  size_t ValidRows(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Rows [begin, begin+n) of `batch` that are null, `nulls` of them, to the nulls' rows.
  void AddNullRows(const column::ColumnBatch& batch, int64_t begin, int64_t n, uint32_t nulls);
  // Before a piece's rows are added: a row store for every key so far and, at a container
  // span's first piece, the earlier span's containers closed. The keys' rooms are closed too,
  // but for `keep_rooms` (OpenRooms) within a span.
  void BeginPiece(uint32_t first_row, bool keep_rooms = false);
  // At the start of span kSpansBeforeReserving: reserves each frequent key's room for the
  // rows expected_rows_ will bring, at the rate of its spans so far.
  void ReserveFrequentKeys();
  // TIMESTAMP values of the piece as keys (millis or micros) into ts_keys_.
  Status TimestampKeys(const column::ColumnBatch& batch, int64_t begin, int64_t n);

  const WriterKeys& keys() const { return rows_.keys(); }

  keys::PhysicalKey mapping_;
  KeyRows rows_;
  int64_t expected_rows_ = 0;  // rows known to come (ExpectRows)

  std::vector<int64_t> ts_keys_;  // converted timestamps of the current piece
  // Scratch of the current piece, reused: key id per row, and the rows that are not null.
  std::vector<uint32_t> ids_;
  std::vector<uint32_t> valid_rows_;
  std::vector<uint64_t> hashes_;  // string keys' table hashes, when prefetching
  // A dictionary-encoded batch: key id by dictionary index (kNoId until its first row).
  std::vector<uint32_t> dictionary_ids_;
  // The rooms, by key id: room for every id a piece can reach, of which only the pages of the
  // ids in use are touched.
  memory::ZeroedArray<Room> rooms_;
  bool keys_expected_ = false;  // ExpectKeysFrom has sized the arrays (or found no sample)
};

}  // namespace pyfileindex::index::bitmap
