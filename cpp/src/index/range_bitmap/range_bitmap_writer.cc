#include "index/range_bitmap/range_bitmap_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "index/range_bitmap/code_bsi_writer.h"
#include "io/byte_writer.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using column::ColumnBatch;
using column::Physical;
using column::PhysicalName;
using roaring::SetBitRange;

constexpr uint8_t kVersion = 1;
constexpr uint64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java's int row counter
constexpr uint32_t kBlockRows = 65536;  // one roaring container of the slices
// Rows interned at a time: the per-piece scratch (a piece's keys and ids, 4 KiB each) stays
// in L1, and small beside a small index (at 4096 rows it was 32 KiB, more than the 24 KiB
// range-bitmap of a sorted 10M-row column of 1,000 keys). No slower on shuffled columns.
constexpr uint32_t kPieceRows = 1024;
// Runs an open block collects before it keeps an id per row (8 KiB of them): no more than a
// full block keeps as runs (PackedRowIds: up to 1024 x its width + 1).
constexpr size_t kMaxOpenRuns = 1024;
constexpr size_t kMaxStringBytes = static_cast<size_t>(std::numeric_limits<int32_t>::max() - 4);

Physical ExpectedPhysical(const KeySpec& spec) {
  switch (spec.kind) {
    case KeyKind::kBool:
      return Physical::kBool;
    case KeyKind::kInt8:
      return Physical::kInt8;
    case KeyKind::kInt16:
      return Physical::kInt16;
    case KeyKind::kInt32:
      return Physical::kInt32;
    case KeyKind::kInt64:
      if (spec.is_decimal()) return Physical::kDecimal;
      if (spec.is_timestamp()) return Physical::kTimestamp;
      return Physical::kInt64;
    case KeyKind::kFloat:
      return Physical::kFloat;
    case KeyKind::kDouble:
      return Physical::kDouble;
    case KeyKind::kString:
    case KeyKind::kBinary:
      return Physical::kBytes;
  }
  return Physical::kInt32;
}

}  // namespace

Result<std::unique_ptr<ColumnIndexWriter>> RangeBitmapWriter::Make(const DataType& type,
                                                                   const Options& options) {
  PFI_ASSIGN_OR_RETURN(KeySpec spec, KeySpecFor(type));
  PFI_ASSIGN_OR_RETURN(int64_t chunk_size,
                       options.GetMemorySize(kChunkSizeOption, spec.default_chunk_size));
  // Java: (int) MemorySize.parse(...).getBytes() -- keeps the low 32 bits.
  const int32_t narrowed = static_cast<int32_t>(static_cast<uint32_t>(chunk_size));
  return std::unique_ptr<ColumnIndexWriter>(new RangeBitmapWriter(type, spec, narrowed));
}

Status RangeBitmapWriter::CheckBatch(const ColumnBatch& batch) const {
  if (serialized_) return Status::InvalidArgument("range-bitmap: Write after Serialize");
  const Physical expected = ExpectedPhysical(spec_);
  if (batch.physical != expected) {
    return Status::InvalidArgument("range-bitmap: a " + std::string(PhysicalName(batch.physical)) +
                                   " batch cannot feed a column of type " + type_.ToString() +
                                   " (expected " + PhysicalName(expected) + ")");
  }
  if (batch.length < 0 || batch.null_count < 0 || batch.null_count > batch.length) {
    return Status::InvalidArgument("range-bitmap: malformed batch (length " +
                                   std::to_string(batch.length) + ", null count " +
                                   std::to_string(batch.null_count) + ")");
  }
  const bool has_strings = batch.strings != nullptr ||
                           (batch.dictionary != nullptr && batch.dictionary_indices != nullptr &&
                            batch.dictionary->strings != nullptr);
  if (batch.length > 0 && batch.length != batch.null_count &&
      (expected == Physical::kBytes ? !has_strings : batch.values == nullptr)) {
    return Status::InvalidArgument("range-bitmap: batch without values");
  }
  if (rows_ + static_cast<uint64_t>(batch.length) > kMaxRows) {
    return Status::InvalidArgument(
        "range-bitmap: a data file with more than 2147483647 rows cannot be indexed");
  }
  return Status::OK();
}

