#include "io/mutf8.h"

#include <algorithm>

#include "io/utf8.h"

namespace pyfileindex::io {

namespace {

Status InvalidUtf8(const uint8_t* s, size_t pos) {
  static const char kHex[] = "0123456789abcdef";
  return Status::InvalidArgument("string is not valid UTF-8 (bad byte 0x", kHex[s[pos] >> 4],
                                 kHex[s[pos] & 15], " at byte offset ", pos, ")");
}

// Encoded size of one code point from valid standard UTF-8.
inline size_t ModifiedSize(uint32_t cp) {
  if (cp == 0) return 2;
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 6;  // surrogate pair, 3 bytes per half
}

inline uint8_t* PutThreeByteUnit(uint8_t* p, uint32_t unit) {
  p[0] = static_cast<uint8_t>(0xE0 | (unit >> 12));
  p[1] = static_cast<uint8_t>(0x80 | ((unit >> 6) & 0x3F));
  p[2] = static_cast<uint8_t>(0x80 | (unit & 0x3F));
  return p + 3;
}

inline uint8_t* PutModified(uint8_t* p, uint32_t cp) {
  if (cp == 0) {
    p[0] = 0xC0;
    p[1] = 0x80;
    return p + 2;
  }
  if (cp < 0x80) {
    *p = static_cast<uint8_t>(cp);
    return p + 1;
  }
  if (cp < 0x800) {
    p[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    p[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return p + 2;
  }
  if (cp < 0x10000) return PutThreeByteUnit(p, cp);
  uint32_t v = cp - 0x10000;
  p = PutThreeByteUnit(p, 0xD800 | (v >> 10));
  return PutThreeByteUnit(p, 0xDC00 | (v & 0x3FF));
}

inline void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Status Malformed(const char* why, size_t pos) {
  return Status::Corrupt("malformed modified UTF-8: ", why, " at byte offset ",
                         pos);
}

}  // namespace

Result<size_t> ModifiedUtf8Length(std::string_view utf8) {
  const auto* s = reinterpret_cast<const uint8_t*>(utf8.data());
  const size_t n = utf8.size();
  size_t pos = AsciiPrefixLength(s, n);
  size_t total = pos;
  // The ASCII prefix may contain NUL bytes, which take two bytes each.
  for (size_t i = 0; i < pos; ++i) total += (s[i] == 0);
  while (pos < n) {
    uint32_t cp;
    size_t start = pos;
    if (!DecodeUtf8CodePoint(s, n, &pos, &cp)) return InvalidUtf8(s, start);
    total += ModifiedSize(cp);
  }
  return total;
}

Status AppendModifiedUtf8(std::string_view utf8, std::vector<uint8_t>* out) {
  PFI_ASSIGN_OR_RETURN(size_t encoded_size, ModifiedUtf8Length(utf8));
  const auto* s = reinterpret_cast<const uint8_t*>(utf8.data());
  const size_t n = utf8.size();
  const size_t old_size = out->size();
  out->resize(old_size + encoded_size);
  uint8_t* p = out->data() + old_size;
  if (encoded_size == n) {
    // Only ASCII without NUL encodes to the same length: copy verbatim.
    std::copy(s, s + n, p);
    return Status::OK();
  }
  size_t pos = 0;
  while (pos < n) {
    uint32_t cp = 0;
    DecodeUtf8CodePoint(s, n, &pos, &cp);  // validated by ModifiedUtf8Length
    p = PutModified(p, cp);
  }
  return Status::OK();
}

Result<std::vector<uint8_t>> EncodeModifiedUtf8(std::string_view utf8) {
  std::vector<uint8_t> out;
  PFI_RETURN_NOT_OK(AppendModifiedUtf8(utf8, &out));
  return out;
}

Result<std::string> DecodeModifiedUtf8(ByteSpan bytes) {
  const uint8_t* s = bytes.data();
  const size_t n = bytes.size();
  std::string out;
  out.reserve(n);
  size_t ascii = AsciiPrefixLength(s, n);
  out.append(reinterpret_cast<const char*>(s), ascii);
  uint32_t pending_high = 0;  // an unmatched high surrogate awaiting its low half
  size_t pending_pos = 0;
  size_t pos = ascii;
  while (pos < n) {
    const size_t start = pos;
    const uint32_t b0 = s[pos];
    uint32_t unit;
    if (b0 < 0x80) {
      unit = b0;
      pos += 1;
    } else if ((b0 & 0xE0) == 0xC0) {
      if (n - pos < 2) return Malformed("partial character at end", start);
      if ((s[pos + 1] & 0xC0) != 0x80) return Malformed("bad continuation byte", start + 1);
      unit = ((b0 & 0x1F) << 6) | (s[pos + 1] & 0x3F);
      pos += 2;
    } else if ((b0 & 0xF0) == 0xE0) {
      if (n - pos < 3) return Malformed("partial character at end", start);
      if ((s[pos + 1] & 0xC0) != 0x80) return Malformed("bad continuation byte", start + 1);
      if ((s[pos + 2] & 0xC0) != 0x80) return Malformed("bad continuation byte", start + 2);
      unit = ((b0 & 0x0F) << 12) | ((s[pos + 1] & 0x3F) << 6) | (s[pos + 2] & 0x3F);
      pos += 3;
    } else {
      // 10xxxxxx and 1111xxxx never start a character in modified UTF-8.
      return Malformed("bad lead byte", start);
    }

    if (pending_high != 0) {
      if (unit < 0xDC00 || unit > 0xDFFF) {
        return Status::NotSupported("modified UTF-8 holds an unpaired high surrogate at byte offset ",
                                    pending_pos,
                                    "; it has no standard UTF-8 form");
      }
      AppendUtf8(&out, 0x10000 + ((pending_high - 0xD800) << 10) + (unit - 0xDC00));
      pending_high = 0;
      continue;
    }
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      pending_high = unit;
      pending_pos = start;
      continue;
    }
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
      return Status::NotSupported("modified UTF-8 holds an unpaired low surrogate at byte offset ",
                                  start, "; it has no standard UTF-8 form");
    }
    AppendUtf8(&out, unit);
  }
  if (pending_high != 0) {
    return Status::NotSupported("modified UTF-8 holds an unpaired high surrogate at byte offset ",
                                pending_pos, "; it has no standard UTF-8 form");
  }
  return out;
}

}  // namespace pyfileindex::io
