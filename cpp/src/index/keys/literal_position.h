// A predicate literal's position among a column's keys.
//
// A literal either equals a key the column can hold (exact), lies strictly between two adjacent
// keys (300 on TINYINT is above every key; 0.1 on FLOAT between two floats; a timestamp with
// more digits than the column keeps, or a decimal with a finer scale, between two steps), or
// lies outside every key. Each index decides from that position how to answer; Java's habit of
// truncating a finer literal to the column's unit is one such decision (TruncatedKey).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "index/keys/physical_key.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::keys {

using Int128 = __int128;

// A literal on an integer key axis (integers, DATE, TIME, DECIMAL, TIMESTAMP): the largest key
// step at or below it, and whether it lies strictly above that step. 128 bits hold every
// literal, so no conversion overflows.
struct AxisPoint {
  Int128 floor = 0;
  bool fraction = false;  // literal > floor
  bool unit_end = false;  // timestamps: the literal is the last nanosecond of its step
};

// The point of a non-null literal whose kind is LiteralKindFor(key), for a key of an integer
// kind. InvalidArgument for a timestamp nano-of-millisecond outside 0..999999.
Result<AxisPoint> PointOf(const PhysicalKey& key, const Literal& literal);

// Where a point falls among the integer keys [min, max] of a column.
struct IntegerPosition {
  enum class Where : uint8_t { kBelowAll, kExact, kBetween, kAboveAll };
  Where where = Where::kExact;
  int64_t key = 0;  // kExact: the key; kBetween: the key below (key + 1 is the key above)
};

inline IntegerPosition PlaceAmongIntegers(const AxisPoint& point, int64_t min, int64_t max) {
  IntegerPosition out;
  if (point.floor < min) {
    out.where = IntegerPosition::Where::kBelowAll;
  } else if (point.floor > max || (point.fraction && point.floor == max)) {
    out.where = IntegerPosition::Where::kAboveAll;
  } else {
    out.where = point.fraction ? IntegerPosition::Where::kBetween : IntegerPosition::Where::kExact;
    out.key = static_cast<int64_t>(point.floor);
  }
  return out;
}

// The smallest and largest key of an integer kind.
constexpr int64_t MinIntegerKey(KeyKind kind) {
  switch (kind) {
    case KeyKind::kInt8: return std::numeric_limits<int8_t>::min();
    case KeyKind::kInt16: return std::numeric_limits<int16_t>::min();
    case KeyKind::kInt32: return std::numeric_limits<int32_t>::min();
    default: return std::numeric_limits<int64_t>::min();
  }
}
constexpr int64_t MaxIntegerKey(KeyKind kind) {
  switch (kind) {
    case KeyKind::kInt8: return std::numeric_limits<int8_t>::max();
    case KeyKind::kInt16: return std::numeric_limits<int16_t>::max();
    case KeyKind::kInt32: return std::numeric_limits<int32_t>::max();
    default: return std::numeric_limits<int64_t>::max();
  }
}

// Java's equality lookup (bitmap, bloom-filter): a literal finer than the column's unit is
// truncated to its step (Timestamp.getMillisecond() / toMicros()); a literal outside the
// column's keys has no key (it is never narrowed into range).
inline std::optional<int64_t> TruncatedKey(const AxisPoint& point, KeyKind kind) {
  if (point.floor < MinIntegerKey(kind) || point.floor > MaxIntegerKey(kind)) return std::nullopt;
  return static_cast<int64_t>(point.floor);
}

// Java's (float) d: IEEE round-to-nearest-even, overflowing to infinity. C++ leaves the cast
// undefined outside float's range, so that part is spelled out.
float NearestFloat(double d);

// A DOUBLE literal among FLOAT keys: the float equal to it, or the two adjacent floats around
// it. NaN is exact (every NaN is one key).
struct FloatPosition {
  bool exact = true;
  float lo = 0;  // exact: the key
  float hi = 0;  // between only
};
FloatPosition PlaceAmongFloats(double d);

}  // namespace pyfileindex::index::keys
