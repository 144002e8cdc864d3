#include "index/range_bitmap/range_bitmap_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "index/range_bitmap/code_bsi_writer.h"
#include "io/byte_writer.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using column::ColumnBatch;
using column::Physical;
using column::PhysicalName;

constexpr uint8_t kVersion = 1;
constexpr uint64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java's int row counter

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
      if (spec.decimal) return Physical::kDecimal;
      if (spec.timestamp) return Physical::kTimestamp;
      return Physical::kInt64;
    case KeyKind::kFloat:
      return Physical::kFloat;
    case KeyKind::kDouble:
      return Physical::kDouble;
    case KeyKind::kString:
      return Physical::kBytes;
  }
  return Physical::kInt32;
}

void SetBits(std::vector<uint64_t>* words, uint64_t begin, uint64_t end) {
  for (uint64_t r = begin; r < end;) {
    const uint64_t word = r >> 6;
    const uint64_t bit = r & 63;
    const uint64_t take = std::min<uint64_t>(64 - bit, end - r);
    const uint64_t mask = take == 64 ? ~uint64_t{0} : (((uint64_t{1} << take) - 1) << bit);
    (*words)[word] |= mask;
    r += take;
  }
}

// Visits the values of the valid rows of `batch` in row order.
template <typename F>
void ForEachValid(const ColumnBatch& batch, F&& visit) {
  if (batch.validity == nullptr || batch.null_count == 0) {
    for (int64_t i = 0; i < batch.length; ++i) visit(i);
  } else {
    for (int64_t i = 0; i < batch.length; ++i) {
      if (batch.IsValid(i)) visit(i);
    }
  }
}

template <typename T, typename Out, typename Map>
void AppendMapped(const ColumnBatch& batch, std::vector<Out>* out, Map&& map) {
  const T* values = batch.values_as<T>();
  ForEachValid(batch, [&](int64_t i) { out->push_back(map(values[i])); });
}

// AppendMapped for a map without side effects: with nulls, every row is mapped and only the
// valid ones kept (ColumnBatch::KeepValid: no branch per row).
template <typename T, typename Out, typename Map>
void AppendPureMapped(const ColumnBatch& batch, std::vector<Out>* out, Map&& map) {
  if (batch.validity == nullptr || batch.null_count == 0) {
    AppendMapped<T>(batch, out, map);
    return;
  }
  const T* values = batch.values_as<T>();
  const size_t size = out->size();
  out->resize(size + static_cast<size_t>(batch.length));
  Out* dst = out->data() + size;
  const size_t kept =
      batch.KeepValid(0, batch.length, [&](size_t slot, int64_t i) { dst[slot] = map(values[i]); });
  out->resize(size + kept);
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
  if (batch.length > 0 && batch.length != batch.null_count &&
      (expected == Physical::kBytes ? batch.strings == nullptr : batch.values == nullptr)) {
    return Status::InvalidArgument("range-bitmap: batch without values");
  }
  if (rows_ + static_cast<uint64_t>(batch.length) > kMaxRows) {
    return Status::InvalidArgument(
        "range-bitmap: a data file with more than 2147483647 rows cannot be indexed");
  }
  return Status::OK();
}

void RangeBitmapWriter::AppendValidity(const ColumnBatch& batch) {
  const uint64_t end = rows_ + static_cast<uint64_t>(batch.length);
  validity_.resize((end + 63) / 64, 0);
  if (batch.validity == nullptr || batch.null_count == 0) {
    SetBits(&validity_, rows_, end);
  } else {
    for (int64_t i = 0; i < batch.length; ++i) {
      const uint64_t r = rows_ + static_cast<uint64_t>(i);
      validity_[r >> 6] |= uint64_t{batch.IsValid(i)} << (r & 63);
    }
  }
}

