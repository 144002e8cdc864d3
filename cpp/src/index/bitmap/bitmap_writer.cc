#include "index/bitmap/bitmap_writer.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "index/bitmap/meta_writer.h"
#include "io/byte_writer.h"
#include "memory/huge_pages.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

using column::ColumnBatch;
using column::Physical;

namespace {

constexpr int64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java counts rows in an int

Physical ExpectedPhysical(const keys::PhysicalKey& mapping) {
  if (mapping.is_timestamp()) return Physical::kTimestamp;
  switch (mapping.kind) {
    case KeyKind::kBool: return Physical::kBool;
    case KeyKind::kInt8: return Physical::kInt8;
    case KeyKind::kInt16: return Physical::kInt16;
    case KeyKind::kInt32: return Physical::kInt32;
    case KeyKind::kInt64: return Physical::kInt64;
    case KeyKind::kFloat: return Physical::kFloat;
    case KeyKind::kDouble: return Physical::kDouble;
    case KeyKind::kString:
    case KeyKind::kBinary: return Physical::kBytes;
  }
  return Physical::kInt32;
}

}  // namespace

Result<WriterOptions> ParseWriterOptions(const Options& options) {
  WriterOptions out;
  PFI_ASSIGN_OR_RETURN(int64_t version, options.GetInt("version", 2));
  if (version != 1 && version != 2) {
    // Java accepts the option and fails when serializing ("invalid version: N"); failing
    // before any row is indexed is kinder and ends the same way.
    return Status::InvalidArgument("bitmap index: invalid version: " + std::to_string(version) +
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
    : type_(type), mapping_(mapping), options_(options) {
  if (mapping_.kind == KeyKind::kString) {
    strings_ = std::make_unique<StringKeyDictionary>();
  } else {
    numeric_ = std::make_unique<NumericKeyDictionary>(mapping_.kind);
    first_rare_id_ = 0;  // run lists until a piece does not come in long runs
  }
}

const WriterKeys& BitmapIndexWriter::keys() const {
  if (strings_) return *strings_;
  return *numeric_;
}

Status BitmapIndexWriter::CheckBatch(const ColumnBatch& batch) const {
  if (failed_) return Status::InvalidArgument("bitmap index: the writer failed earlier");
  if (prepared_) return Status::InvalidArgument("bitmap index: Write after Serialize");
  if (batch.length < 0) return Status::InvalidArgument("bitmap index: negative batch length");
  if (batch.length > 0) {
    if (batch.physical != ExpectedPhysical(mapping_)) {
      return Status::InvalidArgument("bitmap index on a " + type_.ToString() +
                                     " column received values of another physical kind");
    }
    const bool has_values = mapping_.kind == KeyKind::kString
                                ? batch.strings != nullptr || batch.dictionary != nullptr
                                : batch.values != nullptr;
    if (!has_values) return Status::InvalidArgument("bitmap index: batch without values");
  }
  if (row_count_ + batch.length > kMaxRows) {
    return Status::InvalidArgument("bitmap index: more than 2^31-1 rows in one data file");
  }
  return Status::OK();
}

void BitmapIndexWriter::ExpectRows(int64_t rows) {
  expected_rows_ = std::max(expected_rows_, row_count_ + rows);
}

Status BitmapIndexWriter::Write(const ColumnBatch& batch) {
  PFI_RETURN_NOT_OK(CheckBatch(batch));
  ExpectRows(batch.length);
  if (batch.dictionary != nullptr) {
    dictionary_ids_.assign(static_cast<size_t>(batch.dictionary->length), kNoId);
  }
  for (int64_t begin = 0; begin < batch.length;) {
    const int64_t piece_left = kPieceRows - ((row_count_ + begin) & (kPieceRows - 1));
    const int64_t n = std::min(piece_left, batch.length - begin);
    Status status = AddChunk(batch, begin, n);
    if (!status.ok()) {
      failed_ = true;  // earlier rows of the batch are already in: no consistent result
      return status;
    }
    begin += n;
  }
  row_count_ += batch.length;
  return Status::OK();
}

template <typename KeyAt>
void BitmapIndexWriter::AddNumeric(const ColumnBatch& batch, int64_t begin, int64_t n,
                                   KeyAt key_at) {
  if (InLongRuns(batch, begin, n, key_at)) {
    AddNumericRuns(batch, begin, n, key_at);
    return;
  }
  if (first_rare_id_ == 0) LeaveRunLists();
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  const uint32_t first_row = static_cast<uint32_t>(row_count_ + begin);
  if (keys().size() <= kContainerKeys) {
    if (all_valid) {
      AddInRowOrder(
          first_row, n, [&](int64_t i) { return key_at(begin + i); },
          [](int64_t i) { return static_cast<uint32_t>(i); });
      return;
    }
    const size_t valid = ValidRows(batch, begin, n);
    const uint32_t* rows = valid_rows_.data();
    AddInRowOrder(
        first_row, static_cast<int64_t>(valid), [&](int64_t j) { return key_at(begin + rows[j]); },
        [rows](int64_t j) { return rows[j]; });
    AddNullRows(batch, begin, n, static_cast<uint32_t>(static_cast<size_t>(n) - valid));
    return;
  }
  // Many keys: their ids first (a rare key's list is prefetched by its id), then the rows.
  ids_.resize(static_cast<size_t>(n));
  uint32_t* ids = ids_.data();
  if (all_valid) {
    InternAll(n, [&](int64_t i) { return key_at(begin + i); },
              [ids](int64_t i, uint32_t id) { ids[i] = id; });
    AddIds(batch, begin, n, static_cast<size_t>(n));
    return;
  }
  const size_t valid = ValidRows(batch, begin, n);
  const uint32_t* rows = valid_rows_.data();
  InternAll(static_cast<int64_t>(valid), [&](int64_t j) { return key_at(begin + rows[j]); },
            [ids, rows](int64_t j, uint32_t id) { ids[rows[j]] = id; });
  AddIds(batch, begin, n, valid);
}

template <typename KeyOf, typename Take>
void BitmapIndexWriter::InternAll(int64_t count, KeyOf key_of, Take take) {
  NumericKeyDictionary& dict = *numeric_;
  int64_t j = 0;
  if (dict.IsLarge()) {
    // Many distinct keys: hide the table's cache misses behind a prefetch.
    constexpr int64_t kAhead = 16;
    for (; j + kAhead < count; ++j) {
      dict.Prefetch(key_of(j + kAhead));
      take(j, dict.Intern(key_of(j)));
    }
  } else if (dict.HasWindow()) {
    // A small integer domain: runs of keys already in the window, one at a time in between.
    while (j < count) {
      j = dict.KnownIdsInWindow(j, count, key_of, take);
      if (j < count) {
        take(j, dict.Intern(key_of(j)));
        ++j;
      }
    }
  }
  for (; j < count; ++j) take(j, dict.Intern(key_of(j)));
}

template <typename KeyOf, typename RowOf>
void BitmapIndexWriter::AddInRowOrder(uint32_t first_row, int64_t count, KeyOf key_of,
                                      RowOf row_of) {
  const RoomAppend append = OpenRooms(first_row);
  // Inlined into the lookup loops, as the append is: they are the build's hot loop.
  InternAll(count, key_of, [append, row_of](int64_t j, uint32_t id) __attribute__((always_inline)) {
    append(row_of(j), id);
  });
}

void BitmapIndexWriter::AddIds(const ColumnBatch& batch, int64_t begin, int64_t n,
                               size_t valid) {
  const uint32_t first_row = static_cast<uint32_t>(row_count_ + begin);
  if (valid == static_cast<size_t>(n)) {
    PlaceIds(first_row, n, [](int64_t j) { return static_cast<uint32_t>(j); });
    return;
  }
  const uint32_t* rows = valid_rows_.data();
  PlaceIds(first_row, static_cast<int64_t>(valid), [rows](int64_t j) { return rows[j]; });
  AddNullRows(batch, begin, n, static_cast<uint32_t>(static_cast<size_t>(n) - valid));
}

template <typename RowOf>
void BitmapIndexWriter::PlaceIds(uint32_t first_row, int64_t count, RowOf row_of) {
  const RoomAppend append = OpenRooms(first_row);
  const uint32_t* ids = ids_.data();
  const size_t key_count = keys().size();
  if (key_count <= kContainerKeys) {
    for (int64_t j = 0; j < count; ++j) {
      const uint32_t row = row_of(j);
      append(row, ids[row]);
    }
    return;
  }
  // Each rare key's row misses the cache twice, on its list and on the list's last entry:
  // the one is prefetched 16 rows ahead, the other 8.
  rare_.Resize(key_count - kContainerKeys);
  constexpr uint32_t kFirstRare = static_cast<uint32_t>(kContainerKeys);
  constexpr int64_t kAhead = 16;
  for (int64_t j = 0; j < count; ++j) {
    if (j + kAhead < count) rare_.PrefetchList(ids[row_of(j + kAhead)] - kFirstRare);
    if (j + kAhead / 2 < count) rare_.PrefetchTail(ids[row_of(j + kAhead / 2)] - kFirstRare);
    const uint32_t row = row_of(j);
    const uint32_t id = ids[row];
    if (id < kFirstRare) {
      append(row, id);
    } else {
      rare_.Append(id - kFirstRare, first_row + row);
    }
  }
}

BitmapIndexWriter::RoomAppend BitmapIndexWriter::OpenRooms(uint32_t first_row) {
  BeginPiece(first_row, /*keep_rooms=*/true);
  if (!rooms_) rooms_ = memory::ZeroedArray<Room>(kContainerKeys + kPieceRows);
  return RoomAppend{this, rooms_.get(), first_row};
}

bool BitmapIndexWriter::MakeRoom(uint32_t id, uint32_t row) {
  if (id >= kContainerKeys) {
    const uint32_t rare_id = id - static_cast<uint32_t>(kContainerKeys);
    rare_.Resize(size_t{rare_id} + 1);
    rare_.Append(rare_id, row);
    return false;
  }
  if (id >= frequent_.size()) frequent_.resize(size_t{id} + 1);  // a new key
  ContainerRows& rows = frequent_[id];
  Room& room = rooms_.get()[id];
  if (room.next != nullptr) rows.CommitTo(room.next);
  room.next = rows.ReserveRoom(static_cast<uint16_t>(row >> 16), &room.end);
  return true;
}

void BitmapIndexWriter::CloseRooms() {
  Room* const rooms = rooms_.get();
  if (rooms == nullptr) return;
  for (size_t id = 0; id < frequent_.size(); ++id) {
    if (rooms[id].next == nullptr) continue;
    frequent_[id].CommitTo(rooms[id].next);
    rooms[id] = Room{nullptr, nullptr};
  }
}

template <typename KeyAt>
bool BitmapIndexWriter::InLongRuns(const ColumnBatch& batch, int64_t begin, int64_t n,
                                   KeyAt key_at) {
  // Per run, the run path costs what several rows cost one by one (a lookup, an append and a
  // mispredicted loop exit), so it takes only pieces whose runs are longer than that: where
  // at least 29 of 32 rows, at the piece's start and at its middle, equal the row before
  // (runs of a dozen rows or more: a sorted or clustered column). Measured on 1,000 keys in
  // runs of L rows, the run path against row by row: L = 4 1.08x the time, 6 1.0, 8 0.91,
  // 16 0.79-0.87, 24 0.81.
  constexpr int64_t kSample = 32;
  constexpr int64_t kRepeats = kSample - 3;
  if (n < 4 * kSample) return false;
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  auto repeats_from = [&](int64_t from) {
    int64_t repeats = 0;
    for (int64_t i = from + 1; i <= from + kSample; ++i) {
      const bool valid = all_valid || batch.IsValid(i);
      if (valid != (all_valid || batch.IsValid(i - 1))) continue;
      repeats += !valid || key_at(i) == key_at(i - 1);  // two nulls repeat too
    }
    return repeats;
  };
  return repeats_from(begin) >= kRepeats && repeats_from(begin + n / 2) >= kRepeats;
}

template <typename KeyAt>
void BitmapIndexWriter::AddNumericRuns(const ColumnBatch& batch, int64_t begin, int64_t n,
                                       KeyAt key_at) {
  NumericKeyDictionary& dict = *numeric_;
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  auto valid = [&batch, all_valid, begin](int64_t i) {
    return all_valid || batch.IsValid(begin + i);
  };
  const uint32_t first_row = static_cast<uint32_t>(row_count_ + begin);
  BeginPiece(first_row);
  for (int64_t i = 0; i < n;) {
    int64_t end = i + 1;
    const uint32_t row = first_row + static_cast<uint32_t>(i);
    if (!valid(i)) {
      while (end < n && !valid(end)) ++end;
      nulls_.AppendRun(static_cast<uint16_t>(row >> 16), static_cast<uint16_t>(row),
                       static_cast<uint32_t>(end - i));
      i = end;
      continue;
    }
    const uint64_t key = key_at(begin + i);
    while (end < n && valid(end) && key_at(begin + end) == key) ++end;
    const uint32_t id = dict.Intern(key);
    if (end - i > 1) dict.NoteHit();  // the run's later rows: only the first hit can matter
    AddRowRun(id, row, static_cast<uint32_t>(end - i));
    i = end;
  }
}

void BitmapIndexWriter::AddRowRun(uint32_t id, uint32_t row, uint32_t count) {
  if (id < first_rare_id_) {
    if (id == frequent_.size()) frequent_.emplace_back();
    frequent_[id].AppendRun(static_cast<uint16_t>(row >> 16), static_cast<uint16_t>(row), count);
    return;
  }
  const uint32_t rare_id = id - first_rare_id_;
  rare_.Resize(size_t{rare_id} + 1);
  rare_[rare_id].AppendRun(row, count);
}

void BitmapIndexWriter::LeaveRunLists() {
  first_rare_id_ = static_cast<uint32_t>(kContainerKeys);
  const size_t moved = std::min(rare_.size(), kContainerKeys);
  SizeFrequentKeys(moved);
  for (size_t id = 0; id < moved; ++id) {
    ContainerRows& rows = frequent_[id];
    rare_[static_cast<uint32_t>(id)].ForEachPiece([&rows](uint32_t first, uint32_t last) {
      rows.AppendRun(static_cast<uint16_t>(first >> 16), static_cast<uint16_t>(first),
                     last - first + 1);
    });
  }
  rare_.DropFront(moved);
}

void BitmapIndexWriter::SizeFrequentKeys(size_t key_count) {
  // Room for every frequent key at once: a vector grown by doubling would move them all, and
  // hold two copies, a dozen times (the pages past the keys in use are never touched).
  if (frequent_.capacity() == 0) frequent_.reserve(kContainerKeys);
  frequent_.resize(std::min(key_count, kContainerKeys));
}

void BitmapIndexWriter::AddNullRows(const ColumnBatch& batch, int64_t begin, int64_t n,
                                    uint32_t nulls) {
  if (nulls == 0) return;
  const uint32_t first_row = static_cast<uint32_t>(row_count_ + begin);
  uint16_t* out = nulls_.Reserve(static_cast<uint16_t>(first_row >> 16), nulls);
  const uint16_t first_low = static_cast<uint16_t>(first_row);
  // A loop over each word's null bits: no branch per row (nulls at random rows would
  // mispredict one in every few).
  for (int64_t i = 0; i < n; i += 64) {
    const int count = static_cast<int>(std::min<int64_t>(64, n - i));
    const uint64_t rows = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    for (uint64_t missing = ~batch.ValidBits(begin + i, count) & rows; missing != 0;
         missing &= missing - 1) {
      *out++ = static_cast<uint16_t>(first_low + i + __builtin_ctzll(missing));
    }
  }
  nulls_.Commit(nulls);
}

size_t BitmapIndexWriter::ValidRows(const ColumnBatch& batch, int64_t begin, int64_t n) {
  valid_rows_.resize(static_cast<size_t>(n + ColumnBatch::kValidRowOffsetsSlack));
  return batch.ValidRowOffsets(begin, n, valid_rows_.data());
}

void BitmapIndexWriter::AddDictionaryStrings(const ColumnBatch& batch, int64_t begin,
                                             int64_t n) {
  // A row whose dictionary value was seen earlier in the batch takes its id with one load;
  // the value is interned (hashed, compared) only at its first row, so keys still get their
  // ids, and Java's HashMap its insertions, in row order.
  StringKeyDictionary& dict = *strings_;
  const int32_t* indices = batch.dictionary_indices + begin;
  const std::string_view* values = batch.dictionary->strings;
  uint32_t* const by_index = dictionary_ids_.data();
  ids_.resize(static_cast<size_t>(n));
  uint32_t* ids = ids_.data();
  auto id_of = [&](int64_t i) {
    const int32_t index = indices[i];
    uint32_t id = by_index[index];
    if (id == kNoId) {
      id = by_index[index] = dict.Intern(values[index]);
    } else {
      dict.NoteHit();
    }
    return id;
  };
  if (batch.validity == nullptr || batch.null_count == 0) {
    for (int64_t i = 0; i < n; ++i) ids[i] = id_of(i);
    AddIds(batch, begin, n, static_cast<size_t>(n));
  } else {
    const size_t valid = ValidRows(batch, begin, n);
    const uint32_t* rows = valid_rows_.data();
    for (size_t j = 0; j < valid; ++j) ids[rows[j]] = id_of(rows[j]);
    AddIds(batch, begin, n, valid);
  }
}

bool BitmapIndexWriter::MostlyRepeats(const std::string_view* chunk, const uint32_t* valid_rows,
                                      bool check_nulls, size_t count) {
  // A sample of the first rows' neighbours decides, at a cost of a few compares a piece.
  constexpr size_t kSample = 32;
  if (count < 2 * kSample) return false;
  size_t repeats = 0;
  for (size_t j = 1; j <= kSample; ++j) {
    const size_t i = check_nulls ? valid_rows[j] : j;
    const size_t before = check_nulls ? valid_rows[j - 1] : j - 1;
    repeats += StringKeyDictionary::SameBytes(chunk[i], chunk[before]);
  }
  return repeats * 2 > kSample;
}

void BitmapIndexWriter::AddStrings(const ColumnBatch& batch, int64_t begin, int64_t n) {
  if (batch.dictionary != nullptr) {
    AddDictionaryStrings(batch, begin, n);
    return;
  }
  StringKeyDictionary& dict = *strings_;
  const std::string_view* values = batch.strings;
  const bool check_nulls = !(batch.validity == nullptr || batch.null_count == 0);
  ids_.resize(static_cast<size_t>(n));
  uint32_t* ids = ids_.data();
  // The rows to intern: all of them, or the valid ones.
  size_t count = static_cast<size_t>(n);
  if (check_nulls) count = ValidRows(batch, begin, n);
  const uint32_t* valid_rows = valid_rows_.data();
  auto row_at = [check_nulls, valid_rows](size_t j) -> size_t {
    return check_nulls ? valid_rows[j] : j;
  };
  const std::string_view* chunk = values + begin;
  if (MostlyRepeats(chunk, valid_rows, check_nulls, count)) {
    // Sorted or clustered rows: a row equal to the one before takes its id with one compare,
    // no hashing or probing (a sorted STRING column of 100k keys: half the build).
    size_t previous = row_at(0);
    ids[previous] = dict.Intern(chunk[previous]);
    for (size_t j = 1; j < count; ++j) {
      const size_t i = row_at(j);
      if (StringKeyDictionary::SameBytes(chunk[i], chunk[previous])) {
        ids[i] = ids[previous];
        dict.NoteHit();
      } else {
        ids[i] = dict.Intern(chunk[i]);
      }
      previous = i;
    }
  } else if (dict.IsLarge()) {
    // Hash the rows first, so the slot of a key 16 rows ahead, and the bytes of the key
    // found there 8 rows ahead, can be prefetched.
    hashes_.resize(count);
    uint64_t* hashes = hashes_.data();
    for (size_t j = 0; j < count; ++j) hashes[j] = dict.HashBytes(chunk[row_at(j)]);
    constexpr size_t kAhead = 16;
    for (size_t j = 0; j < count; ++j) {
      if (j + kAhead < count) dict.Prefetch(hashes[j + kAhead]);
      if (j + kAhead / 2 < count) dict.PrefetchKeyBytes(hashes[j + kAhead / 2]);
      const size_t i = row_at(j);
      ids[i] = dict.Intern(chunk[i], hashes[j]);
    }
  } else {
    for (size_t j = 0; j < count; ++j) {
      const size_t i = row_at(j);
      ids[i] = dict.Intern(chunk[i]);
    }
  }
  AddIds(batch, begin, n, count);
}

void BitmapIndexWriter::BeginPiece(uint32_t first_row, bool keep_rooms) {
  const bool new_chunk = (first_row & (kChunkRows - 1)) == 0;
  if (!keep_rooms || new_chunk) CloseRooms();
  if (first_rare_id_ != 0) SizeFrequentKeys(keys().size());
  if (new_chunk) {
    // A new chunk: containers of keys absent from it would stay open (a chunk's worth of
    // 2-byte values each, e.g. every key of a sorted column) until the key's next row.
    const uint16_t high = static_cast<uint16_t>(first_row >> 16);
    for (ContainerRows& rows : frequent_) rows.CloseBefore(high);
    nulls_.CloseBefore(high);
    if (high == kProjectAfterChunks) ReserveFrequentKeys();
  }
}

void BitmapIndexWriter::ReserveFrequentKeys() {
  const int64_t chunks = (expected_rows_ + kChunkRows - 1) / kChunkRows;
  if (chunks <= 2 * int64_t{kProjectAfterChunks}) return;  // little left to grow
  // Each key (and the nulls) at the rate of its first chunks, a quarter more for chunks above
  // that rate. A closed chunk's bytes already are the run or bitmap form where Java picks
  // one, so sorted and clustered keys project small; and as no container takes more than 2
  // bytes per row, all reservations together stay within 2.5 bytes per expected row.
  const size_t groups = frequent_.size() + 1;
  auto rows_of = [this](size_t g) -> ContainerRows& {
    return g < frequent_.size() ? frequent_[g] : nulls_;
  };
  std::vector<size_t> room(groups);
  size_t total = 0;
  for (size_t g = 0; g < groups; ++g) {
    const ContainerRows& rows = rows_of(g);
    const size_t per_chunk = rows.ClosedBytes() / kProjectAfterChunks;
    room[g] = std::max(per_chunk * static_cast<size_t>(chunks) * 5 / 4, rows.UsedBytes());
    total += memory::PageBlock::RoomSize(room[g]);
  }
  // One block for all of them: it faults in huge pages, and the keys' rooms are contiguous.
  reserved_rows_ = memory::PageBlock::Allocate(total);
  if (reserved_rows_.empty()) return;  // growing as rows come works too
  for (size_t g = 0; g < groups; ++g) rows_of(g).MoveInto(reserved_rows_.Take(room[g]), room[g]);
  // A key present in most chunks so far records a container per chunk: room for all of them,
  // instead of doubling that list a dozen times.
  for (size_t g = 0; g < groups; ++g) {
    ContainerRows& rows = rows_of(g);
    if (rows.ClosedContainers() * 2 >= kProjectAfterChunks) {
      rows.ReserveContainers(static_cast<size_t>(chunks));
    }
  }
}

Status BitmapIndexWriter::TimestampKeys(const ColumnBatch& batch, int64_t begin, int64_t n) {
  const int64_t* values = batch.int64_values() + begin;
  ts_keys_.resize(static_cast<size_t>(n));
  const bool micros = mapping_.micros();
  for (int64_t i = 0; i < n; ++i) {
    bool overflow = false;
    ts_keys_[i] = micros ? column::ToEpochMicros(values[i], batch.timestamp_unit, &overflow)
                         : column::ToEpochMillis(values[i], batch.timestamp_unit, &overflow);
    if (overflow && batch.IsValid(begin + i)) {
      return Status::InvalidArgument(
          "bitmap index: timestamp " + std::to_string(values[i]) + " at row " +
          std::to_string(row_count_ + begin + i) + " does not fit a long in " +
          (micros ? "microseconds" : "milliseconds"));
    }
  }
  return Status::OK();
}

Status BitmapIndexWriter::AddChunk(const ColumnBatch& batch, int64_t begin, int64_t n) {
  if (mapping_.is_timestamp()) {
    const column::TimeUnit unit = batch.timestamp_unit;
    const bool native = mapping_.micros() ? unit == column::TimeUnit::kMicro
                                                  : unit == column::TimeUnit::kMilli;
    if (native) {
      const int64_t* v = batch.int64_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return IntegerBits(v[i]); });
      return Status::OK();
    }
    PFI_RETURN_NOT_OK(TimestampKeys(batch, begin, n));
    const int64_t* v = ts_keys_.data();  // indexed by row - begin
    AddNumeric(batch, begin, n, [v, begin](int64_t i) { return IntegerBits(v[i - begin]); });
    return Status::OK();
  }
  switch (mapping_.kind) {
    case KeyKind::kBool: {
      const uint8_t* v = batch.bool_values();
      AddNumeric(batch, begin, n, [v](int64_t i) -> uint64_t { return v[i] != 0; });
      break;
    }
    case KeyKind::kInt8: {
      const int8_t* v = batch.int8_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return IntegerBits(v[i]); });
      break;
    }
    case KeyKind::kInt16: {
      const int16_t* v = batch.int16_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return IntegerBits(v[i]); });
      break;
    }
    case KeyKind::kInt32: {
      const int32_t* v = batch.int32_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return IntegerBits(v[i]); });
      break;
    }
    case KeyKind::kInt64: {
      const int64_t* v = batch.int64_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return IntegerBits(v[i]); });
      break;
    }
    case KeyKind::kFloat: {
      const float* v = batch.float_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return FloatBits(v[i]); });
      break;
    }
    case KeyKind::kDouble: {
      const double* v = batch.double_values();
      AddNumeric(batch, begin, n, [v](int64_t i) { return DoubleBits(v[i]); });
      break;
    }
    case KeyKind::kString:
    case KeyKind::kBinary: AddStrings(batch, begin, n); break;
  }
  return Status::OK();
}

