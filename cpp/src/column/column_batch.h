// ColumnBatch: one Arrow column (a slice of a data file's rows) seen as Paimon internal values.
//
// The Arrow adapter (arrow_column.h) validates an Arrow array against the column's Paimon type
// and normalises it here, zero-copy where Arrow's layout already is Paimon's internal form.
// Index writers read values through the typed accessors below; nothing here allocates per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "io/endian.h"
#include "pyfileindex/data_type.h"

namespace pyfileindex::column {

// How the values of a batch are stored (after normalisation).
enum class Physical : uint8_t {
  kBool,       // uint8_t 0/1 per row
  kInt8,       // TINYINT
  kInt16,      // SMALLINT
  kInt32,      // INT, DATE (days since epoch), TIME (millis of day)
  kInt64,      // BIGINT
  kFloat,      // FLOAT
  kDouble,     // DOUBLE
  kDecimal,    // int64 unscaled values (precision <= 18) -- `int64_values()`
  kDecimal128, // 16-byte little-endian two's complement unscaled values (precision > 18)
  kTimestamp,  // int64 in `timestamp_unit` since the epoch (TIMESTAMP / TIMESTAMP_LTZ)
  kBytes,      // CHAR/VARCHAR (UTF-8) or BINARY/VARBINARY: one string_view per row
};

// "int32", "decimal128", ...: for error messages.
const char* PhysicalName(Physical physical);

// Bytes a row takes in `ColumnBatch::values` (kBytes: one string_view).
size_t ValueWidth(Physical physical);

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

struct ColumnBatch {
  const DataType* type = nullptr;  // the column's Paimon type (for a map key: the value type)
  Physical physical = Physical::kInt32;
  TimeUnit timestamp_unit = TimeUnit::kMicro;
  int64_t length = 0;
  int64_t null_count = 0;

  // Validity: bit (validity_offset + i) of `validity` (LSB-first); null pointer = all valid.
  const uint8_t* validity = nullptr;
  int64_t validity_offset = 0;

  // Fixed-width values, `length` of them, already offset to this batch's first row.
  const void* values = nullptr;
  // kBytes: one view per row (views of null rows are empty and must not be used).
  const std::string_view* strings = nullptr;
  // Or, for writers that take dictionary-encoded strings (ColumnIndexWriter::
  // TakesDictionaries), strings == nullptr and row i's value is the dictionary's value
  // dictionary_indices[i]: a valid row's index is within the dictionary, whose values are all
  // valid (as views, or as offsets for writers that also take those). Writers then work once
  // per distinct value, not per row.
  const ColumnBatch* dictionary = nullptr;
  const int32_t* dictionary_indices = nullptr;  // already offset to this batch's first row
  // Or, for writers that read Arrow's offsets (ColumnIndexWriter::TakesStringOffsets),
  // strings == nullptr and row i's bytes are string_data[offsets[i], offsets[i + 1]) with
  // offsets32 or offsets64 (the other is null), already offset to this batch's first row.
  // The offsets of valid rows never decrease; those of null rows must not be used unless
  // NullRowsSpanValidBytes().
  const char* string_data = nullptr;
  const int32_t* offsets32 = nullptr;
  const int64_t* offsets64 = nullptr;

  // kBytes: row i's bytes, from its view or from Arrow's offsets (row i must be valid).
  std::string_view StringAt(int64_t i) const {
    if (strings != nullptr) return strings[i];
    const int64_t begin = offsets32 != nullptr ? offsets32[i] : offsets64[i];
    const int64_t end = offsets32 != nullptr ? offsets32[i + 1] : offsets64[i + 1];
    return std::string_view(string_data + begin, static_cast<size_t>(end - begin));
  }

  // With offsets: whether every offset, null rows' too, is in order and within the valid
  // rows' bytes (the null rows at either end span nothing). Arrow asks that of every array,
  // but this library reads only valid rows' offsets unless this holds. Then every row's bytes
  // may be read (a null row's are not its value), so a reader may work on every row and drop
  // the null rows' results after. False without a valid row. One pass over the offsets.
  bool NullRowsSpanValidBytes() const;

  bool IsValid(int64_t i) const {
    if (validity == nullptr) return true;
    const int64_t bit = validity_offset + i;
    return (validity[bit >> 3] >> (bit & 7)) & 1;
  }
  bool IsNull(int64_t i) const { return !IsValid(i); }