Status RangeBitmapWriter::AppendKeys(const ColumnBatch& batch) {
  switch (spec_.kind) {
    case KeyKind::kBool:
      AppendPureMapped<uint8_t>(batch, &keys32_, [](uint8_t v) { return uint32_t{v != 0}; });
      return Status::OK();
    case KeyKind::kInt8:
      AppendPureMapped<int8_t>(batch, &keys32_,
                               [](int8_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return Status::OK();
    case KeyKind::kInt16:
      AppendPureMapped<int16_t>(batch, &keys32_,
                                [](int16_t v) { return uint32_t(int32_t{v}) ^ 0x80000000u; });
      return Status::OK();
    case KeyKind::kInt32:
      AppendPureMapped<int32_t>(batch, &keys32_,
                                [](int32_t v) { return uint32_t(v) ^ 0x80000000u; });
      return Status::OK();
    case KeyKind::kFloat:
      // Raw bits, never through a float register, so a signalling NaN keeps its payload.
      AppendMapped<uint32_t>(batch, &keys32_, [this](uint32_t raw) {
        const int32_t canonical = CanonicalFloatBits(static_cast<int32_t>(raw));
        if (canonical != static_cast<int32_t>(raw) || canonical == java::kCanonicalFloatNaNBits) {
          if (!seen_nan_) {
            seen_nan_ = true;
            first_nan_bits_ = raw;
          }
        }
        return OrderedFromFloatBits(canonical);
      });
      return Status::OK();
    case KeyKind::kDouble:
      AppendMapped<uint64_t>(batch, &keys64_, [this](uint64_t raw) {
        const int64_t canonical = CanonicalDoubleBits(static_cast<int64_t>(raw));
        if (canonical != static_cast<int64_t>(raw) || canonical == java::kCanonicalDoubleNaNBits) {
          if (!seen_nan_) {
            seen_nan_ = true;
            first_nan_bits_ = raw;
          }
        }
        return OrderedFromDoubleBits(canonical);
      });
      return Status::OK();
    case KeyKind::kInt64: {
      if (!spec_.timestamp) {
        AppendPureMapped<int64_t>(batch, &keys64_, [](int64_t v) { return OrderedFromSigned(v); });
        return Status::OK();
      }
      bool overflow = false;
      const column::TimeUnit unit = batch.timestamp_unit;
      if (spec_.timestamp_micros) {
        AppendMapped<int64_t>(batch, &keys64_, [&](int64_t v) {
          return OrderedFromSigned(column::ToEpochMicros(v, unit, &overflow));
        });
      } else {
        AppendMapped<int64_t>(batch, &keys64_, [&](int64_t v) {
          return OrderedFromSigned(column::ToEpochMillis(v, unit, &overflow));
        });
      }
      if (overflow) {
        return Status::InvalidArgument("range-bitmap: a timestamp of column type " +
                                       type_.ToString() + " overflows epoch " +
                                       (spec_.timestamp_micros ? "microseconds" : "milliseconds"));
      }
      return Status::OK();
    }
    case KeyKind::kString: {
      const std::string_view* strings = batch.strings;
      bool too_long = false;
      // Hash a group of rows and prefetch their table slots before probing, so the cache
      // misses of different rows overlap.
      constexpr int64_t kGroup = 16;
      uint64_t hashes[kGroup];
      for (int64_t begin = 0; begin < batch.length; begin += kGroup) {
        const int64_t end = std::min(batch.length, begin + kGroup);
        for (int64_t i = begin; i < end; ++i) {
          if (!batch.IsValid(i)) continue;
          hashes[i - begin] = strings_.Hash(strings[i]);
          strings_.Prefetch(hashes[i - begin]);
        }
        for (int64_t i = begin; i < end; ++i) {
          if (!batch.IsValid(i)) continue;
          if (strings[i].size() > static_cast<size_t>(std::numeric_limits<int32_t>::max() - 4)) {
            too_long = true;
          }
          string_ids_.push_back(strings_.Intern(strings[i], hashes[i - begin]));
        }
      }
      if (too_long)
        return Status::InvalidArgument("range-bitmap: a string longer than 2^31-5 bytes");
      return Status::OK();
    }
  }
  return Status::Internal("range-bitmap: unknown key kind");
}

namespace {
// Room for `needed` elements; at least doubling, so hints batch by batch stay amortized.
template <typename T>
void ReserveAtLeast(std::vector<T>* v, size_t needed) {
  if (needed > v->capacity()) v->reserve(std::max(needed, 2 * v->capacity()));
}
}  // namespace

void RangeBitmapWriter::ExpectRows(int64_t rows) {
  if (rows <= 0 || serialized_) return;
  const uint64_t total = rows_ + static_cast<uint64_t>(rows);
  if (total > kMaxRows) return;  // Write will refuse the batch
  ReserveAtLeast(&validity_, static_cast<size_t>((total + 63) / 64));
  // Only the vector of this column's key width; nulls leave their share untouched (and so
  // never resident).
  switch (spec_.kind) {
    case KeyKind::kString:
      ReserveAtLeast(&string_ids_, static_cast<size_t>(total));
      break;
    case KeyKind::kDouble:
    case KeyKind::kInt64:
      ReserveAtLeast(&keys64_, static_cast<size_t>(total));
      break;
    default:
      ReserveAtLeast(&keys32_, static_cast<size_t>(total));
      break;
  }
}

Status RangeBitmapWriter::Write(const ColumnBatch& batch) {
  PFI_RETURN_NOT_OK(CheckBatch(batch));
  // Keys first: a failing batch (timestamp overflow) must leave no partial validity behind.
  const size_t keys32 = keys32_.size(), keys64 = keys64_.size(), ids = string_ids_.size();
  Status status = AppendKeys(batch);
  if (!status.ok()) {
    keys32_.resize(keys32);
    keys64_.resize(keys64);
    string_ids_.resize(ids);
    return status;
  }
  AppendValidity(batch);
  rows_ += static_cast<uint64_t>(batch.length);
  return Status::OK();
}

Result<std::vector<uint8_t>> RangeBitmapWriter::Serialize() {
  PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
  std::vector<uint8_t> out(size);
  SerializeTo(out.data());
  return out;
}

void RangeBitmapWriter::SerializeTo(uint8_t* out) {
  std::copy(head_.begin(), head_.end(), out);
  bsi_->WriteTo(out + head_.size());
  head_ = std::vector<uint8_t>();
  bsi_.reset();
}

Result<size_t> RangeBitmapWriter::PrepareSerialize() {
  if (serialized_) return Status::InvalidArgument("range-bitmap: Serialize called twice");
  serialized_ = true;
  validity_.resize((rows_ + 63) / 64, 0);

  if (spec_.kind == KeyKind::kString) {
    const StringKeyTable& table = strings_;
    StringCodes codes = AssignStringCodes(table, std::move(string_ids_));
    std::vector<std::string_view> views(codes.sorted_ids.size());
    for (size_t i = 0; i < views.size(); ++i) views[i] = table.Get(codes.sorted_ids[i]);
    SortedKeys keys;
    keys.width = 0;
    keys.strings = views.data();
    keys.count = views.size();
    PFI_ASSIGN_OR_RETURN(size_t size, Assemble(keys, codes.codes.data()));
    strings_ = StringKeyTable();  // the dictionary holds the keys now
    return size;
  }

  // Fixed-width keys: sort, then encode the distinct keys in Java's stored form.
  std::vector<uint8_t> encoded;
  std::vector<uint32_t> codes;
  size_t count = 0;
  const uint64_t nan_ordered = spec_.kind == KeyKind::kFloat
                                   ? OrderedFromFloatBits(java::kCanonicalFloatNaNBits)
                                   : OrderedFromDoubleBits(java::kCanonicalDoubleNaNBits);
  const bool has_nan_key = spec_.kind == KeyKind::kFloat || spec_.kind == KeyKind::kDouble;
  // Integers narrower than 8 bytes are buffered with a 32-bit sign flip; key_kind.h's
  // ordered form flips bit 63.
  const bool narrow_int = spec_.kind == KeyKind::kInt8 || spec_.kind == KeyKind::kInt16 ||
                          spec_.kind == KeyKind::kInt32;
  auto ToKeyOrdered = [narrow_int](uint64_t buffered) {
    if (!narrow_int) return buffered;
    return OrderedFromSigned(static_cast<int32_t>(static_cast<uint32_t>(buffered) ^ 0x80000000u));
  };
  auto encode_all = [&](const auto& distinct) {
    count = distinct.size();
    encoded.resize(count * static_cast<size_t>(spec_.width));
    for (size_t i = 0; i < count; ++i) {
      uint8_t* out = encoded.data() + i * static_cast<size_t>(spec_.width);
      if (has_nan_key && seen_nan_ && uint64_t{distinct[i]} == nan_ordered) {
        if (spec_.width == 4) {
          io::StoreU32BE(out, static_cast<uint32_t>(first_nan_bits_));
        } else {
          io::StoreU64BE(out, first_nan_bits_);
        }
      } else {
        EncodeOrdered(spec_.kind, ToKeyOrdered(distinct[i]), out);
      }
    }
  };
  if (spec_.width == 8) {
    FixedCodes<uint64_t> fixed = AssignFixedCodes(std::move(keys64_));
    encode_all(fixed.distinct);
    codes = std::move(fixed.codes);
  } else {
    FixedCodes<uint32_t> fixed = AssignFixedCodes(std::move(keys32_));
    encode_all(fixed.distinct);
    codes = std::move(fixed.codes);
  }
  SortedKeys keys;
  keys.width = spec_.width;
  keys.fixed = encoded.data();
  keys.count = count;
  return Assemble(keys, codes.data());
}

Result<size_t> RangeBitmapWriter::Assemble(const SortedKeys& keys, const uint32_t* codes) {
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
  const size_t dictionary_length_at = w.size();
  w.WriteI32BE(0);  // the dictionary length, patched below
  head_ = w.Take();
  const size_t dictionary_start = head_.size();
  PFI_RETURN_NOT_OK(WriteDictionary(keys, chunk_size_, &head_));
  io::StoreU32BE(head_.data() + dictionary_length_at,
                 static_cast<uint32_t>(head_.size() - dictionary_start));
  bsi_ = std::make_unique<CodeBsi>(static_cast<uint32_t>(rows_),
                                   static_cast<int64_t>(cardinality), validity_.data(), codes);
  validity_ = std::vector<uint64_t>();
  return head_.size() + bsi_->size();
}

}  // namespace pyfileindex::index::range_bitmap
