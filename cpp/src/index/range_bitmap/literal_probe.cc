#include "index/range_bitmap/literal_probe.h"

#include <cmath>
#include <limits>
#include <string>

#include "java/hash_codes.h"
#include "types/decimal_scale.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using Int128 = __int128;

Literal::Kind ExpectedKind(const KeySpec& spec) {
  switch (spec.kind) {
    case KeyKind::kBool:
      return Literal::Kind::kBool;
    case KeyKind::kFloat:
    case KeyKind::kDouble:
      return Literal::Kind::kDouble;
    case KeyKind::kString:
      return Literal::Kind::kString;
    case KeyKind::kInt64:
      if (spec.decimal) return Literal::Kind::kDecimal;
      if (spec.timestamp) return Literal::Kind::kTimestamp;
      return Literal::Kind::kInt;
    default:
      return Literal::Kind::kInt;
  }
}

Probe Exact(uint64_t ordered) {
  Probe p;
  p.key.ordered = ordered;
  return p;
}

Probe Gap(bool has_lo, uint64_t lo, bool has_hi, uint64_t hi) {
  Probe p;
  p.exact = false;
  p.has_lo = has_lo;
  p.lo.ordered = lo;
  p.has_hi = has_hi;
  p.hi.ordered = hi;
  return p;
}

// The true value is `floor` (+ a positive fraction when `fraction`); the column's keys are the
// integers of [min, max].
Probe PlaceInteger(Int128 floor, bool fraction, int64_t min, int64_t max) {
  if (floor < min) return Gap(false, 0, true, OrderedFromSigned(min));
  if (!fraction) {
    if (floor > max) return Gap(true, OrderedFromSigned(max), false, 0);
    return Exact(OrderedFromSigned(static_cast<int64_t>(floor)));
  }
  if (floor >= max) return Gap(true, OrderedFromSigned(max), false, 0);
  const int64_t lo = static_cast<int64_t>(floor);
  return Gap(true, OrderedFromSigned(lo), true, OrderedFromSigned(lo + 1));
}

Probe PlaceFloat(double d) {
  if (std::isnan(d)) return Exact(OrderedFromFloatBits(java::kCanonicalFloatNaNBits));
  const float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) return Exact(OrderedFromFloat(f));  // keeps -0.0 apart
  const float inf = std::numeric_limits<float>::infinity();
  float lo = f;
  float hi = f;
  if (static_cast<double>(f) > d) {
    lo = std::nextafter(f, -inf);
  } else {
    hi = std::nextafter(f, inf);
  }
  return Gap(true, OrderedFromFloat(lo), true, OrderedFromFloat(hi));
}

}  // namespace

int CompareStoredKey(const KeySpec& spec, std::string_view stored, const LookupKey& key) {
  if (spec.kind == KeyKind::kString) return java::BinaryStringCompareTo(stored, key.bytes);
  const uint64_t v = DecodeOrdered(spec.kind, reinterpret_cast<const uint8_t*>(stored.data()));
  return (v > key.ordered) - (v < key.ordered);
}

Result<Probe> MakeProbe(const KeySpec& spec, const DataType& type, const Literal& literal) {
  const Literal::Kind expected = ExpectedKind(spec);
  if (literal.kind() != expected) {
    return Status::InvalidArgument("range-bitmap: " + literal.Describe() +
                                   " cannot be compared with a column of type " +
                                   type.ToString() + " (it takes " +
                                   Literal::KindName(expected) + " literals)");
  }
  switch (spec.kind) {
    case KeyKind::kString: {
      Probe p;
      p.key.bytes = literal.bytes();
      return p;
    }
    case KeyKind::kBool:
      return Exact(literal.bool_value() ? 1 : 0);
    case KeyKind::kInt8:
      return PlaceInteger(literal.int_value(), false, std::numeric_limits<int8_t>::min(),
                          std::numeric_limits<int8_t>::max());
    case KeyKind::kInt16:
      return PlaceInteger(literal.int_value(), false, std::numeric_limits<int16_t>::min(),
                          std::numeric_limits<int16_t>::max());
    case KeyKind::kInt32:
      return PlaceInteger(literal.int_value(), false, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max());
    case KeyKind::kFloat:
      return PlaceFloat(literal.double_value());
    case KeyKind::kDouble:
      return Exact(OrderedFromDouble(literal.double_value()));
    case KeyKind::kInt64:
      break;
  }
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (spec.decimal) {
    const types::ScaledDecimal scaled =
        types::Rescale(types::UnscaledValue(literal), literal.scale(), spec.decimal_scale);
    return PlaceInteger(scaled.floor, scaled.fraction, kMin, kMax);
  }
  if (spec.timestamp) {
    const int32_t nanos = literal.nano_of_milli();
    if (nanos < 0 || nanos > 999999) {
      return Status::InvalidArgument("range-bitmap: timestamp literal with nano-of-millisecond " +
                                     std::to_string(nanos) + " (must be 0..999999)");
    }
    if (!spec.timestamp_micros) return PlaceInteger(literal.int_value(), nanos != 0, kMin, kMax);
    const Int128 micros = Int128{literal.int_value()} * 1000 + nanos / 1000;
    return PlaceInteger(micros, nanos % 1000 != 0, kMin, kMax);
  }
  return PlaceInteger(literal.int_value(), false, kMin, kMax);
}

}  // namespace pyfileindex::index::range_bitmap
