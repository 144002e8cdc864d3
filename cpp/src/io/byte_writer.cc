#include "io/byte_writer.h"

#include <string>

#include "io/mutf8.h"

namespace pyfileindex::io {

Status ByteWriter::WriteUTF(std::string_view utf8) {
  PFI_ASSIGN_OR_RETURN(size_t encoded_size, ModifiedUtf8Length(utf8));
  if (encoded_size > 65535) {
    return Status::InvalidArgument("string too long for writeUTF: encodes to ",
                                   encoded_size,
                                   " bytes of modified UTF-8, at most 65535 allowed");
  }
  WriteU16BE(static_cast<uint16_t>(encoded_size));
  return AppendModifiedUtf8(utf8, &buf_);
}

}  // namespace pyfileindex::io
