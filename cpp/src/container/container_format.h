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

// One column's payloads, in the order they go into the container. A payload of std::nullopt is
// an empty index (start -1, length 0): a map-key writer that never saw a record.
struct ColumnPayloads {
  std::string column;
  std::vector<std::pair<std::string, std::optional<std::vector<uint8_t>>>> indexes;
};

// Serialises the container; `columns` must already be in Java's order.
Result<std::vector<uint8_t>> WriteContainer(const std::vector<ColumnPayloads>& columns);

// Parses and validates the header: magic, version, every (start, length) inside `bytes`.
// Reads nothing past the header.
Result<std::vector<IndexEntry>> ReadContainerHeader(io::ByteSpan bytes);

}  // namespace pyfileindex::container
