// Paimon's FastHash: how the bloom-filter index turns one column value into a 64-bit hash.
//
//   CHAR/VARCHAR, BINARY/VARBINARY  XXH64 (seed 0) of the bytes
//   TINYINT..BIGINT, DATE, TIME     Wang64 of the value sign-extended to 64 bits
//   FLOAT / DOUBLE                  Wang64 of floatToIntBits (sign-extended) / doubleToLongBits
//   TIMESTAMP[_LTZ](p <= 3)         Wang64 of epoch millis
//   TIMESTAMP[_LTZ](p >= 4)         Wang64 of epoch micros (floor; nanoseconds below 1 us dropped)
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "column/column_batch.h"
#include "hash/xxh64.h"
#include "index/bloom_filter/recent_values.h"
#include "index/keys/batch_keys.h"
#include "index/keys/physical_key.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bloom_filter {

// Thomas Wang's 64-bit integer mix as Paimon writes it: wrap-around additions and
// sign-propagating (arithmetic) right shifts on a Java long.
inline uint64_t Wang64(int64_t key) {
  auto sar = [](uint64_t x, int bits) {
    return static_cast<uint64_t>(static_cast<int64_t>(x) >> bits);  // arithmetic in GCC/Clang
  };
  uint64_t x = static_cast<uint64_t>(key);
  x = ~x + (x << 21);
  x = x ^ sar(x, 24);
  x = x + (x << 3) + (x << 8);
  x = x ^ sar(x, 14);
  x = x + (x << 2) + (x << 4);
  x = x ^ sar(x, 28);
  x = x + (x << 31);
  return x;
}

// keys[i] = Wang64(keys[i]) for i < n: four at a time with AVX2.
void Wang64Many(uint64_t* keys, size_t n);

class FastHash {
 public:
  enum class Kind : uint8_t {
    kBytes,            // XXH64 of the bytes
    kLong,             // Wang64 of an integral value
    kFloat,            // Wang64 of floatToIntBits
    kDouble,           // Wang64 of doubleToLongBits
    kTimestampMillis,  // Wang64 of epoch millis
    kTimestampMicros,  // Wang64 of epoch micros
  };

  // InvalidArgument for a type the bloom-filter index does not support (as Paimon 2.0).
  static Result<FastHash> For(const DataType& type);

  Kind kind() const { return kind_; }
  const DataType& type() const { return type_; }

  // Calls sink(hashes, n) with the hashes of the non-null rows of `batch`, in row order, at
  // most kHashBlock at a time; the sink may reorder or overwrite its block. InvalidArgument
  // when the batch's physical layout does not carry this type; timestamps whose micros
  // overflow a long fail as Java's Math.multiplyExact does. With `repeats` (byte values only),
  // values it finds were added before are dropped unhashed. A dictionary-encoded batch gives
  // the hashes of the dictionary values its valid rows use, each once (a filter needs no more).
  static constexpr size_t kHashBlock = hash::kXxh64ManyMax;
  template <typename Sink>
  Status ForEachHashBlock(const column::ColumnBatch& batch, Sink&& sink,
                          RecentValues* repeats = nullptr) const;

  // The hash a literal would have as a value of this column, or std::nullopt when no value of
  // the column can equal it (e.g. 300 for TINYINT). InvalidArgument for a literal of the wrong
  // kind; a NULL literal must be handled by the caller.
  Result<std::optional<uint64_t>> HashLiteral(const Literal& literal) const;

 private:
  FastHash(const DataType& type, const keys::PhysicalKey& key, Kind kind)
      : type_(type), key_(key), kind_(kind) {}

  // Not inlined, so the row path's frame and code stay as they were: inlined (16 KiB more of
  // views on the stack), the plain shuffled STRING c=100k build's best of 7 was 2-3% slower
  // in three alternated rounds against the build before it; not inlined it is level.
  template <typename Sink>
  __attribute__((noinline)) Status HashUsedDictionaryValues(const column::ColumnBatch& batch,
                                                            uint64_t* block, Sink&& sink) const;

  // Keeps the hashes of the valid rows of [begin, begin + count) in `hashes` (one per row),
  // in order, at its front; returns how many.
  static size_t KeepValidHashes(const column::ColumnBatch& batch, int64_t begin, int64_t count,
                                uint64_t* hashes) {
    return batch.KeepValid(begin, count, [hashes](size_t slot, int64_t i) {
      hashes[slot] = hashes[i];  // slot <= i: nothing is overwritten before it is read
    });
  }

  Status WrongPhysical(const column::ColumnBatch& batch) const;
  Status TimestampOverflow(int64_t value) const;

