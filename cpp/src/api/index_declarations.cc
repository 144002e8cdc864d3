// DeclaredIndexes: the index plan FileIndexWriter::Make follows, described for a caller that
// prepares the write.
#include "pyfileindex/index_declarations.h"

#include "api/boundary.h"
#include "api/row_type.h"
#include "container/index_plan.h"

namespace pyfileindex {

Result<std::vector<IndexDeclaration>> DeclaredIndexes(const std::vector<Field>& fields,
                                                      const Options& table_options) {
  return api::CatchAll("DeclaredIndexes", [&]() -> Result<std::vector<IndexDeclaration>> {
    PFI_RETURN_NOT_OK(api::CheckUniqueNames(fields));
    PFI_ASSIGN_OR_RETURN(container::IndexPlan plan, container::PlanIndexes(fields, table_options));
    std::vector<IndexDeclaration> declared;
    declared.reserve(plan.indexes.size());
    for (const auto& [column, positions] : plan.layout) {
      for (size_t position : positions) {
        const container::PlannedIndex& planned = plan.indexes[position];
        IndexDeclaration declaration;
        declaration.column = column;
        declaration.field = fields[planned.field_index].name;
        declaration.index_type = std::string(planned.type->name());
        if (!planned.map_key && planned.value_type->IsString()) {
          // Whether a writer keeps dictionaries is its own property: ask one, made as
          // FileIndexWriter::Make makes it (so its option errors are the writer's too).
          auto writer = planned.type->MakeWriter(*planned.value_type, planned.options);
          if (!writer.ok()) {
            return writer.status().WithContext("index '", declaration.index_type,
                                               "' on column '", column, "'");
          }
          declaration.takes_dictionaries = (*writer)->TakesDictionaries();
        }
        declared.push_back(std::move(declaration));
      }
    }
    return declared;
  });
}

}  // namespace pyfileindex
