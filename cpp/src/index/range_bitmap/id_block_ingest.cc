#include "index/range_bitmap/id_block_ingest.h"

#include <algorithm>

#include "index/keys/batch_keys.h"
#include "index/range_bitmap/tuning.h"
#include "memory/return_pages.h"
#include "roaring/block_ops.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using column::ColumnBatch;
using roaring::kRowsPerContainer;  // a block: the rows of one container of the slices
using roaring::SetBitRange;

}  // namespace

void IdBlockIngest::ExpectTotalRows(uint64_t total) {
  in_.keys32.ExpectRows(total);
  in_.keys64.ExpectRows(total);
  // Whole blocks, reserved when the first null comes: Finish pads the bits to them, and must
  // not reallocate.
  expected_rows_ = std::max(expected_rows_, total);
  in_.blocks.reserve(static_cast<size_t>(total / kRowsPerContainer + 1));
}

void IdBlockIngest::Add(const ColumnBatch& batch) {
  if (batch.length == 0) return;
  if (batch.dictionary != nullptr) {
    dictionary_ids_.assign(static_cast<size_t>(batch.dictionary->length), 0);
  }
  for (int64_t begin = 0; begin < batch.length;) {
    const uint32_t at = static_cast<uint32_t>(in_.rows % kRowsPerContainer);
    const int64_t n =
        std::min<int64_t>({batch.length - begin, kRowsPerContainer - at, tuning::kInternBatchRows});
    SizeScratch(at + static_cast<size_t>(n), static_cast<size_t>(n));
    if (open_as_runs_) {
      InternKeys(batch, begin, n, batch_ids_.data());
      ExtendRuns(batch_ids_.data(), at, static_cast<uint32_t>(n));
    } else {
      InternKeys(batch, begin, n, open_ids_.data() + at);
    }
    AppendValidity(batch, begin, n);
    in_.rows += static_cast<uint64_t>(n);
    begin += n;
    if (in_.rows % kRowsPerContainer == 0) CloseBlock();
  }
}

IngestedIds IdBlockIngest::Finish() {
  if (in_.rows % kRowsPerContainer != 0) CloseBlock();
  // Whole blocks, zero past the rows.
  if (in_.has_nulls) in_.validity.resize(in_.blocks.size() * roaring::kBlockWords, 0);
  memory::ReleaseVector(&open_ids_);
  memory::ReleaseVector(&open_run_ends_);
  memory::ReleaseVector(&open_run_ids_);
  memory::ReleaseVector(&batch_ids_);
  memory::ReleaseVector(&scratch32_);
  memory::ReleaseVector(&scratch64_);
  memory::ReleaseVector(&scratch_ids_);
  memory::ReleaseVector(&dictionary_ids_);
  return std::move(in_);
}

void IdBlockIngest::AppendValidity(const ColumnBatch& batch, int64_t begin, int64_t n) {
  const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
  if (all_valid && !in_.has_nulls) return;  // no bits kept while every row has a key
  const uint64_t end = in_.rows + static_cast<uint64_t>(n);
  if (!in_.has_nulls) {
    // The first null: the rows before it all had keys.
    in_.has_nulls = true;
    const uint64_t blocks = (std::max(expected_rows_, end) + kRowsPerContainer - 1) /
                            kRowsPerContainer;
    in_.validity.reserve(static_cast<size_t>(blocks * roaring::kBlockWords));
    in_.validity.resize((in_.rows + 63) / 64, 0);
    SetBitRange(in_.validity.data(), 0, in_.rows);
  }
  in_.validity.resize((end + 63) / 64, 0);
  if (all_valid) {
    SetBitRange(in_.validity.data(), in_.rows, end);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t r = in_.rows + static_cast<uint64_t>(i);
      in_.validity[r >> 6] |= uint64_t{batch.IsValid(begin + i)} << (r & 63);
    }
  }
}