  DataType type_;
  keys::PhysicalKey key_;
  Kind kind_;
};

// ---- implementation of the hot loop (a template so the sink inlines) ----------------------

template <typename Sink>
Status FastHash::ForEachHashBlock(const column::ColumnBatch& batch, Sink&& sink,
                                  RecentValues* repeats) const {
  using column::Physical;
  const int64_t n = batch.length;
  uint64_t block[kHashBlock];
  // Numbers: each block's keys (the valid rows', as Java longs) are gathered, then hashed in
  // one call. No branch per row: nulls are dropped by KeepValid.
  auto hash_keys = [&](auto&& key_at) {
    for (int64_t begin = 0; begin < n; begin += static_cast<int64_t>(kHashBlock)) {
      const int64_t count = std::min<int64_t>(static_cast<int64_t>(kHashBlock), n - begin);
      size_t kept = static_cast<size_t>(count);
      if (batch.validity == nullptr) {
        for (int64_t i = 0; i < count; ++i) block[i] = static_cast<uint64_t>(key_at(begin + i));
      } else {
        kept = batch.KeepValid(begin, count, [&](size_t slot, int64_t i) {
          block[slot] = static_cast<uint64_t>(key_at(begin + i));
        });
      }
      Wang64Many(block, kept);
      sink(block, kept);
    }
  };
  switch (kind_) {
    case Kind::kBytes: {
      if (batch.dictionary != nullptr) return HashUsedDictionaryValues(batch, block, sink);
      const bool has_bytes = batch.strings != nullptr || batch.offsets32 != nullptr ||
                             batch.offsets64 != nullptr;
      if (batch.physical != Physical::kBytes || (n > 0 && !has_bytes)) {
        return WrongPhysical(batch);
      }
      // A block of values is hashed at once (hash::Xxh64Many: much faster on strings of varied
      // lengths): straight from Arrow's offsets without nulls, else the valid rows' views,
      // made a block at a time where the batch has none.
      const std::string_view* strings = batch.strings;
      const bool all_valid = batch.validity == nullptr || batch.null_count == 0;
      // Up to a quarter of nulls, where null rows' offsets stay within the valid rows' bytes
      // (as Arrow asks), every row is hashed from the offsets and the null rows' hashes are
      // dropped after: views of the valid rows cost more than hashing the few null ones.
      const bool from_offsets =
          strings == nullptr &&
          (all_valid || (batch.null_count >= 0 && 4 * batch.null_count <= batch.length &&
                         batch.NullRowsSpanValidBytes()));
      std::string_view valid[kHashBlock + column::ColumnBatch::kCopyValidViewsSlack];
      std::string_view fresh[kHashBlock];
      for (int64_t begin = 0; begin < n; begin += static_cast<int64_t>(kHashBlock)) {
        const int64_t count = std::min<int64_t>(static_cast<int64_t>(kHashBlock), n - begin);
        size_t kept = static_cast<size_t>(count);
        if (repeats != nullptr && repeats->Consult()) {
          // Only the values the table has not seen are hashed, from views in `fresh`.
          const std::string_view* views = valid;
          if (strings != nullptr && batch.validity == nullptr) {
            views = strings + begin;
          } else {
            kept = batch.CopyValidViews(begin, count, valid);
          }
          kept = repeats->KeepNew(views, kept, fresh);
          hash::Xxh64Many(fresh, kept, block);
        } else if (strings != nullptr && batch.validity == nullptr) {
          hash::Xxh64Many(strings + begin, kept, block);
        } else if (from_offsets) {
          if (batch.offsets32 != nullptr) {
            hash::Xxh64Many(batch.string_data, batch.offsets32 + begin, kept, block);
          } else {
            hash::Xxh64Many(batch.string_data, batch.offsets64 + begin, kept, block);
          }
          if (!all_valid) kept = KeepValidHashes(batch, begin, count, block);
        } else {
          kept = batch.CopyValidViews(begin, count, valid);
          hash::Xxh64Many(valid, kept, block);
        }
        sink(block, kept);
      }
      return Status::OK();
    }
    case Kind::kLong: {
      if (n > 0 && batch.values == nullptr) return WrongPhysical(batch);
      switch (batch.physical) {
        case Physical::kInt8: {
          const int8_t* v = batch.int8_values();
          hash_keys([v](int64_t i) { return int64_t{v[i]}; });
          return Status::OK();
        }
        case Physical::kInt16: {
          const int16_t* v = batch.int16_values();
          hash_keys([v](int64_t i) { return int64_t{v[i]}; });
          return Status::OK();
        }
        case Physical::kInt32: {
          const int32_t* v = batch.int32_values();
          hash_keys([v](int64_t i) { return int64_t{v[i]}; });
          return Status::OK();
        }
        case Physical::kInt64: {
          const int64_t* v = batch.int64_values();
          hash_keys([v](int64_t i) { return v[i]; });
          return Status::OK();
        }
        default:
          return WrongPhysical(batch);
      }
    }
    case Kind::kFloat: {
      if (batch.physical != Physical::kFloat || (n > 0 && batch.values == nullptr)) {
        return WrongPhysical(batch);
      }
      const float* v = batch.float_values();
      hash_keys([v](int64_t i) { return int64_t{java::FloatToIntBits(v[i])}; });
      return Status::OK();
    }
    case Kind::kDouble: {
      if (batch.physical != Physical::kDouble || (n > 0 && batch.values == nullptr)) {
        return WrongPhysical(batch);
      }
      const double* v = batch.double_values();
      hash_keys([v](int64_t i) { return java::DoubleToLongBits(v[i]); });
      return Status::OK();
    }
    case Kind::kTimestampMillis:
    case Kind::kTimestampMicros: {
      if (batch.physical != Physical::kTimestamp || (n > 0 && batch.values == nullptr)) {
        return WrongPhysical(batch);
      }
      const int64_t* v = batch.int64_values();
      const keys::PhysicalKey key = key_;
      const column::TimeUnit unit = batch.timestamp_unit;
      // The common layouts need no conversion at all.
      if (keys::TimestampsAreKeys(key, unit)) {
        hash_keys([v](int64_t i) { return v[i]; });
        return Status::OK();
      }
      // Converted once; only if some row overflowed (null rows' values may) are the valid
      // rows looked at again, to name the first that did.
      bool overflow = false;
      hash_keys([v, key, unit, &overflow](int64_t i) {
        return keys::TimestampKey(key, v[i], unit, &overflow);
      });
      if (!overflow) return Status::OK();
      for (int64_t i = 0; i < n; ++i) {
        bool row_overflow = false;
        keys::TimestampKey(key, v[i], unit, &row_overflow);
        if (row_overflow && batch.IsValid(i)) return TimestampOverflow(v[i]);
      }
      return Status::OK();
    }
  }
  return Status::Internal("bloom-filter: unknown hash kind");
}

