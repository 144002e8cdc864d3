// java.lang.String operations whose exact rules decide what an option means: Paimon reads
// `file-index.<type>.columns` with String.split(",") and String.trim(), and rejects names that
// StringUtils.isNullOrWhitespaceOnly calls blank. Text is UTF-8; no locale is consulted.
#pragma once

#include <string_view>
#include <vector>

namespace pyfileindex::java {

// String.trim: drops leading and trailing characters <= ' ' (U+0000..U+0020). In UTF-8 those are
// exactly the bytes <= 0x20, so no decoding is needed.
std::string_view Trim(std::string_view text);

// String.split(String.valueOf(separator)) for a separator that is not a regex metacharacter:
// the pieces between separators, with trailing empty pieces removed. Text without the
// separator (including "") is one piece.
std::vector<std::string_view> Split(std::string_view text, char separator);

// Character.isWhitespace of one code point: Unicode space separators other than the no-break
// spaces (U+00A0, U+2007, U+202F), the line and paragraph separators, U+0009..U+000D and
// U+001C..U+001F.
bool IsWhitespace(char32_t code_point);

// StringUtils.isNullOrWhitespaceOnly: empty, or every character is whitespace. `utf8` must be
// valid UTF-8; a malformed sequence counts as a character that is not whitespace.
bool IsWhitespaceOnly(std::string_view utf8);

}  // namespace pyfileindex::java
