#include "api/row_type.h"

#include <string_view>
#include <unordered_set>

namespace pyfileindex::api {

Status CheckUniqueNames(const std::vector<Field>& fields) {
  std::unordered_set<std::string_view> seen;
  seen.reserve(fields.size());
  for (const Field& field : fields) {
    if (!seen.insert(field.name).second) {
      return Status::InvalidArgument("field '", field.name,
                                     "' appears more than once in the row type");
    }
  }
  return Status::OK();
}

}  // namespace pyfileindex::api