Result<size_t> BitmapIndexWriter::PrepareSerialize() {
  if (failed_) return Status::InvalidArgument("bitmap index: the writer failed earlier");
  if (prepared_) return Status::InvalidArgument("bitmap index: Serialize called twice");
  prepared_ = true;
  CloseRooms();
  dictionary_ids_ = std::vector<uint32_t>();
  const WriterKeys& keys = this->keys();
  const KeyKind kind = keys.kind();
  const size_t key_count = keys.size();
  trim_heap_ = keys.MemoryBytes() >= kTrimAfterDictionaryBytes;
  key_count_ = key_count;
  java_order_ = keys.JavaOrder();
  // The meta lists keys in HashMap order (V1) or sorted (V2); keys that came in ascending
  // order are sorted by id already and need no list.
  if (options_.version == 2 && !keys.IdsAreSorted()) sorted_ids_ = keys.SortedIds();
  // Numeric keys are taken out of their dictionary, which (slots, HashMap replay: tens of MB
  // with a million keys) goes before they are put in meta order and the plan is built.
  // String keys stay in theirs until the meta is written (the meta's keys are read from it);
  // only its lookup table and replay go now.
  if (numeric_ != nullptr) {
    memory::GrowingVector<uint64_t> by_id = numeric_->TakeKeys();
    numeric_.reset();
    const uint32_t* order = meta_ids();
    if (KeyBitsFit32(kind)) {
      meta_bits32_.resize(key_count);
      for (size_t i = 0; i < key_count; ++i) meta_bits32_[i] = NarrowKeyBits(by_id[IdAt(order, i)]);
    } else if (order == nullptr) {  // meta order is id order: the keys as they are
      meta_bits_ = std::move(by_id);
    } else {
      meta_bits_.resize(key_count);
      for (size_t i = 0; i < key_count; ++i) meta_bits_[i] = by_id[order[i]];
    }
  } else {
    strings_->ReleaseLookup();
  }
  if (trim_heap_) memory::ReturnFreeHeapPages();

  // Body: the null bitmap (only when it has >= 2 rows), then the bitmaps of keys with >= 2
  // rows, in HashMap order; a key with one row is inlined in the meta as -1 - row. Offsets
  // are body-relative, so every size is known before a byte is written. By key id:
  // key_bytes_ is the bitmap's size (0: a single row), key_offsets_ its offset (or -1 - row).
  rare_plan_.gather_inline = rare_.size() >= kTrimAfterKeys;
  key_bytes_.assign(key_count, 0);
  key_offsets_.assign(key_count, 0);
  const uint64_t null_count = nulls_.Count();
  // Java's meta records the null bitmap's serialized length even when it is not written.
  const size_t null_bytes = nulls_.SerializedSize();
  null_body_bytes_ = null_count >= 2 ? null_bytes : 0;
  size_t body = null_body_bytes_;
  for (uint32_t id : java_order_) {
    size_t size = 0;
    if (id < first_rare_id_) {
      ContainerRows& rows = frequent_[id];
      if (rows.Count() == 1) {
        key_offsets_[id] = static_cast<uint32_t>(-1 - static_cast<int32_t>(rows.FirstRow()));
        continue;
      }
      size = rows.SerializedSize();
    } else {
      RowList& rows = rare_[id - first_rare_id_];
      if (rows.IsSingle()) {
        key_offsets_[id] = static_cast<uint32_t>(-1 - static_cast<int32_t>(rows.OnlyRow()));
        continue;
      }
      size = rows.SerializedSize();
      ++rare_plan_.body_keys;
      if (Gathers(rows)) {
        ++rare_plan_.gathered_keys;
        rare_plan_.gathered_entries += rows.PendingEntries();
      }
    }
    if (body + size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return Status::InvalidArgument("bitmap index: the bitmaps exceed 2 GiB");
    }
    key_bytes_[id] = static_cast<uint32_t>(size);
    key_offsets_[id] = static_cast<uint32_t>(body);
    body += size;
  }

  MetaHead head;
  head.row_count = static_cast<int32_t>(row_count_);
  head.has_null = null_count > 0;
  head.null_offset = null_count == 1 ? -1 - static_cast<int32_t>(nulls_.FirstRow()) : 0;
  head.null_length = static_cast<int32_t>(null_bytes);
  if (options_.version == 2) {
    PFI_ASSIGN_OR_RETURN(meta_plan_,
                         MetaPlan::V2(head, kind, MetaKeysInOrder(), options_.block_size_limit));
  } else {
    meta_plan_ = MetaPlan::V1(head, kind, MetaKeysInOrder());
  }
  body_bytes_ = body;
  return meta_plan_.bytes() + body;
}

