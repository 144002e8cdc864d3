#include "index/keys/literal_position.h"

#include "types/decimal_scale.h"

namespace pyfileindex::index::keys {

Result<AxisPoint> PointOf(const PhysicalKey& key, const Literal& literal) {
  AxisPoint point;
  if (key.is_decimal()) {
    const types::ScaledDecimal scaled =
        types::Rescale(types::UnscaledValue(literal), literal.scale(), key.scale);
    point.floor = scaled.floor;
    point.fraction = scaled.fraction;
    return point;
  }
  if (!key.is_timestamp()) {
    point.floor = literal.int_value();
    return point;
  }
  const int32_t nanos = literal.nano_of_milli();
  if (nanos < 0 || nanos > 999999) {
    return Status::InvalidArgument("timestamp literal ", literal.ToString(),
                                   ": nano of millisecond must be within 0..999999");
  }
  if (key.micros()) {
    point.floor = Int128{literal.int_value()} * 1000 + nanos / 1000;
    point.fraction = nanos % 1000 != 0;
    point.unit_end = nanos % 1000 == 999;
  } else {
    point.floor = literal.int_value();
    point.fraction = nanos != 0;
    point.unit_end = nanos == 999999;
  }
  return point;
}

float NearestFloat(double d) {
  if (std::isnan(d)) return std::numeric_limits<float>::quiet_NaN();
  const double max_float = static_cast<double>(std::numeric_limits<float>::max());
  if (std::fabs(d) > max_float) {
    // Half an ulp of FLT_MAX (2^103) above it is the rounding midpoint; the tie goes to the
    // even neighbour, which is infinity because FLT_MAX has an odd significand.
    const double midpoint = max_float + std::ldexp(1.0, 103);
    const float magnitude = std::fabs(d) < midpoint ? std::numeric_limits<float>::max()
                                                    : std::numeric_limits<float>::infinity();
    return d < 0 ? -magnitude : magnitude;
  }
  return static_cast<float>(d);
}

FloatPosition PlaceAmongFloats(double d) {
  FloatPosition out;
  const float f = NearestFloat(d);
  out.lo = f;
  out.hi = f;
  if (std::isnan(d) || static_cast<double>(f) == d) return out;  // keeps -0.0 apart
  out.exact = false;
  const float inf = std::numeric_limits<float>::infinity();
  if (static_cast<double>(f) > d) {
    out.lo = std::nextafter(f, -inf);
  } else {
    out.hi = std::nextafter(f, inf);
  }
  return out;
}

}  // namespace pyfileindex::index::keys
