// One range-bitmap index payload, opened through the public reader (wrapped in a one-index container)
// and asked every predicate and a TopN, on a column type and with literals the input picks.
#include <cstddef>
#include <cstdint>

#include "target_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return pyfileindex::fuzz::RunIndexTarget("range-bitmap", data, size);
}
