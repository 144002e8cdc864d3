#include "pyfileindex/container_subset.h"

#include <set>

#include "container/container_format.h"

namespace pyfileindex {

Result<ContainerSubset> PlanContainerSubset(const uint8_t* head, size_t head_size,
                                            int64_t container_size,
                                            const std::vector<std::string>& columns) {
  if (head == nullptr || container_size < 0 ||
      static_cast<uint64_t>(head_size) > static_cast<uint64_t>(container_size)) {
    return Status::InvalidArgument("a container subset needs the first bytes of a container (",
                                   head_size, " bytes given of ", container_size, ")");
  }
  PFI_ASSIGN_OR_RETURN(std::vector<container::ColumnEntries> listed,
                       container::ReadContainerColumns(io::ByteSpan(head, head_size),
                                                       container_size));
  const std::set<std::string> wanted(columns.begin(), columns.end());
  std::set<std::string> seen;
  std::vector<container::ColumnLayout> layout;
  ContainerSubset subset;
  int64_t source_end = 0;  // where the last wanted body ended in the source
  for (const container::ColumnEntries& column : listed) {
    // A reader may merge a column listed twice; a subset would have to merge it the same way.
    if (!seen.insert(column.column).second) {
      return Status::NotSupported("column '", column.column,
                                  "' is listed twice in the file index header");
    }
    subset.listed.push_back(column.column);
    if (wanted.count(column.column) == 0 || column.indexes.empty()) continue;
    container::ColumnLayout& kept = layout.emplace_back();
    kept.column = column.column;
    for (const IndexEntry& entry : column.indexes) {
      if (entry.empty()) {
        kept.indexes.emplace_back(entry.index_type, std::nullopt);
        continue;
      }
      // Bodies in header order, each after the last, as every Java writer lays them out:
      // the subset then takes them in the same order, back to back.
      if (entry.offset < source_end) {
        return Status::NotSupported("column '", column.column, "' index '", entry.index_type,
                                    "' lies before or across the body listed ahead of it");
      }
      source_end = entry.offset + entry.length;
      kept.indexes.emplace_back(entry.index_type, static_cast<size_t>(entry.length));
      subset.bodies.push_back({entry.offset, entry.length, 0});
    }
  }
  PFI_ASSIGN_OR_RETURN(subset.head, container::WriteContainerHead(layout));
  int64_t offset = static_cast<int64_t>(subset.head.size());
  for (SubsetBody& body : subset.bodies) {
    body.offset = offset;
    offset += body.length;
  }
  subset.size = offset;
  return subset;
}

}  // namespace pyfileindex
