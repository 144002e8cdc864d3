#include "index/index_type.h"

#include "memory/return_pages.h"

namespace pyfileindex::index {

void ColumnIndexWriter::SerializeTo(uint8_t* out) {
  memory::MoveOutInPieces(out, prepared_.data(), prepared_.size());
  prepared_ = std::vector<uint8_t>();
}

}  // namespace pyfileindex::index
