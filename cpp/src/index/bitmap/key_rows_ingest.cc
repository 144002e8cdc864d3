#include "index/bitmap/key_rows_ingest.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "column/column_batch.h"
#include "index/bitmap/distinct_estimate.h"
#include "hash/mix64.h"
#include "index/keys/batch_keys.h"

namespace pyfileindex::index::bitmap {

using column::ColumnBatch;

KeyRowsIngest::KeyRowsIngest(const keys::PhysicalKey& mapping) : mapping_(mapping) {
  if (mapping_.kind == KeyKind::kString) {
    rows_.strings = std::make_unique<StringKeyDictionary>();
  } else {
    rows_.numeric = std::make_unique<NumericKeyDictionary>(mapping_.kind);
    rows_.first_rare_id = 0;  // run lists until a piece does not come in long runs
  }
}

void KeyRowsIngest::ExpectRows(int64_t rows) {
  expected_rows_ = std::max(expected_rows_, rows_.row_count + rows);
}

Status KeyRowsIngest::Add(const ColumnBatch& batch) {
  ExpectRows(batch.length);
  if (batch.dictionary != nullptr) {
    dictionary_ids_.assign(static_cast<size_t>(batch.dictionary->length), kNoId);
  }
  for (int64_t begin = 0; begin < batch.length;) {
    const int64_t piece_left =
        tuning::kScratchRows - ((rows_.row_count + begin) & (tuning::kScratchRows - 1));
    const int64_t n = std::min(piece_left, batch.length - begin);
    if (!keys_expected_ && keys().size() >= tuning::kEstimateFromKeys) {
      ExpectKeysFrom(batch, begin);
    }
    PFI_RETURN_NOT_OK(AddPiece(batch, begin, n));
    begin += n;
  }
  rows_.row_count += batch.length;
  return Status::OK();
}

namespace {

// Row i's value bits as one word, for the sample only (equal values, equal words; a
// timestamp's raw value stands for its key).
uint64_t SampleBits(const ColumnBatch& batch, int64_t i) {
  const size_t width = column::ValueWidth(batch.physical);
  const uint8_t* at = static_cast<const uint8_t*>(batch.values) + static_cast<size_t>(i) * width;
  uint64_t low = 0;
  std::memcpy(&low, at, std::min<size_t>(width, 8));
  if (width <= 8) return low;
  uint64_t high = 0;
  std::memcpy(&high, at + 8, std::min<size_t>(width - 8, 8));
  return low ^ hash::Mix64(high);
}

}  // namespace

void KeyRowsIngest::ExpectKeysFrom(const ColumnBatch& batch, int64_t begin) {
  const int64_t rest = batch.length - begin;
  const int64_t pairs = std::min(tuning::kEstimateSampleRows, rest / 4) / 2;
  // A dictionary-encoded batch interns each dictionary value once: nothing to size there.
  if (2 * pairs < tuning::kEstimateMinSampleRows || batch.dictionary != nullptr) return;
  keys_expected_ = true;
  StringKeyDictionary* const strings = rows_.strings.get();
  DistinctSample sample;  // once per writer: its set goes with it
  sample.Start(static_cast<size_t>(2 * pairs));
  size_t sampled_bytes = 0;
  auto add = [&](int64_t i) {
    if (!batch.IsValid(i)) return;
    if (strings != nullptr) {
      const std::string_view bytes = batch.StringAt(i);
      sampled_bytes += bytes.size();
      sample.Add(strings->HashBytes(bytes));
    } else {
      sample.Add(hash::Mix64(SampleBits(batch, i)));
    }
  };
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t i = begin + k * (rest - 1) / pairs;
    add(i);
    add(i + 1);
  }
  const size_t sampled = sample.sampled();
  if (sampled < static_cast<size_t>(tuning::kEstimateMinSampleRows) / 2) return;  // mostly nulls
  const double valid_share = static_cast<double>(sampled) / static_cast<double>(2 * pairs);
  const size_t have = keys().size();
  // The keys of the file's valid rows known to come (the caller's hint, at least this batch),
  // as the sample's domain would give them, the margin on the keys still to come (a column
  // that has all its keys already is sized for them), but no more than rows left to bring them.
  const int64_t file_rows = std::max(expected_rows_, rows_.row_count + batch.length);
  const int64_t rows_left = file_rows - (rows_.row_count + begin);
  const double projected = sample.ExpectedDistinct(static_cast<double>(file_rows) * valid_share);
  // Lists of keys with more rows than a block holds would leave their blocks unused.
  const double rows_per_key =
      static_cast<double>(file_rows) * valid_share / std::max(projected, 1.0);
  rows_.rare.UseBlocks(rows_per_key <= ListBlocks::kBlockEntries);
  const double to_come = std::max(projected - static_cast<double>(have), 0.0);
  const double expected = static_cast<double>(have) +
                          std::min(to_come * tuning::kEstimateMargin, static_cast<double>(rows_left));
  const size_t count = static_cast<size_t>(expected);
  if (count <= have) return;
  if (strings != nullptr) {
    const double bytes_per_key = static_cast<double>(sampled_bytes) / static_cast<double>(sampled);
    strings->ExpectKeys(count, static_cast<size_t>(static_cast<double>(count) * bytes_per_key));
  } else {
    rows_.numeric->ExpectKeys(count);
  }
  if (count > rows_.first_rare_id) rows_.rare.Reserve(count - rows_.first_rare_id);
}

