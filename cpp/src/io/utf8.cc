#include "io/utf8.h"

#include <string>

namespace pyfileindex::io {

Status ValidateUtf8(std::string_view text, const char* what) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t pos = AsciiPrefixLength(s, n);
  while (pos < n) {
    uint32_t cp;
    if (!DecodeUtf8CodePoint(s, n, &pos, &cp)) {
      return Status::InvalidArgument(what, " is not valid UTF-8 (bad byte 0x",
                                     "0123456789abcdef"[s[pos] >> 4],
                                     "0123456789abcdef"[s[pos] & 15], " at byte offset ",
                                     pos, ")");
    }
  }
  return Status::OK();
}

}  // namespace pyfileindex::io
