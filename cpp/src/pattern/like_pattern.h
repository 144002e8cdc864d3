// SQL LIKE patterns over UTF-8 values: `%` matches any run of code points (also none), `_`
// exactly one code point, and an escape character (when given) makes the `%`, `_` or escape
// character after it literal. StartsWith / EndsWith / Contains build the patterns of those
// string functions without any escaping.
//
// Index readers answer a pattern from a dictionary of the column's values: every value a
// pattern matches starts with its literal prefix (the text before the first wildcard), and
// UTF-8 byte order keeps the values of one prefix together, so a sorted dictionary only needs
// the run of that prefix.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pyfileindex/status.h"

namespace pyfileindex::pattern {

class LikePattern {
 public:
  // `pattern` and `escape` are UTF-8 (InvalidArgument otherwise). `escape`, when given, is one
  // code point; in the pattern it must be followed by `%`, `_` or itself (InvalidArgument
  // otherwise, also for an escape at the very end).
  static Result<LikePattern> Compile(std::string_view pattern,
                                     std::optional<std::string_view> escape = std::nullopt);
  // Values starting with / ending with / containing `text` (taken literally).
  static LikePattern StartsWith(std::string_view text);
  static LikePattern EndsWith(std::string_view text);
  static LikePattern Contains(std::string_view text);

  // Whether `value` (UTF-8; a stray byte counts as one code point) matches.
  bool Matches(std::string_view value) const;

  // The literal text every match starts with (empty when the pattern starts with a wildcard).
  const std::string& literal_prefix() const { return literal_prefix_; }
  // The pattern is its literal prefix followed by one or more `%` only: every value with that
  // prefix matches, so a sorted dictionary's run of the prefix is the answer, unfiltered.
  bool prefix_only() const { return prefix_only_; }

 private:
  enum class Kind : uint8_t { kText, kOne, kAny };
  struct Element {
    Kind kind;
    std::string text;  // kText only
  };

  explicit LikePattern(std::vector<Element> elements);

  std::vector<Element> elements_;  // no two kText in a row, no two kAny in a row
  std::string literal_prefix_;
  bool prefix_only_ = false;
};

// Bytes of the code point that starts at `s[0]` (1 for a stray, truncated or malformed lead
// byte, so that invalid UTF-8 in a value still advances one byte at a time); `n` >= 1.
inline size_t CodePointBytes(const char* s, size_t n) {
  const auto lead = static_cast<unsigned char>(s[0]);
  size_t length = 1;
  if (lead >= 0xC0 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
  } else if (lead >= 0xF0 && lead <= 0xF7) {
    length = 4;
  }
  if (length > n) return 1;
  for (size_t i = 1; i < length; ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return 1;
  }
  return length;
}

}  // namespace pyfileindex::pattern
