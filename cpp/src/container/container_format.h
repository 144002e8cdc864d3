// The file-index container (Paimon's FileIndexFormat): one per data file, holding every index
// payload of every indexed column behind a header of byte ranges.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/byte_span.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/status.h"

namespace pyfileindex::container {

constexpr int64_t kMagic = 1493475289347502LL;
constexpr int32_t kVersion = 1;
constexpr int32_t kEmptyIndexFlag = -1;

// One column's indexes and their payload sizes, in the order they go into the container. A
// size of std::nullopt is an empty index (start -1, length 0): a map-key writer that never saw
// a record.
struct ColumnLayout {
  std::string column;
  std::vector<std::pair<std::string, std::optional<size_t>>> indexes;
};

// The container's header for payloads of these sizes, which follow it back to back in the
// same order; `columns` must already be in Java's order. Fails when the whole container would
// pass the format's 2 GiB limit.
Result<std::vector<uint8_t>> WriteContainerHead(const std::vector<ColumnLayout>& columns);

// One column's records of a header, in header order.
struct ColumnEntries {
  std::string column;
  std::vector<IndexEntry> indexes;
};

// Parses and validates the header of a container of `container_size` bytes whose first bytes
// are `head` (at least the header): magic, version, every (start, length) inside the
// container. Reads nothing past the header. Columns come as the header lists them, a name
// listed twice included.
Result<std::vector<ColumnEntries>> ReadContainerColumns(io::ByteSpan head,
                                                        int64_t container_size);

// The records of the header of the container `bytes`, in header order.
Result<std::vector<IndexEntry>> ReadContainerHeader(io::ByteSpan bytes);

}  // namespace pyfileindex::container
