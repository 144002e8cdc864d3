// Paimon type strings, as a table's schema file spells them: parsed or refused with
// InvalidArgument; a parsed type prints as a string that parses back to the same type.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "pyfileindex/data_type.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pyfileindex;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Result<DataType> parsed = ParseDataType(text);
  if (!parsed.ok()) {
    if (parsed.status().code() != StatusCode::kInvalidArgument) {
      std::fprintf(stderr, "ParseDataType: %s\n", parsed.status().ToString().c_str());
      std::abort();
    }
    return 0;
  }
  const std::string printed = parsed->ToString();
  const Result<DataType> again = ParseDataType(printed);
  if (!again.ok() || *again != *parsed) {
    std::fprintf(stderr, "ParseDataType: '%s' prints as '%s', which does not parse back\n",
                 std::string(text).c_str(), printed.c_str());
    std::abort();
  }
  return 0;
}
