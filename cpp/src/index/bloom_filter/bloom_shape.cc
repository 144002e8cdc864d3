#include "index/bloom_filter/bloom_shape.h"

#include <cmath>
#include <limits>
#include <string>

namespace pyfileindex::index::bloom_filter {

int32_t JavaDoubleToInt(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (value <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(value);  // in range: truncation toward zero, as Java
}

int64_t JavaRound(double value) {
  if (std::isnan(value)) return 0;
  // 2^63 is exactly representable; anything at or beyond it saturates like Java.
  if (value >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (value < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  const double floor = std::floor(value);
  // value - floor is exact for doubles, so this is the true "nearest, ties up" rule
  // (floor(value + 0.5) would round 0.49999999999999994 up).
  int64_t result = static_cast<int64_t>(floor);
  if (value - floor >= 0.5) ++result;
  return result;
}

Result<BloomShape> ComputeBloomShape(int32_t items, double fpp) {
  // Java: (int) (-items * Math.log(fpp) / (Math.log(2) * Math.log(2))) with items a long, so the
  // negation happens in 64 bits, then the product is a double divided once by ln2*ln2.
  const double ln2 = std::log(2.0);
  const double scaled = static_cast<double>(-static_cast<int64_t>(items)) * std::log(fpp);
  const int32_t nb = JavaDoubleToInt(scaled / (ln2 * ln2));
  // Java int arithmetic: nb + (8 - nb % 8), always moving past nb, wrapping on overflow.
  const int64_t num_bits = static_cast<int64_t>(nb) + (8 - nb % 8);
  if (num_bits <= 0 || num_bits > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("bloom-filter: items=", items,
                                   " and fpp=", std::to_string(fpp),
                                   " give no usable bit count (Java fails here too); "
                                   "use items > 0 and 0 < fpp < 1");
  }
  BloomShape shape;
  shape.num_bits = static_cast<int32_t>(num_bits);
  // Java: Math.max(1, (int) Math.round((double) numBits / items * Math.log(2))); the int cast
  // of a long keeps its low 32 bits (items = 0 gives round(inf) = Long.MAX_VALUE -> -1 -> 1).
  const int64_t rounded =
      JavaRound(static_cast<double>(shape.num_bits) / static_cast<double>(items) * ln2);
  const int32_t k = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(rounded)));
  shape.num_hash_functions = k > 1 ? k : 1;
  return shape;
}

int32_t MaxJavaHashFunctions() {
  static const int32_t most =
      ComputeBloomShape(1, std::numeric_limits<double>::denorm_min()).ValueOrDie()
          .num_hash_functions;
  return most;
}

}  // namespace pyfileindex::index::bloom_filter