Status RangeBitmapWriter::CheckKeys(const ColumnBatch& batch) const {
  if (batch.null_count == batch.length) return Status::OK();  // values may be absent
  if (spec_.kind == KeyKind::kString && batch.dictionary != nullptr) {
    // Only a value some valid row uses can be refused.
    const column::ColumnBatch& values = *batch.dictionary;
    bool too_long = false;
    for (int64_t v = 0; v < values.length; ++v) {
      too_long |= values.strings[v].size() > kMaxStringBytes;
    }
    if (too_long) {
      for (int64_t i = 0; i < batch.length; ++i) {
        if (batch.IsValid(i) &&
            values.strings[batch.dictionary_indices[i]].size() > kMaxStringBytes) {
          return Status::InvalidArgument("range-bitmap: a string longer than 2^31-5 bytes");
        }
      }
    }
    return Status::OK();
  }
  if (spec_.kind == KeyKind::kString) {
    const std::string_view* strings = batch.strings;
    bool too_long = false;
    for (int64_t i = 0; i < batch.length; ++i) too_long |= strings[i].size() > kMaxStringBytes;
    // Null rows' views are empty or point at real bytes: only a valid row can be refused.
    if (too_long) {
      for (int64_t i = 0; i < batch.length; ++i) {
        if (batch.IsValid(i) && strings[i].size() > kMaxStringBytes) {
          return Status::InvalidArgument("range-bitmap: a string longer than 2^31-5 bytes");
        }
      }
    }
    return Status::OK();
  }
  if (spec_.kind != KeyKind::kInt64 || !spec_.is_timestamp()) return Status::OK();
  bool overflow = false;
  const int64_t* values = batch.values_as<int64_t>();
  const column::TimeUnit unit = batch.timestamp_unit;
  for (int64_t i = 0; i < batch.length; ++i) {
    if (!batch.IsValid(i)) continue;
    if (spec_.micros()) {
      column::ToEpochMicros(values[i], unit, &overflow);
    } else {
      column::ToEpochMillis(values[i], unit, &overflow);
    }
    if (overflow) {
      return Status::InvalidArgument("range-bitmap: a timestamp of column type " +
                                     type_.ToString() + " overflows epoch " +
                                     (spec_.micros() ? "microseconds" : "milliseconds"));
    }
  }
  return Status::OK();
}

void RangeBitmapWriter::AppendValidity(const ColumnBatch& batch, int64_t begin, int64_t n) {
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  if (all_valid && !has_nulls_) return;  // no bits kept while every row has a key
  const uint64_t end = rows_ + static_cast<uint64_t>(n);
  if (!has_nulls_) {
    // The first null: the rows before it all had keys.
    has_nulls_ = true;
    validity_.reserve(static_cast<size_t>((std::max(expected_rows_, end) + kBlockRows - 1) /
                                          kBlockRows * roaring::kBlockWords));
    validity_.resize((rows_ + 63) / 64, 0);
    SetBitRange(validity_.data(), 0, rows_);
  }
  validity_.resize((end + 63) / 64, 0);
  if (all_valid) {
    SetBitRange(validity_.data(), rows_, end);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t r = rows_ + static_cast<uint64_t>(i);
      validity_[r >> 6] |= uint64_t{batch.IsValid(begin + i)} << (r & 63);
    }
  }
}

// Maps the valid rows' values to ordered keys and interns them. A row without a key gets the
// id of the next row with one (an id the block holds anyway, so packing stays as narrow), or
// that of the last one. `pure`: `map` has no side effects, so with nulls every row can be
// mapped and the valid ones kept without a branch per row.
template <typename T, typename U, typename Map>
void RangeBitmapWriter::InternMapped(const ColumnBatch& batch, int64_t begin, int64_t n,
                                     uint32_t* ids, OrderedKeyInterner<U>* interner,
                                     std::vector<U>* keys, bool pure, Map&& map) {
  const T* values = batch.values_as<T>() + begin;
  U* out = keys->data();
  if (batch.validity == nullptr || batch.null_count == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = map(values[i]);
    interner->InternMany(out, static_cast<size_t>(n), ids);
    return;
  }
  size_t kept = 0;
  if (pure) {
    kept = batch.KeepValid(begin, n, [&](size_t slot, int64_t i) { out[slot] = map(values[i]); });
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (batch.IsValid(begin + i)) out[kept++] = map(values[i]);
    }
  }
  if (scratch_ids_.size() < static_cast<size_t>(n) + 1) scratch_ids_.resize(n + 1);
  uint32_t* kept_ids = scratch_ids_.data();
  interner->InternMany(out, kept, kept_ids);
  kept_ids[kept] = kept > 0 ? kept_ids[kept - 1] : 0;
  size_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    ids[i] = kept_ids[k];
    k += batch.IsValid(begin + i) ? 1 : 0;
  }
}

