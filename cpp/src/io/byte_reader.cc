#include "io/byte_reader.h"

#include "io/mutf8.h"

namespace pyfileindex::io {

Status ByteReader::Truncated(size_t need, const char* what) const {
  return Status::Corrupt("truncated: need ", need, " bytes for ", what,
                         " at offset ", base_offset_ + pos_, ", ",
                         remaining(), " left");
}

Status ByteReader::BadLength(int32_t length, const char* what) const {
  // The cursor is already past the 4-byte length field.
  const size_t field_offset = base_offset_ + pos_ - 4;
  if (length < 0) {
    return Status::Corrupt("negative length ", length, " for ", what,
                           " at offset ", field_offset);
  }
  return Status::Corrupt("length ", length, " for ", what, " at offset ",
                         field_offset, " exceeds the ",
                         remaining(), " bytes left");
}

Status ByteReader::Seek(size_t pos, const char* what) {
  if (pos > size_) {
    return Status::Corrupt(what, " ", base_offset_ + pos,
                           " is beyond the end of the data (offset ",
                           base_offset_ + size_, ")");
  }
  pos_ = pos;
  return Status::OK();
}

Result<std::string> ByteReader::ReadUTF(const char* what) {
  const size_t start = base_offset_ + pos_;
  PFI_ASSIGN_OR_RETURN(uint16_t length, ReadU16BE(what));
  PFI_ASSIGN_OR_RETURN(ByteSpan bytes, ReadBytes(length, what));
  Result<std::string> text = DecodeModifiedUtf8(bytes);
  if (!text.ok()) {
    return text.status().WithContext(what, " at offset ", start);
  }
  return text;
}

}  // namespace pyfileindex::io
