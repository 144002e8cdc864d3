// The LIKE-family predicate leaves (STARTS WITH, ENDS WITH, CONTAINS, LIKE, NOT LIKE) as the
// pattern an index reader matches dictionary values against.
#pragma once

#include "pattern/like_pattern.h"
#include "pyfileindex/predicate.h"
#include "pyfileindex/status.h"

namespace pyfileindex::pattern {

// Whether `op` is one of the five LIKE-family operators.
bool IsPatternOp(PredicateOp op);

// The pattern of a LIKE-family leaf whose arity is checked: InvalidArgument when a literal is
// not a string, or the pattern or escape is malformed (like_pattern.h).
Result<LikePattern> PatternOfLeaf(const Predicate& leaf);

}  // namespace pyfileindex::pattern
