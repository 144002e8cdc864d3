#include "java/java_text.h"

#include <cstdint>

#include "io/utf8.h"

namespace pyfileindex::java {

std::string_view Trim(std::string_view text) {
  auto blank = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    pieces.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (pieces.size() == 1) return pieces;  // no separator: the text itself, even when empty
  while (!pieces.empty() && pieces.back().empty()) pieces.pop_back();
  return pieces;
}

bool IsWhitespace(char32_t c) {
  if ((c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20)) return true;
  if (c < 0x1680) return false;
  return c == 0x1680 || (c >= 0x2000 && c <= 0x200A && c != 0x2007) || c == 0x2028 ||
         c == 0x2029 || c == 0x205F || c == 0x3000;
}

bool IsWhitespaceOnly(std::string_view utf8) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(utf8.data());
  size_t pos = 0;
  while (pos < utf8.size()) {
    uint32_t code_point = 0;
    if (!io::DecodeUtf8CodePoint(bytes, utf8.size(), &pos, &code_point)) return false;
    if (!IsWhitespace(code_point)) return false;
  }
  return true;
}

}  // namespace pyfileindex::java