uint32_t RangeBitmapWriter::InternString(std::string_view bytes) {
  uint32_t id = 0;
  if (strings_.ascending() && strings_.InternAscending(bytes, &id)) return id;
  return strings_.Intern(bytes);
}

// Each dictionary value is interned at the first row of the batch that uses it, so new values
// reach the table in the order rows bring them, as when every row is interned.
void RangeBitmapWriter::InternDictionaryStrings(const ColumnBatch& batch, int64_t begin,
                                                int64_t n, uint32_t* ids) {
  const int32_t* codes = batch.dictionary_indices + begin;
  const std::string_view* values = batch.dictionary->strings;
  uint32_t last = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (batch.IsValid(begin + i)) {
      uint32_t& known = dictionary_ids_[static_cast<size_t>(codes[i])];
      if (known == 0) known = InternString(values[codes[i]]) + 1;
      last = known - 1;
    }
    ids[i] = last;  // null rows: any id (the validity bitset drops them)
  }
}

void RangeBitmapWriter::InternStrings(const ColumnBatch& batch, int64_t begin, int64_t n,
                                      uint32_t* ids) {
  if (batch.dictionary != nullptr) {
    InternDictionaryStrings(batch, begin, n, ids);
    return;
  }
  const std::string_view* strings = batch.strings + begin;
  uint32_t last = 0;
  int64_t first = 0;
  // Sorted files: each string is compared with the last new one, no hashing.
  for (; first < n && strings_.ascending(); ++first) {
    if (batch.IsValid(begin + first) && !strings_.InternAscending(strings[first], &last)) break;
    ids[first] = last;
  }
  // Hash a group of rows and prefetch their table slots before probing, so the cache misses
  // of different rows overlap.
  constexpr int64_t kGroup = 16;
  uint64_t hashes[kGroup];
  for (; first < n; first += kGroup) {
    const int64_t end = std::min(n, first + kGroup);
    for (int64_t i = first; i < end; ++i) {
      if (!batch.IsValid(begin + i)) continue;
      hashes[i - first] = strings_.Hash(strings[i]);
      strings_.Prefetch(hashes[i - first]);
    }
    for (int64_t i = first; i < end; ++i) {
      if (batch.IsValid(begin + i)) last = strings_.Intern(strings[i], hashes[i - first]);
      ids[i] = last;
    }
  }
}