const uint32_t* BitmapIndexWriter::meta_ids() const {
  if (options_.version == 1) return java_order_.data();
  return sorted_ids_.empty() ? nullptr : sorted_ids_.data();
}

MetaKeys BitmapIndexWriter::MetaKeysInOrder() const {
  if (strings_ != nullptr) {
    return MetaKeys::OfDictionary(*strings_, meta_ids(), key_count_);
  }
  if (KeyBitsFit32(mapping_.kind)) {  // the dictionary is gone by now
    return MetaKeys::Numeric32(mapping_.kind, meta_bits32_.data(), meta_bits32_.size());
  }
  return MetaKeys::Numeric(meta_bits_.data(), meta_bits_.size());
}

void BitmapIndexWriter::SerializeTo(uint8_t* out) {
  // The body first, releasing the rows as it goes, then the meta: the string keys the meta
  // is read from and the rows are never resident together with the whole container.
  // (Tried for numeric keys: the meta first, its keys and sizes released before the body; a
  // sorted column's 1,000 keys peaked higher, 84 KiB against 72-80.)
  uint8_t* const body = out + meta_plan_.bytes();
  // Every key's bitmap goes to its place in the body (PrepareSerialize laid them out in Java
  // order), so the keys can be written in whatever order frees memory soonest.
  // Rare keys are written out of order (SerializeRareKeys), and the meta after the body: on
  // huge pages the first of those writes would make the whole payload resident while the rows
  // are still there.
  if (rare_.size() > 0) memory::WithdrawHugePages(out, meta_plan_.bytes() + body_bytes_);
  // The rare keys first: their rows are gathered and freed before writes all over the body
  // (the frequent keys' bitmaps lie between theirs) make its pages resident.
  SerializeRareKeys(body);
  if (null_body_bytes_ > 0) nulls_.SerializeTo(body);
  for (uint32_t id : java_order_) {
    if (key_bytes_[id] != 0 && id < first_rare_id_) {
      frequent_[id].SerializeTo(body + key_offsets_[id]);  // releases the key's rows
    }
  }
  // The rows are in the payload now, and what only the body needed goes (its pages handed
  // back: the meta is about to fill the rest of the payload); then the meta.
  frequent_ = std::vector<ContainerRows>();
  if (options_.version == 2) memory::ReleaseVector(&java_order_);
  if (trim_heap_) memory::ReturnFreeHeapPages();
  meta_plan_.WriteTo(MetaKeysInOrder(),
                     MetaEntries(meta_ids(), key_offsets_.data(), key_bytes_.data()), out);
  strings_.reset();
  memory::ReleaseVector(&meta_bits_);
  memory::ReleaseVector(&meta_bits32_);
  memory::ReleaseVector(&sorted_ids_);
  memory::ReleaseVector(&java_order_);
  memory::ReleaseVector(&key_bytes_);
  memory::ReleaseVector(&key_offsets_);
  meta_plan_ = MetaPlan();
}