KeyRows KeyRowsIngest::Finish() {
  CloseRooms();
  return std::move(rows_);
}

template <typename KeyAt>
void KeyRowsIngest::AddNumeric(const ColumnBatch& batch, int64_t begin, int64_t n,
                               KeyAt key_at) {
  if (InLongRuns(batch, begin, n, key_at)) {
    AddNumericRuns(batch, begin, n, key_at);
    return;
  }
  if (rows_.first_rare_id == 0) LeaveRunLists();
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  const uint32_t first_row = static_cast<uint32_t>(rows_.row_count + begin);
  if (keys().size() <= tuning::kFrequentKeys) {
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
void KeyRowsIngest::InternAll(int64_t count, KeyOf key_of, Take take) {
  NumericKeyDictionary& dict = *rows_.numeric;
  int64_t j = 0;
  if (dict.IsLarge()) {
    // Many distinct keys: hide the table's cache misses behind a prefetch.
    constexpr int64_t kAhead = tuning::kPrefetchRows;
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
void KeyRowsIngest::AddInRowOrder(uint32_t first_row, int64_t count, KeyOf key_of,
                                  RowOf row_of) {
  const RoomAppend append = OpenRooms(first_row);
  // Inlined into the lookup loops, as the append is: they are the build's hot loop.
  InternAll(count, key_of, [append, row_of](int64_t j, uint32_t id) __attribute__((always_inline)) {
    append(row_of(j), id);
  });
}

void KeyRowsIngest::AddIds(const ColumnBatch& batch, int64_t begin, int64_t n,
                           size_t valid) {
  const uint32_t first_row = static_cast<uint32_t>(rows_.row_count + begin);
  if (valid == static_cast<size_t>(n)) {
    PlaceIds(first_row, n, [](int64_t j) { return static_cast<uint32_t>(j); });
    return;
  }
  const uint32_t* rows = valid_rows_.data();
  PlaceIds(first_row, static_cast<int64_t>(valid), [rows](int64_t j) { return rows[j]; });
  AddNullRows(batch, begin, n, static_cast<uint32_t>(static_cast<size_t>(n) - valid));
}

template <typename RowOf>
void KeyRowsIngest::PlaceIds(uint32_t first_row, int64_t count, RowOf row_of) {
  const RoomAppend append = OpenRooms(first_row);
  const uint32_t* ids = ids_.data();
  const size_t key_count = keys().size();
  if (key_count <= tuning::kFrequentKeys) {
    for (int64_t j = 0; j < count; ++j) {
      const uint32_t row = row_of(j);
      append(row, ids[row]);
    }
    return;
  }
  // Each rare key's row misses the cache twice, on its list and on the list's last entry:
  // the one is prefetched kPrefetchRows rows ahead, the other half as far.
  rows_.rare.Resize(key_count - tuning::kFrequentKeys);
  constexpr uint32_t kFirstRare = static_cast<uint32_t>(tuning::kFrequentKeys);
  constexpr int64_t kAhead = tuning::kPrefetchRows;
  for (int64_t j = 0; j < count; ++j) {
    if (j + kAhead < count) rows_.rare.PrefetchList(ids[row_of(j + kAhead)] - kFirstRare);
    if (j + kAhead / 2 < count) rows_.rare.PrefetchTail(ids[row_of(j + kAhead / 2)] - kFirstRare);
    const uint32_t row = row_of(j);
    const uint32_t id = ids[row];
    if (id < kFirstRare) {
      append(row, id);
    } else {
      rows_.rare.Append(id - kFirstRare, first_row + row);
    }
  }
}

KeyRowsIngest::RoomAppend KeyRowsIngest::OpenRooms(uint32_t first_row) {
  BeginPiece(first_row, /*keep_rooms=*/true);
  if (!rooms_) rooms_ = memory::ZeroedArray<Room>(tuning::kFrequentKeys + tuning::kScratchRows);
  return RoomAppend{this, rooms_.get(), first_row};
}

bool KeyRowsIngest::MakeRoom(uint32_t id, uint32_t row) {
  if (id >= tuning::kFrequentKeys) {
    const uint32_t rare_id = id - static_cast<uint32_t>(tuning::kFrequentKeys);
    rows_.rare.Resize(size_t{rare_id} + 1);
    rows_.rare.Append(rare_id, row);
    return false;
  }
  if (id >= rows_.frequent.size()) rows_.frequent.resize(size_t{id} + 1);  // a new key
  ContainerRows& rows = rows_.frequent[id];
  Room& room = rooms_.get()[id];
  if (room.next != nullptr) rows.CommitTo(room.next);
  room.next = rows.ReserveRoom(static_cast<uint16_t>(row >> 16), &room.end);
  return true;
}

void KeyRowsIngest::CloseRooms() {
  Room* const rooms = rooms_.get();
  if (rooms == nullptr) return;
  for (size_t id = 0; id < rows_.frequent.size(); ++id) {
    if (rooms[id].next == nullptr) continue;
    rows_.frequent[id].CommitTo(rooms[id].next);
    rooms[id] = Room{nullptr, nullptr};
  }
}

template <typename KeyAt>
bool KeyRowsIngest::InLongRuns(const ColumnBatch& batch, int64_t begin, int64_t n,
                               KeyAt key_at) {
  // Per run, the run path costs what several rows cost one by one (a lookup, an append and a
  // mispredicted loop exit), so it takes only pieces whose runs are longer than that: where
  // nearly every sampled row, at the piece's start and at its middle, equals the row before.
  constexpr int64_t kSample = tuning::kRunSampleRows;
  constexpr int64_t kRepeats = tuning::kRunSampleRepeats;
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
void KeyRowsIngest::AddNumericRuns(const ColumnBatch& batch, int64_t begin, int64_t n,
                                   KeyAt key_at) {
  NumericKeyDictionary& dict = *rows_.numeric;
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  auto valid = [&batch, all_valid, begin](int64_t i) {
    return all_valid || batch.IsValid(begin + i);
  };
  const uint32_t first_row = static_cast<uint32_t>(rows_.row_count + begin);
  BeginPiece(first_row);
  for (int64_t i = 0; i < n;) {
    int64_t end = i + 1;
    const uint32_t row = first_row + static_cast<uint32_t>(i);
    if (!valid(i)) {
      while (end < n && !valid(end)) ++end;
      rows_.nulls.AppendRun(static_cast<uint16_t>(row >> 16), static_cast<uint16_t>(row),
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

void KeyRowsIngest::AddRowRun(uint32_t id, uint32_t row, uint32_t count) {
  if (id < rows_.first_rare_id) {
    if (id == rows_.frequent.size()) rows_.frequent.emplace_back();
    rows_.frequent[id].AppendRun(static_cast<uint16_t>(row >> 16), static_cast<uint16_t>(row),
                                 count);
    return;
  }
  const uint32_t rare_id = id - rows_.first_rare_id;
  rows_.rare.Resize(size_t{rare_id} + 1);
  rows_.rare.AppendRun(rare_id, row, count);
}

void KeyRowsIngest::LeaveRunLists() {
  rows_.first_rare_id = static_cast<uint32_t>(tuning::kFrequentKeys);
  const size_t moved = std::min(rows_.rare.size(), tuning::kFrequentKeys);
  SizeFrequentKeys(moved);
  for (size_t id = 0; id < moved; ++id) {
    ContainerRows& rows = rows_.frequent[id];
    rows_.rare[static_cast<uint32_t>(id)].ForEachPiece([&rows](uint32_t first, uint32_t last) {
      rows.AppendRun(static_cast<uint16_t>(first >> 16), static_cast<uint16_t>(first),
                     last - first + 1);
    });
  }
  rows_.rare.DropFront(moved);
}

void KeyRowsIngest::SizeFrequentKeys(size_t key_count) {
  // Room for every frequent key at once: a vector grown by doubling would move them all, and
  // hold two copies, a dozen times (the pages past the keys in use are never touched).
  if (rows_.frequent.capacity() == 0) rows_.frequent.reserve(tuning::kFrequentKeys);
  rows_.frequent.resize(std::min(key_count, tuning::kFrequentKeys));
}

void KeyRowsIngest::AddNullRows(const ColumnBatch& batch, int64_t begin, int64_t n,
                                uint32_t nulls) {
  if (nulls == 0) return;
  const uint32_t first_row = static_cast<uint32_t>(rows_.row_count + begin);
  uint16_t* out = rows_.nulls.Reserve(static_cast<uint16_t>(first_row >> 16), nulls);
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
  rows_.nulls.Commit(nulls);
}

size_t KeyRowsIngest::ValidRows(const ColumnBatch& batch, int64_t begin, int64_t n) {
  valid_rows_.resize(static_cast<size_t>(n + ColumnBatch::kValidRowOffsetsSlack));
  return batch.ValidRowOffsets(begin, n, valid_rows_.data());
}

void KeyRowsIngest::AddDictionaryStrings(const ColumnBatch& batch, int64_t begin,
                                         int64_t n) {
  // A row whose dictionary value was seen earlier in the batch takes its id with one load;
  // the value is interned (hashed, compared) only at its first row, so keys still get their
  // ids, and Java's HashMap its insertions, in row order.
  StringKeyDictionary& dict = *rows_.strings;
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

bool KeyRowsIngest::MostlyRepeats(const std::string_view* piece, const uint32_t* valid_rows,
                                  bool check_nulls, size_t count) {
  // A sample of the first rows' neighbours decides, at a cost of a few compares a piece.
  constexpr size_t kSample = tuning::kRepeatSampleRows;
  if (count < 2 * kSample) return false;
  size_t repeats = 0;
  for (size_t j = 1; j <= kSample; ++j) {
    const size_t i = check_nulls ? valid_rows[j] : j;
    const size_t before = check_nulls ? valid_rows[j - 1] : j - 1;
    repeats += StringKeyDictionary::SameBytes(piece[i], piece[before]);
  }
  return repeats * 2 > kSample;
}

void KeyRowsIngest::AddStrings(const ColumnBatch& batch, int64_t begin, int64_t n) {
  if (batch.dictionary != nullptr) {
    AddDictionaryStrings(batch, begin, n);
    return;
  }
  StringKeyDictionary& dict = *rows_.strings;
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
  const std::string_view* piece = values + begin;
  if (MostlyRepeats(piece, valid_rows, check_nulls, count)) {
    // Sorted or clustered rows: a row equal to the one before takes its id with one compare,
    // no hashing or probing, which would otherwise be most of a sorted column's build.
    size_t previous = row_at(0);
    ids[previous] = dict.Intern(piece[previous]);
    for (size_t j = 1; j < count; ++j) {
      const size_t i = row_at(j);
      if (StringKeyDictionary::SameBytes(piece[i], piece[previous])) {
        ids[i] = ids[previous];
        dict.NoteHit();
      } else {
        ids[i] = dict.Intern(piece[i]);
      }
      previous = i;
    }
  } else if (dict.IsLarge()) {
    // Hash the rows first, so the slot of a key 16 rows ahead, and the bytes of the key
    // found there 8 rows ahead, can be prefetched.
    hashes_.resize(count);
    uint64_t* hashes = hashes_.data();
    for (size_t j = 0; j < count; ++j) hashes[j] = dict.HashBytes(piece[row_at(j)]);
    constexpr size_t kAhead = tuning::kPrefetchRows;
    for (size_t j = 0; j < count; ++j) {
      if (j + kAhead < count) dict.Prefetch(hashes[j + kAhead]);
      if (j + kAhead / 2 < count) dict.PrefetchKeyBytes(hashes[j + kAhead / 2]);
      const size_t i = row_at(j);
      ids[i] = dict.Intern(piece[i], hashes[j]);
    }
  } else {
    for (size_t j = 0; j < count; ++j) {
      const size_t i = row_at(j);
      ids[i] = dict.Intern(piece[i]);
    }
  }
  AddIds(batch, begin, n, count);
}

void KeyRowsIngest::BeginPiece(uint32_t first_row, bool keep_rooms) {
  const bool new_span = (first_row & (roaring::kRowsPerContainer - 1)) == 0;
  if (!keep_rooms || new_span) CloseRooms();
  if (rows_.first_rare_id != 0) SizeFrequentKeys(keys().size());
  if (new_span) {
    // A new span: containers of keys absent from it would stay open (a span's worth of
    // 2-byte values each, e.g. every key of a sorted column) until the key's next row.
    const uint16_t high = static_cast<uint16_t>(first_row >> 16);
    for (ContainerRows& rows : rows_.frequent) rows.CloseBefore(high);
    rows_.nulls.CloseBefore(high);
    if (high == tuning::kSpansBeforeReserving) ReserveFrequentKeys();
  }
}

void KeyRowsIngest::ReserveFrequentKeys() {
  constexpr int64_t kSpanRows = roaring::kRowsPerContainer;
  const int64_t spans = (expected_rows_ + kSpanRows - 1) / kSpanRows;
  if (spans <= 2 * int64_t{tuning::kSpansBeforeReserving}) return;  // little left to grow
  // Each key (and the nulls) at the rate of its first spans, a quarter more for spans above
  // that rate. A closed span's bytes already are the run or bitmap form where Java picks
  // one, so sorted and clustered keys project small; and as no container takes more than 2
  // bytes per row, all reservations together stay within 2.5 bytes per expected row.
  const size_t groups = rows_.frequent.size() + 1;
  auto rows_of = [this](size_t g) -> ContainerRows& {
    return g < rows_.frequent.size() ? rows_.frequent[g] : rows_.nulls;
  };
  std::vector<size_t> room(groups);
  size_t total = 0;
  for (size_t g = 0; g < groups; ++g) {
    const ContainerRows& rows = rows_of(g);
    const size_t per_span = rows.ClosedBytes() / tuning::kSpansBeforeReserving;
    room[g] = std::max(per_span * static_cast<size_t>(spans) * 5 / 4, rows.UsedBytes());
    total += memory::PageBlock::RoomSize(room[g]);
  }
  // One block for all of them: it faults in huge pages, and the keys' rooms are contiguous.
  rows_.reserved_rows = memory::PageBlock::Allocate(total);
  if (rows_.reserved_rows.empty()) return;  // growing as rows come works too
  for (size_t g = 0; g < groups; ++g) {
    rows_of(g).MoveInto(rows_.reserved_rows.Take(room[g]), room[g]);
  }
  // A key present in most spans so far records a container per span: room for all of them,
  // instead of doubling that list again and again.
  for (size_t g = 0; g < groups; ++g) {
    ContainerRows& rows = rows_of(g);
    if (rows.ClosedContainers() * 2 >= tuning::kSpansBeforeReserving) {
      rows.ReserveContainers(static_cast<size_t>(spans));
    }
  }
}

Status KeyRowsIngest::TimestampKeys(const ColumnBatch& batch, int64_t begin, int64_t n) {
  ts_keys_.resize(static_cast<size_t>(n));
  const int64_t bad = keys::TimestampKeys(mapping_, batch, begin, n, ts_keys_.data());
  if (bad < 0) return Status::OK();
  return Status::InvalidArgument("bitmap index: timestamp ", batch.int64_values()[begin + bad],
                                 " at row ", rows_.row_count + begin + bad,
                                 " does not fit a long in ", keys::TimestampKeyUnitName(mapping_));
}

Status KeyRowsIngest::AddPiece(const ColumnBatch& batch, int64_t begin, int64_t n) {
  if (mapping_.is_timestamp()) {
    if (keys::TimestampsAreKeys(mapping_, batch.timestamp_unit)) {
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

}  // namespace pyfileindex::index::bitmap
