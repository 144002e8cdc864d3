/// @file
/// Reading part of a file-index container. A query on a few columns needs the container's
/// header and the bodies of those columns' indexes only: on an object store, a reader fetches
/// the header, plans the subset here, fetches just those byte ranges and opens them as a
/// container of their own, which answers those columns exactly as the whole one would.
///
///   auto plan = PlanContainerSubset(head.data(), head.size(), file_size, {"id"});
///   std::vector<uint8_t> subset(plan->size);
///   std::copy(plan->head.begin(), plan->head.end(), subset.begin());
///   for (const SubsetBody& body : plan->bodies)  // fetch [source_offset, +length)
///     Fetch(body.source_offset, body.length, subset.data() + body.offset);
///   auto reader = FileIndexReader::Open(subset.data(), subset.size(), fields);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pyfileindex/export.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// One index body of the subset: `length` bytes from `source_offset` of the whole container
/// go to `offset` of the subset.
struct SubsetBody {
  int64_t source_offset = 0;
  int64_t length = 0;
  int64_t offset = 0;
};

/// A container holding the indexes of some columns of another.
struct ContainerSubset {
  std::vector<uint8_t> head;       ///< the subset's header: its first bytes
  std::vector<SubsetBody> bodies;  ///< in source order; adjacent in the source, adjacent here
  int64_t size = 0;                ///< the subset's bytes, header and bodies
  std::vector<std::string> listed;  ///< every column the whole container's header lists
};

/// Lays out the subset of the container of `container_size` bytes whose first `head_size`
/// bytes (at least its header: the head length stored at byte 12) are at `head`, holding every
/// index of the columns named in `columns` ("m[k]" for a map key), each column's indexes in
/// header order. A column without indexes, or not in the container, is left out.
/// Errors: Corrupt or NotSupported when the header is damaged or of another version, as
/// FileIndexReader::Open reports it; NotSupported when it cannot be cut down, although a reader
/// may accept it whole (a column listed twice, bodies out of header order or sharing bytes):
/// read the whole container then.
PYFILEINDEX_EXPORT Result<ContainerSubset> PlanContainerSubset(
    const uint8_t* head, size_t head_size, int64_t container_size,
    const std::vector<std::string>& columns);

}  // namespace pyfileindex
