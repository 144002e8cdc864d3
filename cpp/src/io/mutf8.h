// Java "modified UTF-8" (DataOutput.writeUTF / DataInput.readUTF) <-> standard UTF-8.
//
// Java encodes each UTF-16 code unit separately: U+0000 becomes C0 80, U+0001..U+007F one byte,
// U+0080..U+07FF two bytes, U+0800..U+FFFF three bytes -- including each half of a surrogate
// pair, so a supplementary character takes 6 bytes (CESU-8 style). Paimon writes column and
// index-type names this way in the file-index container.
//
// The C++ side holds text as standard UTF-8. Encoding rejects invalid UTF-8 (names must be
// real text; Java would have replaced bad bytes with U+FFFD when building the String).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_span.h"
#include "pyfileindex/status.h"

namespace pyfileindex::io {

// Bytes of the modified UTF-8 encoding of `utf8` (without writeUTF's 2-byte length prefix).
// InvalidArgument if `utf8` is not valid UTF-8.
Result<size_t> ModifiedUtf8Length(std::string_view utf8);

// Appends the modified UTF-8 encoding of `utf8` to *out (no length prefix). On error *out is
// left unchanged.
Status AppendModifiedUtf8(std::string_view utf8, std::vector<uint8_t>* out);

// Encodes into a fresh vector (no length prefix).
Result<std::vector<uint8_t>> EncodeModifiedUtf8(std::string_view utf8);

// Decodes modified UTF-8 bytes (no length prefix) into standard UTF-8, accepting exactly what
// Java's readUTF accepts (including raw 0x00 and overlong 2/3-byte forms such as C0 80).
// Corrupt on input readUTF rejects (bad lead byte, bad or missing continuation byte);
// NotSupported for an unpaired surrogate, which a Java String can hold but UTF-8 cannot.
// Error messages give the byte offset within `bytes`.
Result<std::string> DecodeModifiedUtf8(ByteSpan bytes);

}  // namespace pyfileindex::io