  // Compacts the valid rows of [begin, begin + n): put(slot, i) is called for every row i
  // (offset from begin) and `slot` moves on only past valid rows, so whatever put writes
  // for the valid rows ends up at [0, returned count), in row order. No branch per row:
  // nulls at random rows would mispredict one in every few.
  template <typename Put>
  size_t KeepValid(int64_t begin, int64_t n, Put&& put) const {
    if (validity == nullptr) {
      for (int64_t i = 0; i < n; ++i) put(static_cast<size_t>(i), i);
      return static_cast<size_t>(n);
    }
    // 64 rows' bits from one word: a shift a row, not a load and a bit address.
    size_t slot = 0;
    for (int64_t i = 0; i < n; i += 64) {
      const int count = static_cast<int>(n - i < 64 ? n - i : 64);
      const uint64_t bits = ValidBits(begin + i, count);
      for (int k = 0; k < count; ++k) {
        put(slot, i + k);
        slot += (bits >> k) & 1;
      }
    }
    return slot;
  }

  // The validity bits of rows [i, i + count) (1 <= count <= 64, `validity` set), row i's the
  // lowest, the bits above them zero. Reads only the bytes that hold them.
  uint64_t ValidBits(int64_t i, int count) const {
    const int64_t bit = validity_offset + i;
    const uint8_t* p = validity + (bit >> 3);
    const int shift = static_cast<int>(bit & 7);
    const int bytes = (shift + count + 7) >> 3;  // 1..9
    uint64_t word = 0;
    if (bytes >= 8) {
      word = io::LoadU64LE(p);
    } else {
      for (int b = 0; b < bytes; ++b) word |= uint64_t{p[b]} << (8 * b);
    }
    word >>= shift;
    if (bytes == 9) word |= uint64_t{p[8]} << (64 - shift);  // shift > 0 here
    return count == 64 ? word : word & ((uint64_t{1} << count) - 1);
  }

  // The views of the valid rows of [begin, begin + n) (a kBytes batch with views or offsets),
  // in order, written to `out`, which has room for n + kCopyValidViewsSlack views; returns
  // how many. Views are copied eight rows a step where the CPU has AVX-512 (compresses driven
  // by the validity byte); offsets become views without a branch per row.
  static constexpr int64_t kCopyValidViewsSlack = 4;
  size_t CopyValidViews(int64_t begin, int64_t n, std::string_view* out) const;

  // The offsets i - begin of the valid rows of [begin, begin + n) (n <= 2^32), in order,
  // written to `out`, which has room for n + kValidRowOffsetsSlack of them; returns how many.
  // Sixteen rows a step where the CPU has AVX-512 (a compress driven by their validity bits).
  static constexpr int64_t kValidRowOffsetsSlack = 16;
  size_t ValidRowOffsets(int64_t begin, int64_t n, uint32_t* out) const;

  template <typename T>
  const T* values_as() const { return static_cast<const T*>(values); }
  const uint8_t* bool_values() const { return values_as<uint8_t>(); }
  const int8_t* int8_values() const { return values_as<int8_t>(); }
  const int16_t* int16_values() const { return values_as<int16_t>(); }
  const int32_t* int32_values() const { return values_as<int32_t>(); }
  const int64_t* int64_values() const { return values_as<int64_t>(); }
  const float* float_values() const { return values_as<float>(); }
  const double* double_values() const { return values_as<double>(); }
};

// Floor division helpers shared by every index that maps timestamps (Paimon keeps
// epoch millis + nano-of-milli; millis(ts) and micros(ts) floor towards -infinity).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// Converts a raw timestamp value of `unit` to Paimon's (epoch millis, nano of milli).
struct EpochMillisNanos {
  int64_t millis;
  int32_t nano_of_milli;
};
EpochMillisNanos ToMillisNanos(int64_t value, TimeUnit unit, bool* overflow);
// Paimon's Timestamp.getMillisecond() and toMicros() (floor); `overflow` set if out of range.
int64_t ToEpochMillis(int64_t value, TimeUnit unit, bool* overflow);
int64_t ToEpochMicros(int64_t value, TimeUnit unit, bool* overflow);

}  // namespace pyfileindex::column
