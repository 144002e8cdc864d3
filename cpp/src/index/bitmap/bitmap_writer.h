// BitmapIndexWriter: Paimon's BitmapFileIndex.Writer, byte for byte (versions 1 and 2).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/container_rows.h"
#include "index/bitmap/key_dictionary.h"
#include "index/bitmap/meta_writer.h"
#include "index/bitmap/row_sets.h"
#include "index/index_type.h"
#include "memory/page_block.h"
#include "memory/zeroed_array.h"

namespace pyfileindex::index::bitmap {

struct WriterOptions {
  int version = 2;
  int64_t block_size_limit = 16 * 1024;  // V2 "index-block-size"
};

// Reads "version" (1|2, default 2) and, for version 2, "index-block-size" (default 16kb).
Result<WriterOptions> ParseWriterOptions(const Options& options);

class BitmapIndexWriter final : public ColumnIndexWriter {
 public:
  BitmapIndexWriter(const DataType& type, const keys::PhysicalKey& mapping, WriterOptions options);

  Status Write(const column::ColumnBatch& batch) override;
  // String keys: a dictionary's values are interned once each, at their first row.
  bool TakesDictionaries() const override { return strings_ != nullptr; }
  void ExpectRows(int64_t rows) override;
  Result<std::vector<uint8_t>> Serialize() override;
  // In place: the payload is written straight from the rows, which are released as it goes.
  Result<size_t> PrepareSerialize() override;
  void SerializeTo(uint8_t* out) override;

 private:
  // Rows are processed in chunks of this many, aligned to row numbers: exactly the 16-bit
  // chunks of roaring bitmaps (a chunk's rows of a key are one container).
  static constexpr int64_t kChunkRows = 1 << 16;
  // A chunk's rows are added this many at a time (aligned, so a piece never spans chunks):
  // the per-row scratch (ids_ and the like) stays at 64 KiB, in cache, whatever the batch.
  static constexpr int64_t kPieceRows = 1 << 14;
  // The first this many distinct keys keep their rows as containers (frequent keys come first
  // in low-cardinality columns); later keys as row lists (compact for rare keys). While there
  // are no more keys than this, a piece's rows go straight to their keys' containers as their
  // keys are looked up (numeric keys), or after the piece's keys are (strings).
  static constexpr size_t kContainerKeys = 1 << 12;
  static constexpr uint32_t kNoId = 0xFFFFFFFFu;
  // A writer whose dictionary held this many heap bytes hands the C library's free heap back
  // after freeing it: those blocks would otherwise stay resident under the container (a sorted
  // STRING column of 100k keys: 2.7 MB, a fifth of the build's peak). Below it the trim (a
  // walk of the whole heap) costs more than it returns, and a task writing file after file
  // (Spark) would only fault the pages in again for the next file.
  static constexpr size_t kTrimAfterDictionaryBytes = size_t{2} << 20;
  // The same for the rows: after freeing the lists of this many keys, or this many bytes of
  // row lists at once.
  static constexpr size_t kTrimAfterKeys = size_t{1} << 17;
  static constexpr size_t kTrimAfterBytes = size_t{8} << 20;
  static constexpr uint32_t kProjectAfterChunks = 4;

