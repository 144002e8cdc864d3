#include "types/decimal_scale.h"

namespace pyfileindex::types {
namespace {

constexpr int kMaxDigits = 38;

constexpr Int128 Pow10(int exponent) {  // exponent in [0, 38]
  Int128 value = 1;
  for (int i = 0; i < exponent; ++i) value *= 10;
  return value;
}

constexpr Int128 kBeyond = Pow10(kMaxDigits);

}  // namespace

Int128 UnscaledValue(const Literal& decimal) {
  const auto high = static_cast<unsigned __int128>(static_cast<uint64_t>(decimal.unscaled_high()));
  return static_cast<Int128>((high << 64) | decimal.unscaled_low());
}

ScaledDecimal Rescale(Int128 unscaled, int32_t from_scale, int32_t to_scale) {
  ScaledDecimal result;
  const int64_t shift = int64_t{to_scale} - from_scale;
  if (shift >= 0) {
    Int128 value = unscaled;
    for (int64_t i = 0; i < shift && value != 0; ++i) {
      if (value >= kBeyond / 10 || value <= -kBeyond / 10) {  // * 10 reaches 10^38
        result.floor = value > 0 ? kBeyond : -kBeyond;
        return result;
      }
      value *= 10;
    }
    result.floor = value;
    return result;
  }
  if (-shift > kMaxDigits) {
    // 10^39 > 2^127 > |unscaled|: the quotient is 0 or -1.
    result.floor = unscaled < 0 ? -1 : 0;
    result.fraction = unscaled != 0;
    return result;
  }
  const Int128 divisor = Pow10(static_cast<int>(-shift));
  Int128 quotient = unscaled / divisor;
  const Int128 remainder = unscaled % divisor;
  if (remainder != 0) {
    result.fraction = true;
    if (unscaled < 0) quotient -= 1;  // floor, not truncation
  }
  result.floor = quotient;
  return result;
}

}  // namespace pyfileindex::types