// Each dictionary value is hashed once, and only if some valid row uses it: a column read
// dictionary-encoded (as Parquet stores most string columns) costs a bit per row, not a hash.
template <typename Sink>
Status FastHash::HashUsedDictionaryValues(const column::ColumnBatch& batch, uint64_t* block,
                                          Sink&& sink) const {
  const column::ColumnBatch& values = *batch.dictionary;
  if (values.physical != column::Physical::kBytes ||
      (values.length > 0 && values.strings == nullptr && values.offsets32 == nullptr &&
       values.offsets64 == nullptr)) {
    return WrongPhysical(values);
  }
  // One bit per dictionary value (and a word 0 even for an empty dictionary). A null row's
  // index may be anything: it marks nothing (its bit is or-ed as 0 into word 0), with no
  // branch per row.
  std::vector<uint64_t> used((static_cast<size_t>(values.length) + 63) / 64 + 1, 0);
  const int32_t* codes = batch.dictionary_indices;
  if (batch.validity == nullptr || batch.null_count == 0) {
    for (int64_t i = 0; i < batch.length; ++i) {
      const uint32_t code = static_cast<uint32_t>(codes[i]);
      used[code >> 6] |= uint64_t{1} << (code & 63);
    }
  } else {
    for (int64_t i = 0; i < batch.length; ++i) {
      const uint64_t valid = batch.IsValid(i) ? 1 : 0;
      const uint32_t code = static_cast<uint32_t>(codes[i]) & static_cast<uint32_t>(-valid);
      used[code >> 6] |= valid << (code & 63);
    }
  }
  std::string_view views[kHashBlock];
  size_t count = 0;
  for (size_t word = 0; word < used.size(); ++word) {
    for (uint64_t bits = used[word]; bits != 0; bits &= bits - 1) {
      views[count++] = values.StringAt(static_cast<int64_t>(word * 64) + __builtin_ctzll(bits));
      if (count == kHashBlock) {
        hash::Xxh64Many(views, count, block);
        sink(block, count);
        count = 0;
      }
    }
  }
  if (count > 0) {
    hash::Xxh64Many(views, count, block);
    sink(block, count);
  }
  return Status::OK();
}

}  // namespace pyfileindex::index::bloom_filter