  Status CheckBatch(const column::ColumnBatch& batch) const;
  // Adds rows [begin, begin+n) of `batch` (within one kPieceRows-aligned piece of the file's
  // rows) to their keys' (or the nulls') rows.
  Status AddChunk(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  template <typename KeyAt>
  void AddNumeric(const column::ColumnBatch& batch, int64_t begin, int64_t n, KeyAt key_at);
  // Ids of `count` keys into the numeric dictionary, in order: key_of(j)'s id goes to
  // take(j, id) (a new key's id handed out first).
  template <typename KeyOf, typename Take>
  void InternAll(int64_t count, KeyOf key_of, Take take);
  // Adds the rows first_row + row_of(j) (j < count, ascending) of numeric keys key_of(j)
  // straight to their keys' open containers as they are interned, in row order: one store a
  // row into the key's room, no ids stored (while the piece starts with at most
  // kContainerKeys keys; a rare key's rows go to its list).
  template <typename KeyOf, typename RowOf>
  void AddInRowOrder(uint32_t first_row, int64_t count, KeyOf key_of, RowOf row_of);
  // Rows [begin, begin+n) of `batch` whose keys' ids are in ids_ (by offset from `begin`):
  // all n of them, or when `valid` < n the valid_rows_ (ValidRows), the others null.
  void AddIds(const column::ColumnBatch& batch, int64_t begin, int64_t n, size_t valid);
  // Rows first_row + row_of(j) (j < count, ascending) to the keys ids_[row_of(j)], in row
  // order: a frequent key's row into its room, as AddInRowOrder does; a rare key's row (once
  // there are more than kContainerKeys keys) to its list, prefetched a few rows ahead.
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
    BitmapIndexWriter* writer;
    Room* rooms;
    uint32_t first_row;
    // The hot loop of the build: inlined into it, whatever the compiler's budget says.
    __attribute__((always_inline)) void operator()(uint32_t row, uint32_t id) const {
      Room& room = rooms[id];
      const uint32_t file_row = first_row + row;
      if (room.next == room.end && !writer->MakeRoom(id, file_row)) return;
      *room.next++ = static_cast<uint16_t>(file_row);
    }
  };
  // BeginPiece(first_row), keeping the rooms open within the chunk; the piece's appender.
  RoomAppend OpenRooms(uint32_t first_row);
  // Room for more rows of key `id` in the chunk of `row` (the rows stored in its room so far
  // committed), or, for a rare key, `row` added to it: false then.
  bool MakeRoom(uint32_t id, uint32_t row);
  // Commits the rows stored in every key's room and closes the rooms (before the rows are
  // added another way, their chunk ends, or they are serialized).
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
  // Rows row .. row + count - 1 (within one chunk) to key `id`, which may be new.
  void AddRowRun(uint32_t id, uint32_t row, uint32_t count);
  // The first piece that does not come in long runs: the keys so far below kContainerKeys
  // move from their run lists to containers (first_rare_id_ becomes kContainerKeys).
  void LeaveRunLists();
  // frequent_ holds the containers of the first `key_count` keys (at most kContainerKeys).
  void SizeFrequentKeys(size_t key_count);
  void AddStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  void AddDictionaryStrings(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Whether most of the first of `count` rows to intern (`valid_rows` of `chunk` when
  // `check_nulls`, else all) equal the row before them: a sorted or clustered column.
  static bool MostlyRepeats(const std::string_view* chunk, const uint32_t* valid_rows,
                            bool check_nulls, size_t count);
  // valid_rows_: the offsets from `begin` of the rows with a value. Returns how many there
  // are.
  size_t ValidRows(const column::ColumnBatch& batch, int64_t begin, int64_t n);
  // Rows [begin, begin+n) of `batch` that are null, `nulls` of them, to the nulls' rows.
  void AddNullRows(const column::ColumnBatch& batch, int64_t begin, int64_t n, uint32_t nulls);
  // Before a piece's rows are added: a row store for every key so far and, at a chunk's
  // first piece, the earlier chunk's containers closed. The keys' rooms are closed too, but
  // for `keep_rooms` (OpenRooms) within a chunk.
  void BeginPiece(uint32_t first_row, bool keep_rooms = false);
  // At the start of chunk kProjectAfterChunks: reserves each frequent key's room for the rows
  // expected_rows_ will bring, at the rate of its chunks so far.
  void ReserveFrequentKeys();
  // Writes the bitmaps of the rare keys to their places in `body` (see SerializeTo).
  void SerializeRareKeys(uint8_t* body);
  // Whether SerializeRareKeys gathers a rare key's rows before writing them.
  bool Gathers(const RowList& rows) const {
    return rows.AllPending() && (rare_plan_.gather_inline || !rows.IsInline());
  }
  // The key ids in the meta's order (V1: HashMap order, V2: sorted; nullptr: the ids in
  // order), and their keys.
  const uint32_t* meta_ids() const;
  MetaKeys MetaKeysInOrder() const;
  // TIMESTAMP values of the chunk as keys (millis or micros) into ts_keys_.
  Status TimestampKeys(const column::ColumnBatch& batch, int64_t begin, int64_t n);

  const WriterKeys& keys() const;

  DataType type_;
  keys::PhysicalKey mapping_;
  WriterOptions options_;
  std::unique_ptr<NumericKeyDictionary> numeric_;
  std::unique_ptr<StringKeyDictionary> strings_;
  // The room ReserveFrequentKeys gave the frequent keys (and the nulls): declared before
  // them, so it outlives their rows.
  memory::PageBlock reserved_rows_;
  std::vector<ContainerRows> frequent_;  // key ids [0, first_rare_id_)
  RowSets rare_;                         // key ids from first_rare_id_, at id - first_rare_id_
  // kContainerKeys, or 0 while every piece of a numeric column came in long runs (a sorted
  // or clustered column): then every key keeps its rows as a run list, 16 bytes with one run
  // inline, where a container would take 88 bytes and a body and record on the heap (a
  // sorted column's 1,000 keys: 170 KB for an index of 28 KB).
  uint32_t first_rare_id_ = static_cast<uint32_t>(kContainerKeys);
  ContainerRows nulls_;
  int64_t row_count_ = 0;
  int64_t expected_rows_ = 0;  // rows known to come (ExpectRows, the current batch)
  bool failed_ = false;  // a Write failed half-way; Serialize refuses
  // The dictionary was large (kTrimAfterDictionaryBytes): the free heap is handed back after
  // freeing it and after freeing the rows.
  bool trim_heap_ = false;
  bool prepared_ = false;  // PrepareSerialize ran: the keys and rows are laid out, no more rows

  // Between PrepareSerialize and SerializeTo: the meta's layout, the key ids in HashMap order
  // (and, for V2, sorted), the numeric keys' bits in meta order, each key's body size (0: no
  // body, the row is inlined in the meta) and the null bitmap's (0: not written).
  MetaPlan meta_plan_;
  std::vector<uint32_t> java_order_;
  std::vector<uint32_t> sorted_ids_;  // empty when the ids are sorted already
  size_t key_count_ = 0;
  memory::GrowingVector<uint64_t> meta_bits_;
  // Keys of at most 4 bytes are kept in 4 (KeyBitsFit32): the meta's keys lie beside the
  // payload until it is written (a sorted column of 1,000 INT keys: a page of a 28.6 KB
  // index's budget).
  memory::GrowingVector<uint32_t> meta_bits32_;
  std::vector<uint32_t> key_bytes_;    // by key id: its bitmap's bytes (0: none in the body)
  std::vector<uint32_t> key_offsets_;  // by key id: where its bitmap starts in the body
  // The rare keys with a body, and those of them whose rows SerializeRareKeys gathers.
  struct RarePlan {
    // Whether lists held inline are gathered too: only when there are many of them (the
    // lists' array, 16 bytes a key, is then handed back; gathered they take 12). For a
    // few thousand, the gathered copy would only add to the peak.
    bool gather_inline = false;
    size_t body_keys = 0;
    size_t gathered_keys = 0;
    size_t gathered_entries = 0;
  };
  RarePlan rare_plan_;
  size_t null_body_bytes_ = 0;
  size_t body_bytes_ = 0;

  std::vector<int64_t> ts_keys_;  // converted timestamps of the current chunk
  // Scratch of the current piece, reused: key id per row, and the rows that are not null.
  std::vector<uint32_t> ids_;
  std::vector<uint32_t> valid_rows_;
  std::vector<uint64_t> hashes_;  // string keys' table hashes, when prefetching
  // A dictionary-encoded batch: key id by dictionary index (kNoId until its first row).
  std::vector<uint32_t> dictionary_ids_;
  // The rooms, by key id: room for every id a piece can reach, of which only the pages of the
  // ids in use are touched.
  memory::ZeroedArray<Room> rooms_;
};

}  // namespace pyfileindex::index::bitmap