// Maps the valid rows' values to ordered keys and interns them. A row without a key gets the
// id of the next row with one (an id the block holds anyway, so packing stays as narrow), or
// that of the last one. `pure`: `map` has no side effects, so with nulls every row can be
// mapped and the valid ones kept without a branch per row.
template <typename T, typename U, typename Map>
void IdBlockIngest::InternMapped(const ColumnBatch& batch, int64_t begin, int64_t n,
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

uint32_t IdBlockIngest::InternString(std::string_view bytes) {
  uint32_t id = 0;
  if (in_.strings.ascending() && in_.strings.InternAscending(bytes, &id)) return id;
  return in_.strings.Intern(bytes);
}

// Each dictionary value is interned at the first row of the batch that uses it, so new values
// reach the table in the order rows bring them, as when every row is interned.
void IdBlockIngest::InternDictionaryStrings(const ColumnBatch& batch, int64_t begin,
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

void IdBlockIngest::InternStrings(const ColumnBatch& batch, int64_t begin, int64_t n,
                                  uint32_t* ids) {
  if (batch.dictionary != nullptr) {
    InternDictionaryStrings(batch, begin, n, ids);
    return;
  }
  const std::string_view* strings = batch.strings + begin;
  uint32_t last = 0;
  int64_t first = 0;
  // Sorted files: each string is compared with the last new one, no hashing.
  for (; first < n && in_.strings.ascending(); ++first) {
    if (batch.IsValid(begin + first) && !in_.strings.InternAscending(strings[first], &last)) break;
    ids[first] = last;
  }
  // Hash a group of rows and prefetch their table slots before probing, so the cache misses
  // of different rows overlap.
  constexpr int64_t kGroup = tuning::kStringHashGroup;
  uint64_t hashes[kGroup];
  for (; first < n; first += kGroup) {
    const int64_t end = std::min(n, first + kGroup);
    for (int64_t i = first; i < end; ++i) {
      if (!batch.IsValid(begin + i)) continue;
      hashes[i - first] = in_.strings.Hash(strings[i]);
      in_.strings.Prefetch(hashes[i - first]);
    }
    for (int64_t i = first; i < end; ++i) {
      if (batch.IsValid(begin + i)) last = in_.strings.Intern(strings[i], hashes[i - first]);
      ids[i] = last;
    }
  }
}

void IdBlockIngest::InternKeys(const ColumnBatch& batch, int64_t begin, int64_t n,
                               uint32_t* ids) {
  if (batch.null_count == batch.length) {  // no keys, and the values may be absent
    std::fill(ids, ids + n, 0u);
    return;
  }
  switch (spec_.kind) {
    case KeyKind::kBool:
      InternMapped<uint8_t>(batch, begin, n, ids, &in_.keys32, &scratch32_, true,
                            [](uint8_t v) { return uint32_t{v != 0}; });
      return;
    case KeyKind::kInt8:
      InternMapped<int8_t>(batch, begin, n, ids, &in_.keys32, &scratch32_, true,
                           [](int8_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return;
    case KeyKind::kInt16:
      InternMapped<int16_t>(batch, begin, n, ids, &in_.keys32, &scratch32_, true,
                            [](int16_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return;
    case KeyKind::kInt32:
      InternMapped<int32_t>(batch, begin, n, ids, &in_.keys32, &scratch32_, true,
                            [](int32_t v) { return uint32_t(v) ^ 0x80000000u; });
      return;
    case KeyKind::kFloat:
      // Raw bits, never through a float register, so a signalling NaN keeps its payload.
      InternMapped<uint32_t>(batch, begin, n, ids, &in_.keys32, &scratch32_, false,
                             [this](uint32_t raw) {
        const int32_t canonical = CanonicalFloatBits(static_cast<int32_t>(raw));
        if (canonical != static_cast<int32_t>(raw) || canonical == java::kCanonicalFloatNaNBits) {
          if (!in_.seen_nan) {
            in_.seen_nan = true;
            in_.first_nan_bits = raw;
          }
        }
        return OrderedFromFloatBits(canonical);
      });
      return;
    case KeyKind::kDouble:
      InternMapped<uint64_t>(batch, begin, n, ids, &in_.keys64, &scratch64_, false,
                             [this](uint64_t raw) {
        const int64_t canonical = CanonicalDoubleBits(static_cast<int64_t>(raw));
        if (canonical != static_cast<int64_t>(raw) || canonical == java::kCanonicalDoubleNaNBits) {
          if (!in_.seen_nan) {
            in_.seen_nan = true;
            in_.first_nan_bits = raw;
          }
        }
        return OrderedFromDoubleBits(canonical);
      });
      return;
    case KeyKind::kInt64: {
      const column::TimeUnit unit = batch.timestamp_unit;
      if (!spec_.is_timestamp() || keys::TimestampsAreKeys(spec_, unit)) {
        InternMapped<int64_t>(batch, begin, n, ids, &in_.keys64, &scratch64_, true,
                              [](int64_t v) { return OrderedFromSigned(v); });
        return;
      }
      // CheckKeys has refused batches that overflow.
      bool overflow = false;
      InternMapped<int64_t>(batch, begin, n, ids, &in_.keys64, &scratch64_, true, [&](int64_t v) {
        return OrderedFromSigned(keys::TimestampKey(spec_, v, unit, &overflow));
      });
      return;
    }
    case KeyKind::kString:
    case KeyKind::kBinary:
      InternStrings(batch, begin, n, ids);
      return;
  }
}

void IdBlockIngest::SizeScratch(size_t block_rows, size_t batch_rows) {
  // Grown as rows come, so a small file's writer touches no more than its rows need.
  if (open_as_runs_) {
    if (batch_ids_.size() < batch_rows) batch_ids_.resize(batch_rows);
  } else if (open_ids_.size() < block_rows) {
    open_ids_.resize(block_rows);
  }
  if (spec_.kind == KeyKind::kString) return;
  if (spec_.width == 8) {
    if (scratch64_.size() < batch_rows) scratch64_.resize(batch_rows);
  } else if (scratch32_.size() < batch_rows) {
    scratch32_.resize(batch_rows);
  }
}

void IdBlockIngest::ExtendRuns(const uint32_t* ids, uint32_t at, uint32_t n) {
  if (at == 0) {
    open_run_ends_.clear();
    open_run_ids_.clear();
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!open_run_ids_.empty() && ids[i] == open_run_ids_.back()) continue;
    if (!open_run_ends_.empty()) open_run_ends_.back() = at + i;
    if (open_run_ids_.size() == tuning::kMaxOpenRuns) {
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

void IdBlockIngest::CloseBlock() {
  const uint32_t tail = static_cast<uint32_t>(in_.rows % kRowsPerContainer);
  const uint32_t rows = tail == 0 ? kRowsPerContainer : tail;
  if (open_as_runs_) {
    in_.blocks.emplace_back(open_run_ends_.data(), open_run_ids_.data(),
                            static_cast<uint32_t>(open_run_ids_.size()));
  } else {
    in_.blocks.emplace_back(open_ids_.data(), rows);
  }
  open_as_runs_ = true;  // the next block starts as runs again
}

}  // namespace pyfileindex::index::range_bitmap
