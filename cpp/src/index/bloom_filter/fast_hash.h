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

#include "column/column_batch.h"
#include "hash/xxh64.h"
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

  // Calls sink(hash) for every non-null row of `batch`, in row order. InvalidArgument when the
  // batch's physical layout does not carry this type; timestamps whose micros overflow a long
  // fail as Java's Math.multiplyExact does.
  template <typename Sink>
  Status ForEachHash(const column::ColumnBatch& batch, Sink&& sink) const;

  // The hash a literal would have as a value of this column, or std::nullopt when no value of
  // the column can equal it (e.g. 300 for TINYINT). InvalidArgument for a literal of the wrong
  // kind; a NULL literal must be handled by the caller.
  Result<std::optional<uint64_t>> HashLiteral(const Literal& literal) const;

 private:
  FastHash(const DataType& type, Kind kind) : type_(type), kind_(kind) {}

  Status WrongPhysical(const column::ColumnBatch& batch) const;
  Status TimestampOverflow(int64_t value) const;

  DataType type_;
  Kind kind_;
};

// ---- implementation of the hot loop (a template so the sink inlines) ----------------------

template <typename Sink>
Status FastHash::ForEachHash(const column::ColumnBatch& batch, Sink&& sink) const {
  using column::Physical;
  const int64_t n = batch.length;
  // Visits each valid row index; one branch per row, no allocation.
  auto for_valid_rows = [&batch, n](auto&& body) {
    if (batch.validity == nullptr) {
      for (int64_t i = 0; i < n; ++i) body(i);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (batch.IsValid(i)) body(i);
      }
    }
  };
  switch (kind_) {
    case Kind::kBytes: {
      const bool has_bytes = batch.strings != nullptr || batch.offsets32 != nullptr ||
                             batch.offsets64 != nullptr;
      if (batch.physical != Physical::kBytes || (n > 0 && !has_bytes)) {
        return WrongPhysical(batch);
      }
      // A block of values is hashed at once (hash::Xxh64Many: grouped by length, much faster
      // on strings of varied lengths); only the valid rows' views are hashed, made from Arrow's
      // offsets a block at a time where the batch has no views.
      const std::string_view* strings = batch.strings;
      uint64_t hashes[hash::kXxh64ManyMax];
      std::string_view valid[hash::kXxh64ManyMax + column::ColumnBatch::kCopyValidViewsSlack];
      for (int64_t begin = 0; begin < n; begin += hash::kXxh64ManyMax) {
        const int64_t count = std::min<int64_t>(hash::kXxh64ManyMax, n - begin);
        size_t kept = static_cast<size_t>(count);
        if (strings != nullptr && batch.validity == nullptr) {
          hash::Xxh64Many(strings + begin, kept, hashes);
        } else {
          kept = batch.CopyValidViews(begin, count, valid);
          hash::Xxh64Many(valid, kept, hashes);
        }
        for (size_t i = 0; i < kept; ++i) sink(hashes[i]);
      }
      return Status::OK();
    }
    case Kind::kLong: {
      if (n > 0 && batch.values == nullptr) return WrongPhysical(batch);
      switch (batch.physical) {
        case Physical::kInt8: {
          const int8_t* v = batch.int8_values();
          for_valid_rows([&](int64_t i) { sink(Wang64(v[i])); });
          return Status::OK();
        }
        case Physical::kInt16: {
          const int16_t* v = batch.int16_values();
          for_valid_rows([&](int64_t i) { sink(Wang64(v[i])); });
          return Status::OK();
        }
        case Physical::kInt32: {
          const int32_t* v = batch.int32_values();
          for_valid_rows([&](int64_t i) { sink(Wang64(v[i])); });
          return Status::OK();
        }
        case Physical::kInt64: {
          const int64_t* v = batch.int64_values();
          for_valid_rows([&](int64_t i) { sink(Wang64(v[i])); });
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
      for_valid_rows([&](int64_t i) { sink(Wang64(java::FloatToIntBits(v[i]))); });
      return Status::OK();
    }
    case Kind::kDouble: {
      if (batch.physical != Physical::kDouble || (n > 0 && batch.values == nullptr)) {
        return WrongPhysical(batch);
      }
      const double* v = batch.double_values();
      for_valid_rows([&](int64_t i) { sink(Wang64(java::DoubleToLongBits(v[i]))); });
      return Status::OK();
    }
    case Kind::kTimestampMillis:
    case Kind::kTimestampMicros: {
      if (batch.physical != Physical::kTimestamp || (n > 0 && batch.values == nullptr)) {
        return WrongPhysical(batch);
      }
      const int64_t* v = batch.int64_values();
      const bool micros = kind_ == Kind::kTimestampMicros;
      const column::TimeUnit unit = batch.timestamp_unit;
      // The common layouts need no conversion at all.
      if ((micros && unit == column::TimeUnit::kMicro) ||
          (!micros && unit == column::TimeUnit::kMilli)) {
        for_valid_rows([&](int64_t i) { sink(Wang64(v[i])); });
        return Status::OK();
      }
      bool overflow = false;
      int64_t first_overflow = 0;
      for_valid_rows([&](int64_t i) {
        bool row_overflow = false;
        const int64_t key = micros ? column::ToEpochMicros(v[i], unit, &row_overflow)
                                   : column::ToEpochMillis(v[i], unit, &row_overflow);
        if (row_overflow && !overflow) {
          overflow = true;
          first_overflow = v[i];
        }
        sink(Wang64(key));
      });
      if (overflow) return TimestampOverflow(first_overflow);
      return Status::OK();
    }
  }
  return Status::Internal("bloom-filter: unknown hash kind");
}

}  // namespace pyfileindex::index::bloom_filter
