// The row type a writer or a reader is given.
#pragma once

#include <vector>

#include "pyfileindex/data_type.h"
#include "pyfileindex/status.h"

namespace pyfileindex::api {

// InvalidArgument naming the first field name given twice: a Paimon row type holds each name
// once, and columns, predicates and container entries are matched to fields by name.
Status CheckUniqueNames(const std::vector<Field>& fields);

}  // namespace pyfileindex::api
