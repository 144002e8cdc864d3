#include "container/container_format.h"

#include <limits>

#include "io/byte_reader.h"
#include "io/byte_writer.h"
#include "io/mutf8.h"

namespace pyfileindex::container {

Result<std::vector<uint8_t>> WriteContainerHead(const std::vector<ColumnLayout>& columns) {
  // Head length first: every start position in the header is absolute.
  int64_t head_length = 8 + 4 + 4 + 4 + 4;  // magic, version, head length, columns, redundant
  int64_t body_length = 0;
  for (const ColumnLayout& column : columns) {
    PFI_ASSIGN_OR_RETURN(size_t name_bytes, io::ModifiedUtf8Length(column.column));
    head_length += 2 + static_cast<int64_t>(name_bytes) + 4;
    for (const auto& [type, size] : column.indexes) {
      PFI_ASSIGN_OR_RETURN(size_t type_bytes, io::ModifiedUtf8Length(type));
      head_length += 2 + static_cast<int64_t>(type_bytes) + 8;
      if (size) body_length += static_cast<int64_t>(*size);
    }
  }
  if (head_length + body_length > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("file index of ", head_length + body_length,
                                   " bytes exceeds the container's 2 GiB limit");
  }

  io::ByteWriter out;
  out.Reserve(static_cast<size_t>(head_length));
  out.WriteI64BE(kMagic);
  out.WriteI32BE(kVersion);
  out.WriteI32BE(static_cast<int32_t>(head_length));
  out.WriteI32BE(static_cast<int32_t>(columns.size()));
  int64_t position = head_length;
  for (const ColumnLayout& column : columns) {
    PFI_RETURN_NOT_OK(out.WriteUTF(column.column));
    out.WriteI32BE(static_cast<int32_t>(column.indexes.size()));
    for (const auto& [type, size] : column.indexes) {
      PFI_RETURN_NOT_OK(out.WriteUTF(type));
      if (size) {
        out.WriteI32BE(static_cast<int32_t>(position));
        out.WriteI32BE(static_cast<int32_t>(*size));
        position += static_cast<int64_t>(*size);
      } else {
        out.WriteI32BE(kEmptyIndexFlag);
        out.WriteI32BE(0);
      }
    }
  }
  out.WriteI32BE(0);  // redundant length: nothing extra in version 1
  return out.Take();
}

Result<std::vector<ColumnEntries>> ReadContainerColumns(io::ByteSpan bytes,
                                                        int64_t container_size) {
  io::ByteReader in(bytes);
  PFI_ASSIGN_OR_RETURN(int64_t magic, in.ReadI64BE("file index magic"));
  if (magic != kMagic) {
    return Status::Corrupt("not a Paimon file index: bad magic number ", magic);
  }
  PFI_ASSIGN_OR_RETURN(int32_t version, in.ReadI32BE("file index version"));
  if (version != kVersion) {
    return Status::NotSupported("file index version ", version,
                                " is not supported (only version 1)");
  }
  PFI_ASSIGN_OR_RETURN(int32_t head_length, in.ReadI32BE("file index head length"));
  if (head_length < 16 || static_cast<size_t>(head_length) > bytes.size()) {
    return Status::Corrupt("file index head length ", head_length,
                           " does not fit the ", bytes.size(), " bytes given");
  }
  // The rest of the head only: a future writer may append redundant bytes we skip.
  io::ByteReader head(bytes.data(), static_cast<size_t>(head_length), 0);
  PFI_RETURN_NOT_OK(head.Seek(16));
  PFI_ASSIGN_OR_RETURN(int32_t column_count, head.ReadI32BE("column count"));
  if (column_count < 0 || static_cast<size_t>(column_count) > head.remaining() / 6) {
    return Status::Corrupt("file index column count ", column_count,
                           " does not fit its head");
  }
  std::vector<ColumnEntries> columns;
  columns.reserve(static_cast<size_t>(column_count));
  for (int32_t c = 0; c < column_count; ++c) {
    PFI_ASSIGN_OR_RETURN(std::string column, head.ReadUTF("column name"));
    std::vector<IndexEntry>& entries = columns.emplace_back(ColumnEntries{column, {}}).indexes;
    PFI_ASSIGN_OR_RETURN(int32_t index_count, head.ReadI32BE("index count"));
    if (index_count < 0 || static_cast<size_t>(index_count) > head.remaining() / 10) {
      return Status::Corrupt("column '", column, "': index count ",
                             index_count, " does not fit the head");
    }
    for (int32_t i = 0; i < index_count; ++i) {
      IndexEntry entry;
      entry.column = column;
      PFI_ASSIGN_OR_RETURN(entry.index_type, head.ReadUTF("index type"));
      PFI_ASSIGN_OR_RETURN(int32_t start, head.ReadI32BE("index start"));
      PFI_ASSIGN_OR_RETURN(int32_t length, head.ReadI32BE("index length"));
      if (start == kEmptyIndexFlag) {
        entry.offset = -1;
        entry.length = 0;
      } else if (start < head_length || length < 0 ||
                 static_cast<int64_t>(start) + length > container_size) {
        return Status::Corrupt("column '", column, "' index '", entry.index_type,
                               "': byte range [", start, ", +",
                               length, ") lies outside the ",
                               container_size, "-byte file index");
      } else {
        entry.offset = start;
        entry.length = length;
      }
      entries.push_back(std::move(entry));
    }
  }
  return columns;
}

Result<std::vector<IndexEntry>> ReadContainerHeader(io::ByteSpan bytes) {
  PFI_ASSIGN_OR_RETURN(std::vector<ColumnEntries> columns,
                       ReadContainerColumns(bytes, static_cast<int64_t>(bytes.size())));
  std::vector<IndexEntry> entries;
  for (ColumnEntries& column : columns) {
    for (IndexEntry& entry : column.indexes) entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace pyfileindex::container
