// Strict standard UTF-8 decoding, the ground truth for converting text to Java's UTF-16 view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pyfileindex/status.h"

namespace pyfileindex::io {

// Decodes the code point starting at s[*pos] (requires *pos < n). On success stores it in *cp,
// advances *pos past it and returns true. Rejects what RFC 3629 forbids: stray continuation
// bytes, truncated sequences, overlong forms, surrogates (U+D800..U+DFFF) and values > U+10FFFF.
// On failure *pos is left unchanged.
inline bool DecodeUtf8CodePoint(const uint8_t* s, size_t n, size_t* pos, uint32_t* cp) {
  size_t i = *pos;
  uint32_t b0 = s[i];
  if (b0 < 0x80) {
    *cp = b0;
    *pos = i + 1;
    return true;
  }
  size_t len;
  uint32_t min;
  uint32_t value;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, min = 0x80, value = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, min = 0x800, value = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, min = 0x10000, value = b0 & 0x07;
  } else {
    return false;  // continuation byte or 0xF8..0xFF as a lead byte
  }
  if (n - i < len) return false;
  for (size_t k = 1; k < len; ++k) {
    uint32_t b = s[i + k];
    if ((b & 0xC0) != 0x80) return false;
    value = (value << 6) | (b & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
  *cp = value;
  *pos = i + len;
  return true;
}

// OK if `text` is well-formed UTF-8; otherwise InvalidArgument naming `what` and the byte offset.
Status ValidateUtf8(std::string_view text, const char* what);

// Number of leading bytes of `text` that are 7-bit ASCII (fast path for the common case).
inline size_t AsciiPrefixLength(const uint8_t* s, size_t n) {
  size_t i = 0;
  // Eight bytes at a time: any byte with the top bit set ends the prefix.
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    __builtin_memcpy(&word, s + i, 8);
    if (word & 0x8080808080808080ULL) break;
  }
  while (i < n && s[i] < 0x80) ++i;
  return i;
}

}  // namespace pyfileindex::io

namespace pyfileindex::io {

// Calls unit(uint16_t) for each UTF-16 code unit of the UTF-8 text, i.e. the chars of the Java
// String with the same content. Returns false (after visiting the valid prefix) at the first
// invalid byte, storing its offset in *bad_offset if given.
template <typename UnitFn>
inline bool ForEachUtf16Unit(std::string_view utf8, UnitFn&& unit, size_t* bad_offset = nullptr) {
  const auto* s = reinterpret_cast<const uint8_t*>(utf8.data());
  const size_t n = utf8.size();
  size_t pos = 0;
  while (pos < n) {
    if (s[pos] < 0x80) {
      unit(static_cast<uint16_t>(s[pos++]));
      continue;
    }
    uint32_t cp;
    if (!DecodeUtf8CodePoint(s, n, &pos, &cp)) {
      if (bad_offset != nullptr) *bad_offset = pos;
      return false;
    }
    if (cp < 0x10000) {
      unit(static_cast<uint16_t>(cp));
    } else {
      cp -= 0x10000;
      unit(static_cast<uint16_t>(0xD800 | (cp >> 10)));
      unit(static_cast<uint16_t>(0xDC00 | (cp & 0x3FF)));
    }
  }
  return true;
}

}  // namespace pyfileindex::io
