#include "api/row_type.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace pyfileindex::api {

namespace {

// Row types of data files mostly hold a few dozen fields or fewer: comparing every pair
// there costs less than any set would (no allocation, no hashing), and every open of an
// index container checks its row type.
constexpr size_t kPairwiseUpTo = 32;

Status Repeated(const Field& field) {
  return Status::InvalidArgument("field '", field.name,
                                 "' appears more than once in the row type");
}

}  // namespace

Status CheckUniqueNames(const std::vector<Field>& fields) {
  const size_t n = fields.size();
  if (n <= kPairwiseUpTo) {
    for (size_t i = 1; i < n; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (fields[i].name == fields[j].name) return Repeated(fields[i]);
      }
    }
    return Status::OK();
  }
  // Wide row types: sort the names (positions kept, so the error names the first repeat in
  // field order, as the pairwise check does).
  std::vector<std::pair<std::string_view, size_t>> names;
  names.reserve(n);
  for (size_t i = 0; i < n; ++i) names.emplace_back(fields[i].name, i);
  std::sort(names.begin(), names.end());
  size_t first_repeat = n;
  for (size_t i = 1; i < n; ++i) {
    if (names[i].first == names[i - 1].first) {
      first_repeat = std::min(first_repeat, names[i].second);
    }
  }
  if (first_repeat < n) return Repeated(fields[first_repeat]);
  return Status::OK();
}

}  // namespace pyfileindex::api
