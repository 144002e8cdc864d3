// How a column batch carries a key's values: which physical layout it comes in, and, for
// TIMESTAMP, the conversion from the batch's Arrow unit (seconds to nanoseconds) to the key's
// unit (epoch millis or micros, PhysicalKey::unit). Every writer converts its timestamps
// through these, and the bitmap and range-bitmap writers check a batch's layout with
// PhysicalFor, so the unit rule lives in one place. Inline: they run per row.
#pragma once

#include <cstdint>
#include <cstring>

#include "column/column_batch.h"
#include "index/keys/physical_key.h"

namespace pyfileindex::index::keys {

// The physical layout of a batch whose values have `key`.
constexpr column::Physical PhysicalFor(const PhysicalKey& key) {
  if (key.is_timestamp()) return column::Physical::kTimestamp;
  if (key.is_decimal()) {
    return key.compact ? column::Physical::kDecimal : column::Physical::kDecimal128;
  }
  switch (key.kind) {
    case KeyKind::kBool: return column::Physical::kBool;
    case KeyKind::kInt8: return column::Physical::kInt8;
    case KeyKind::kInt16: return column::Physical::kInt16;
    case KeyKind::kInt32: return column::Physical::kInt32;
    case KeyKind::kInt64: return column::Physical::kInt64;
    case KeyKind::kFloat: return column::Physical::kFloat;
    case KeyKind::kDouble: return column::Physical::kDouble;
    case KeyKind::kString:
    case KeyKind::kBinary: return column::Physical::kBytes;
  }
  return column::Physical::kInt32;
}

// Whether timestamps in `unit` already are `key`'s keys: the common layouts need no conversion.
constexpr bool TimestampsAreKeys(const PhysicalKey& key, column::TimeUnit unit) {
  return unit == (key.micros() ? column::TimeUnit::kMicro : column::TimeUnit::kMilli);
}

// A timestamp in `unit` as `key`'s key (floor, as Paimon's getMillisecond() / toMicros());
// `overflow` is set when the key does not fit a long.
inline int64_t TimestampKey(const PhysicalKey& key, int64_t value, column::TimeUnit unit,
                            bool* overflow) {
  return key.micros() ? column::ToEpochMicros(value, unit, overflow)
                      : column::ToEpochMillis(value, unit, overflow);
}

// "microseconds" or "milliseconds", for messages.
constexpr const char* TimestampKeyUnitName(const PhysicalKey& key) {
  return key.micros() ? "microseconds" : "milliseconds";
}

// The keys of rows [begin, begin + n) of a TIMESTAMP batch into out[0, n) (null rows' too,
// whatever their values). Returns the offset from `begin` of the first valid row whose key
// overflows a long (out[] is not filled past it), or -1.
inline int64_t TimestampKeys(const PhysicalKey& key, const column::ColumnBatch& batch,
                             int64_t begin, int64_t n, int64_t* out) {
  const int64_t* values = batch.int64_values() + begin;
  const column::TimeUnit unit = batch.timestamp_unit;
  if (TimestampsAreKeys(key, unit)) {
    if (n > 0) std::memcpy(out, values, static_cast<size_t>(n) * sizeof(int64_t));
    return -1;
  }
  for (int64_t i = 0; i < n; ++i) {
    bool overflow = false;
    out[i] = TimestampKey(key, values[i], unit, &overflow);
    if (overflow && batch.IsValid(begin + i)) return i;
  }
  return -1;
}

}  // namespace pyfileindex::index::keys
