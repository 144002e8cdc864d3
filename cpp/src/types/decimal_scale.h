// DECIMAL literals on an index's key axis: a literal's unscaled value re-expressed at the
// column's scale, shared by the index types that key decimals by their unscaled value.
#pragma once

#include <cstdint>

#include "pyfileindex/literal.h"

namespace pyfileindex::types {

using Int128 = __int128;

// The unscaled value of a kDecimal literal.
Int128 UnscaledValue(const Literal& decimal);

// unscaled * 10^-from_scale in units of 10^-to_scale: the floor, and whether a fraction is
// left over. A magnitude of 10^38 or more is clamped to +-10^38: beyond every DECIMAL(38)
// unscaled value (and every long key), so comparisons with stored keys keep their outcome.
struct ScaledDecimal {
  Int128 floor = 0;
  bool fraction = false;
};
ScaledDecimal Rescale(Int128 unscaled, int32_t from_scale, int32_t to_scale);

}  // namespace pyfileindex::types
