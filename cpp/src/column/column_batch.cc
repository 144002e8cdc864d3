#include "column/column_batch.h"

#include <limits>

namespace pyfileindex::column {

namespace {
// value * factor, reporting overflow instead of wrapping.
int64_t CheckedScale(int64_t value, int64_t factor, bool* overflow) {
  int64_t out = 0;
  if (__builtin_mul_overflow(value, factor, &out)) {
    *overflow = true;
    return value < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return out;
}
}  // namespace

const char* PhysicalName(Physical physical) {
  switch (physical) {
    case Physical::kBool: return "bool";
    case Physical::kInt8: return "int8";
    case Physical::kInt16: return "int16";
    case Physical::kInt32: return "int32";
    case Physical::kInt64: return "int64";
    case Physical::kFloat: return "float";
    case Physical::kDouble: return "double";
    case Physical::kDecimal: return "decimal64";
    case Physical::kDecimal128: return "decimal128";
    case Physical::kTimestamp: return "timestamp";
    case Physical::kBytes: return "bytes";
  }
  return "unknown";
}

EpochMillisNanos ToMillisNanos(int64_t value, TimeUnit unit, bool* overflow) {
  switch (unit) {
    case TimeUnit::kSecond: return {CheckedScale(value, 1000, overflow), 0};
    case TimeUnit::kMilli: return {value, 0};
    case TimeUnit::kMicro:
      return {FloorDiv(value, 1000), static_cast<int32_t>(FloorMod(value, 1000) * 1000)};
    case TimeUnit::kNano:
      return {FloorDiv(value, 1000000), static_cast<int32_t>(FloorMod(value, 1000000))};
  }
  return {value, 0};
}

int64_t ToEpochMillis(int64_t value, TimeUnit unit, bool* overflow) {
  return ToMillisNanos(value, unit, overflow).millis;
}

int64_t ToEpochMicros(int64_t value, TimeUnit unit, bool* overflow) {
  switch (unit) {
    case TimeUnit::kSecond: return CheckedScale(value, 1000000, overflow);
    case TimeUnit::kMilli: return CheckedScale(value, 1000, overflow);
    case TimeUnit::kMicro: return value;
    case TimeUnit::kNano: return FloorDiv(value, 1000);
  }
  return value;
}

}  // namespace pyfileindex::column