void RangeBitmapWriter::InternKeys(const ColumnBatch& batch, int64_t begin, int64_t n,
                                   uint32_t* ids) {
  if (batch.null_count == batch.length) {  // no keys, and the values may be absent
    std::fill(ids, ids + n, 0u);
    return;
  }
  switch (spec_.kind) {
    case KeyKind::kBool:
      InternMapped<uint8_t>(batch, begin, n, ids, &keys32_, &scratch32_, true,
                            [](uint8_t v) { return uint32_t{v != 0}; });
      return;
    case KeyKind::kInt8:
      InternMapped<int8_t>(batch, begin, n, ids, &keys32_, &scratch32_, true,
                           [](int8_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return;
    case KeyKind::kInt16:
      InternMapped<int16_t>(batch, begin, n, ids, &keys32_, &scratch32_, true,
                            [](int16_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return;
    case KeyKind::kInt32:
      InternMapped<int32_t>(batch, begin, n, ids, &keys32_, &scratch32_, true,
                            [](int32_t v) { return uint32_t(v) ^ 0x80000000u; });
      return;
    case KeyKind::kFloat:
      // Raw bits, never through a float register, so a signalling NaN keeps its payload.
      InternMapped<uint32_t>(batch, begin, n, ids, &keys32_, &scratch32_, false,
                             [this](uint32_t raw) {
        const int32_t canonical = CanonicalFloatBits(static_cast<int32_t>(raw));
        if (canonical != static_cast<int32_t>(raw) || canonical == java::kCanonicalFloatNaNBits) {
          if (!seen_nan_) {
            seen_nan_ = true;
            first_nan_bits_ = raw;
          }
        }
        return OrderedFromFloatBits(canonical);
      });
      return;
    case KeyKind::kDouble:
      InternMapped<uint64_t>(batch, begin, n, ids, &keys64_, &scratch64_, false,
                             [this](uint64_t raw) {
        const int64_t canonical = CanonicalDoubleBits(static_cast<int64_t>(raw));
        if (canonical != static_cast<int64_t>(raw) || canonical == java::kCanonicalDoubleNaNBits) {
          if (!seen_nan_) {
            seen_nan_ = true;
            first_nan_bits_ = raw;
          }
        }
        return OrderedFromDoubleBits(canonical);
      });
      return;
    case KeyKind::kInt64: {
      if (!spec_.is_timestamp()) {
        InternMapped<int64_t>(batch, begin, n, ids, &keys64_, &scratch64_, true,
                              [](int64_t v) { return OrderedFromSigned(v); });
        return;
      }
      // CheckKeys has refused batches that overflow.
      const column::TimeUnit unit = batch.timestamp_unit;
      bool overflow = false;
      if (spec_.micros()) {
        InternMapped<int64_t>(batch, begin, n, ids, &keys64_, &scratch64_, true, [&](int64_t v) {
          return OrderedFromSigned(column::ToEpochMicros(v, unit, &overflow));
        });
      } else {
        InternMapped<int64_t>(batch, begin, n, ids, &keys64_, &scratch64_, true, [&](int64_t v) {
          return OrderedFromSigned(column::ToEpochMillis(v, unit, &overflow));
        });
      }
      return;
    }
    case KeyKind::kString:
    case KeyKind::kBinary:
      InternStrings(batch, begin, n, ids);
      return;
  }
}

void RangeBitmapWriter::ExpectRows(int64_t rows) {
  if (rows <= 0 || serialized_) return;
  const uint64_t total = rows_ + static_cast<uint64_t>(rows);
  if (total > kMaxRows) return;  // Write will refuse the batch
  keys32_.ExpectRows(total);
  keys64_.ExpectRows(total);
  // Whole blocks, reserved when the first null comes: PrepareSerialize pads the bits to them,
  // and must not reallocate.
  expected_rows_ = std::max(expected_rows_, total);
  blocks_.reserve(static_cast<size_t>(total / kBlockRows + 1));
}

Status RangeBitmapWriter::Write(const ColumnBatch& batch) {
  PFI_RETURN_NOT_OK(CheckBatch(batch));
  PFI_RETURN_NOT_OK(CheckKeys(batch));
  if (batch.length == 0) return Status::OK();
  if (batch.dictionary != nullptr) {
    dictionary_ids_.assign(static_cast<size_t>(batch.dictionary->length), 0);
  }
  for (int64_t begin = 0; begin < batch.length;) {
    const uint32_t at = static_cast<uint32_t>(rows_ % kBlockRows);
    const int64_t n = std::min<int64_t>({batch.length - begin, kBlockRows - at, kPieceRows});
    SizeScratch(at + static_cast<size_t>(n), static_cast<size_t>(n));
    if (open_as_runs_) {
      InternKeys(batch, begin, n, piece_ids_.data());
      ExtendRuns(piece_ids_.data(), at, static_cast<uint32_t>(n));
    } else {
      InternKeys(batch, begin, n, open_ids_.data() + at);
    }
    AppendValidity(batch, begin, n);
    rows_ += static_cast<uint64_t>(n);
    begin += n;
    if (rows_ % kBlockRows == 0) CloseBlock();
  }
  return Status::OK();
}

void RangeBitmapWriter::SizeScratch(size_t block_rows, size_t piece_rows) {
  // Grown as rows come, so a small file's writer touches no more than its rows need.
  if (open_as_runs_) {
    if (piece_ids_.size() < piece_rows) piece_ids_.resize(piece_rows);
  } else if (open_ids_.size() < block_rows) {
    open_ids_.resize(block_rows);
  }
  if (spec_.kind == KeyKind::kString) return;
  if (spec_.width == 8) {
    if (scratch64_.size() < piece_rows) scratch64_.resize(piece_rows);
  } else if (scratch32_.size() < piece_rows) {
    scratch32_.resize(piece_rows);
  }
}

void RangeBitmapWriter::ExtendRuns(const uint32_t* ids, uint32_t at, uint32_t n) {
  if (at == 0) {
    open_run_ends_.clear();
    open_run_ids_.clear();
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!open_run_ids_.empty() && ids[i] == open_run_ids_.back()) continue;
    if (!open_run_ends_.empty()) open_run_ends_.back() = at + i;
    if (open_run_ids_.size() == kMaxOpenRuns) {
      // Too many runs: the rows so far get their ids back, the rest of the block comes as ids.
      open_as_runs_ = false;
      if (open_ids_.size() < at + n) open_ids_.resize(at + n);
      uint32_t begin = 0;
      for (size_t r = 0; r < open_run_ids_.size(); ++r) {
        std::fill(open_ids_.data() + begin, open_ids_.data() + open_run_ends_[r],
                  open_run_ids_[r]);
        begin = open_run_ends_[r];
      }
      std::copy(ids + i, ids + n, open_ids_.data() + at + i);
      return;
    }
    open_run_ids_.push_back(ids[i]);
    open_run_ends_.push_back(0);
  }
  open_run_ends_.back() = at + n;
}

void RangeBitmapWriter::CloseBlock() {
  const uint32_t rows = rows_ % kBlockRows == 0 ? kBlockRows : rows_ % kBlockRows;
  if (open_as_runs_) {
    blocks_.emplace_back(open_run_ends_.data(), open_run_ids_.data(),
                         static_cast<uint32_t>(open_run_ids_.size()));
  } else {
    blocks_.emplace_back(open_ids_.data(), rows);
  }
  open_as_runs_ = true;  // the next block starts as runs again
}

Result<std::vector<uint8_t>> RangeBitmapWriter::Serialize() {
  PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
  std::vector<uint8_t> out(size);
  SerializeTo(out.data());
  return out;
}

void RangeBitmapWriter::SerializeTo(uint8_t* out) {
  std::memcpy(out, head_.data(), head_.size());
  out += head_.size();
  WriteDictionary(keys_, dictionary_, out);
  out += dictionary_.size();
  strings_.Release();
  memory::ReleaseVector(&sorted_units_);
  memory::ReleaseVector(&sorted32_);
  memory::ReleaseVector(&sorted64_);
  if (run_bsi_) {
    run_bsi_->WriteTo(out);
    run_bsi_.reset();
    blocks_ = std::vector<PackedRowIds>();
    memory::ReleaseVector(&rank_);
  } else {
    bsi_->WriteTo(out);
    bsi_.reset();
  }
  head_ = std::vector<uint8_t>();
  keys_ = SortedKeys();
  dictionary_ = DictionaryPlan();
}

void RangeBitmapWriter::EncodeSlices(std::vector<uint32_t> rank, size_t cardinality) {
  // Every block runs and no null row (a sorted column): the slices are measured now and
  // written from the runs into the output, never held (RunCodeBsi).
  const bool all_runs = std::all_of(blocks_.begin(), blocks_.end(),
                                    [](const PackedRowIds& block) { return block.has_runs(); });
  if (!has_nulls_ && !blocks_.empty() && all_runs) {
    rank_ = std::move(rank);
    run_bsi_ = std::make_unique<RunCodeBsi>(static_cast<int64_t>(cardinality), &blocks_,
                                            rank_.empty() ? nullptr : rank_.data());
    return;
  }
  bsi_ = std::make_unique<CodeBsi>(static_cast<int64_t>(cardinality), blocks_.size());
  // Codes of whole 64-row words: the slices are built a word of rows at a time. Sized at the
  // first block that is not runs.
  std::vector<uint32_t> codes;
  std::vector<uint32_t> run_ends;
  std::vector<uint32_t> run_codes;
  // Without nulls every row is valid: a block's bits are all ones up to its rows. Blocks of
  // runs need no bits then (CodeBsi::AddRuns without validity); made at the first other one.
  std::vector<uint64_t> all_valid;
  size_t block_bytes = 0;
  for (const PackedRowIds& block : blocks_) block_bytes += block.bytes();
  // Only a large file's blocks are handed back as they go (see memory::ReleaseVector).
  const bool hand_back = block_bytes >= memory::kReleaseVectorMinBytes;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    PackedRowIds& block = blocks_[b];
    const uint64_t* validity = nullptr;
    if (has_nulls_) {
      validity = validity_.data() + b * roaring::kBlockWords;
    } else if (!block.has_runs()) {
      // Filled for the first such block, and again for a shorter last one.
      if (all_valid.empty() || block.rows() != kBlockRows) {
        all_valid.assign(roaring::kBlockWords, 0);
        SetBitRange(all_valid.data(), 0, block.rows());
      }
      validity = all_valid.data();
    }
    // Every stored id, null rows' included, is a key's id; with no keys there is no rank, and
    // keys that came ascending have their ids as ranks.
    const uint32_t* map = rank.empty() ? nullptr : rank.data();
    if (block.has_runs()) {
      run_ends.clear();
      run_codes.clear();
      block.ForEachRun([&](uint32_t, uint32_t end, uint32_t id) {
        run_ends.push_back(end);
        run_codes.push_back(map != nullptr ? map[id] : id);
      });
      bsi_->AddRuns(static_cast<uint16_t>(b), validity, run_ends.data(), run_codes.data(),
                    run_ends.size());
    } else {
      if (codes.empty()) codes.resize((std::min<uint64_t>(rows_, kBlockRows) + 63) / 64 * 64, 0);
      block.Unpack(codes.data(), map);
      bsi_->AddBlock(static_cast<uint16_t>(b), validity, codes.data());
    }
    block.Release(hand_back);
  }
  blocks_ = std::vector<PackedRowIds>();
  memory::ReleaseVector(&validity_);
  memory::ReleaseVector(&rank);
}

Result<size_t> RangeBitmapWriter::PrepareSerialize() {
  if (serialized_) return Status::InvalidArgument("range-bitmap: Serialize called twice");
  serialized_ = true;
  if (rows_ % kBlockRows != 0) CloseBlock();
  // Whole blocks, zero past the rows.
  if (has_nulls_) validity_.resize(blocks_.size() * roaring::kBlockWords, 0);
  memory::ReleaseVector(&open_ids_);
  memory::ReleaseVector(&open_run_ends_);
  memory::ReleaseVector(&open_run_ids_);
  memory::ReleaseVector(&piece_ids_);
  memory::ReleaseVector(&scratch32_);
  memory::ReleaseVector(&scratch64_);
  memory::ReleaseVector(&scratch_ids_);
  memory::ReleaseVector(&dictionary_ids_);
  return spec_.kind == KeyKind::kString ? PrepareStrings() : PrepareFixed();
}

Result<size_t> RangeBitmapWriter::PrepareStrings() {
  strings_.DropLookups();  // no key comes any more: only the keys themselves are read
  StringRanks ranks = RankStrings(strings_);
  EncodeSlices(std::move(ranks.rank), ranks.sorted.size());
  sorted_units_ = std::move(ranks.sorted);
  keys_.width = 0;
  keys_.context = this;
  keys_.string_at = [](const void* context, size_t i) {
    const RangeBitmapWriter* w = static_cast<const RangeBitmapWriter*>(context);
    return w->strings_.At(w->sorted_units_[i]);
  };
  // Keys that came ascending lie in the arena in order: it is handed back as the dictionary
  // is written, so arena and dictionary are not both resident.
  if (strings_.ascending()) {
    keys_.owner = this;
    keys_.written_through = [](void* owner, size_t end) {
      RangeBitmapWriter* w = static_cast<RangeBitmapWriter*>(owner);
      if (end < w->sorted_units_.size()) w->strings_.HandBackBefore(w->sorted_units_[end]);
    };
  }
  keys_.count = sorted_units_.size();
  return Assemble();
}

namespace {
// Rewrites ordered keys, in place, as Java's stored form of each: `width` bytes apiece, packed
// from the front (width <= sizeof(U), and key i is read before its bytes are written).
template <typename U, typename Encode>
const uint8_t* EncodeInPlace(std::vector<U>* keys, int width, Encode&& encode) {
  uint8_t* bytes = reinterpret_cast<uint8_t*>(keys->data());
  for (size_t i = 0; i < keys->size(); ++i) {
    const uint64_t key = (*keys)[i];
    encode(key, bytes + i * static_cast<size_t>(width));
  }
  return bytes;
}
}  // namespace

Result<size_t> RangeBitmapWriter::PrepareFixed() {
  const uint64_t nan_ordered = spec_.kind == KeyKind::kFloat
                                   ? OrderedFromFloatBits(java::kCanonicalFloatNaNBits)
                                   : OrderedFromDoubleBits(java::kCanonicalDoubleNaNBits);
  const bool has_nan_key = spec_.kind == KeyKind::kFloat || spec_.kind == KeyKind::kDouble;
  // Integers narrower than 8 bytes are interned with a 32-bit sign flip; key_kind.h's
  // ordered form flips bit 63.
  const bool narrow_int = spec_.kind == KeyKind::kInt8 || spec_.kind == KeyKind::kInt16 ||
                          spec_.kind == KeyKind::kInt32;
  auto encode = [&](uint64_t interned, uint8_t* out) {
    if (has_nan_key && seen_nan_ && interned == nan_ordered) {
      if (spec_.width == 4) {
        io::StoreU32BE(out, static_cast<uint32_t>(first_nan_bits_));
      } else {
        io::StoreU64BE(out, first_nan_bits_);
      }
      return;
    }
    const uint64_t ordered =
        narrow_int ? OrderedFromSigned(static_cast<int32_t>(static_cast<uint32_t>(interned) ^
                                                            0x80000000u))
                   : interned;
    EncodeOrdered(spec_.kind, ordered, out);
  };
  auto prepare = [&](auto* interner, auto* sorted) -> Result<size_t> {
    auto ranked = interner->TakeRanked();
    EncodeSlices(std::move(ranked.rank), ranked.sorted.size());
    *sorted = std::move(ranked.sorted);
    keys_.width = spec_.width;
    keys_.count = sorted->size();
    keys_.fixed = EncodeInPlace(sorted, spec_.width, encode);
    return Assemble();
  };
  if (spec_.width == 8) return prepare(&keys64_, &sorted64_);
  return prepare(&keys32_, &sorted32_);
}

Result<size_t> RangeBitmapWriter::Assemble() {
  const SortedKeys& keys = keys_;
  const size_t cardinality = keys.count;
  auto key_size = [&](size_t i) { return (keys.width > 0 ? 0 : 4) + keys.Get(i).size(); };
  const size_t header_size =
      1 + 4 + 4 + (cardinality > 0 ? key_size(0) + key_size(cardinality - 1) : 0) + 4;
  if (header_size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::InvalidArgument("range-bitmap: header larger than 2^31-1 bytes");
  }

  io::ByteWriter w;
  w.WriteI32BE(static_cast<int32_t>(header_size));
  w.WriteU8(kVersion);
  w.WriteI32BE(static_cast<int32_t>(rows_));
  w.WriteI32BE(static_cast<int32_t>(cardinality));
  for (size_t i : {size_t{0}, cardinality - 1}) {
    if (cardinality == 0) break;
    const std::string_view key = keys.Get(i);
    if (keys.width == 0) w.WriteI32BE(static_cast<int32_t>(key.size()));
    w.WriteBytes(io::ByteSpan::Of(key));
  }
  PFI_ASSIGN_OR_RETURN(dictionary_, PlanDictionary(keys, chunk_size_));
  w.WriteI32BE(static_cast<int32_t>(static_cast<uint32_t>(dictionary_.size())));
  head_ = w.Take();
  return head_.size() + dictionary_.size() + (run_bsi_ ? run_bsi_->size() : bsi_->size());
}

}  // namespace pyfileindex::index::range_bitmap
