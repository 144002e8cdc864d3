#include "java/hash_codes.h"

#include <string>

#include "io/utf8.h"

namespace pyfileindex::java {

Result<int32_t> StringHashCode(std::string_view utf8) {
  uint32_t h = 0;  // unsigned: Java's int overflow wraps
  size_t bad_offset = 0;
  if (!io::ForEachUtf16Unit(utf8, [&h](uint16_t unit) { h = 31 * h + unit; }, &bad_offset)) {
    return Status::InvalidArgument("string is not valid UTF-8 (bad byte at offset ",
                                   bad_offset, ")");
  }
  return static_cast<int32_t>(h);
}

namespace {

// Position of a code point in UTF-16 code unit order: U+0000..U+D7FF, then supplementary
// characters (their high surrogate D800..DBFF comes first), then U+E000..U+FFFF.
inline uint32_t Utf16Rank(uint32_t cp) {
  if (cp < 0xD800) return cp;
  if (cp >= 0x10000) return 0xD800 + (cp - 0x10000);  // up to 0x10D7FF
  return cp + 0x100000;                              // U+E000.. -> 0x10E000..
}

}  // namespace

int StringCompareTo(std::string_view a, std::string_view b) {
  const auto* pa = reinterpret_cast<const uint8_t*>(a.data());
  const auto* pb = reinterpret_cast<const uint8_t*>(b.data());
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  while (i < common && pa[i] == pb[i]) ++i;
  if (i == common) {
    // One is a byte prefix of the other; for valid UTF-8 it is a code unit prefix too.
    return (a.size() > b.size()) - (a.size() < b.size());
  }
  // Both share the bytes before i, so the differing character starts at the same place in both.
  while (i > 0 && (pa[i] & 0xC0) == 0x80) --i;
  uint32_t ca = 0xFFFD;
  uint32_t cb = 0xFFFD;
  size_t ia = i;
  size_t ib = i;
  io::DecodeUtf8CodePoint(pa, a.size(), &ia, &ca);
  io::DecodeUtf8CodePoint(pb, b.size(), &ib, &cb);
  const uint32_t ra = Utf16Rank(ca);
  const uint32_t rb = Utf16Rank(cb);
  if (ra != rb) return ra < rb ? -1 : 1;
  // Only reachable for invalid input: fall back to byte order to stay deterministic.
  size_t j = i;
  while (j < common && pa[j] == pb[j]) ++j;
  if (j == common) return (a.size() > b.size()) - (a.size() < b.size());
  return pa[j] < pb[j] ? -1 : 1;
}

}  // namespace pyfileindex::java