void BitmapIndexWriter::SerializeRareKeys(uint8_t* body) {
  // java_order_ is body order. A million keys' row arrays lie scattered over the heap: written
  // out in body order, each freed array leaves a hole in pages that stay resident; in address
  // order, the body's pages are touched at random and all resident at once. So the rows are
  // first gathered, in body order, into one array (the heap they leave is handed back whole),
  // then written from it front to back, its pages handed back as they are passed. Lists kept
  // in a bitmap are written at once.
  auto has_rare_body = [this](uint32_t id) {
    return id >= first_rare_id_ && key_bytes_[id] != 0;
  };
  const size_t total = rare_plan_.gathered_entries;
  const size_t gathered_keys = rare_plan_.gathered_keys;
  const size_t body_keys = rare_plan_.body_keys;
  std::vector<uint32_t> gathered(total);
  std::vector<uint32_t> counts(gathered_keys);  // of the gathered keys, in body order
  std::vector<bool> written(body_keys);  // of the keys with a body, in body order: not gathered
  size_t at = 0;
  size_t k = 0;
  size_t j = 0;
  for (uint32_t id : java_order_) {
    if (!has_rare_body(id)) continue;
    RowList& rows = rare_[id - first_rare_id_];
    if (!Gathers(rows)) {
      rows.SerializeTo(body + key_offsets_[id]);
      written[j++] = true;
      continue;
    }
    ++j;
    counts[k] = rows.PendingEntries();
    rows.MoveEntriesTo(gathered.data() + at);
    at += counts[k++];
  }
  rare_ = RowSets();
  // The lists were thousands of small blocks: unless handed back they stay resident while
  // the body they were gathered for is written (STRING c=100k: 49 MB beside an 80 MB body).
  if (gathered_keys >= kTrimAfterKeys || total * sizeof(uint32_t) >= kTrimAfterBytes) {
    memory::ReturnFreeHeapPages();
  }

  constexpr size_t kReturnEveryEntries = size_t{64} << 10;  // 256 KiB of entries
  size_t returned = 0;
  at = 0;
  k = 0;
  j = 0;
  for (uint32_t id : java_order_) {
    if (k == gathered_keys) break;
    if (!has_rare_body(id) || written[j++]) continue;
    RowList::SerializeEntries(gathered.data() + at, counts[k], body + key_offsets_[id]);
    at += counts[k++];
    if (at - returned >= kReturnEveryEntries) {
      memory::ReturnPages(gathered.data() + returned, (at - returned) * sizeof(uint32_t));
      returned = at;
    }
  }
  memory::ReleaseVector(&gathered);
  memory::ReleaseVector(&counts);
}

Result<std::vector<uint8_t>> BitmapIndexWriter::Serialize() {
  PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
  std::vector<uint8_t> out(size);
  SerializeTo(out.data());
  return out;
}

}  // namespace pyfileindex::index::bitmap
