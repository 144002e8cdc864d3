#include "pattern/leaf_pattern.h"

#include <optional>
#include <string_view>

namespace pyfileindex::pattern {

bool IsPatternOp(PredicateOp op) {
  switch (op) {
    case PredicateOp::kStartsWith:
    case PredicateOp::kEndsWith:
    case PredicateOp::kContains:
    case PredicateOp::kLike:
    case PredicateOp::kNotLike: return true;
    default: return false;
  }
}

Result<LikePattern> PatternOfLeaf(const Predicate& leaf) {
  for (const Literal& literal : leaf.literals) {
    if (literal.kind() != Literal::Kind::kString) {
      return Status::InvalidArgument(PredicateOpName(leaf.op), " on column '", leaf.column,
                                     "' takes string literals, got a ", literal.Describe());
    }
  }
  const std::string_view text = leaf.literals.at(0).bytes();
  switch (leaf.op) {
    case PredicateOp::kStartsWith: return LikePattern::StartsWith(text);
    case PredicateOp::kEndsWith: return LikePattern::EndsWith(text);
    case PredicateOp::kContains: return LikePattern::Contains(text);
    default: break;
  }
  std::optional<std::string_view> escape;
  if (leaf.literals.size() == 2) escape = leaf.literals[1].bytes();
  Result<LikePattern> compiled = LikePattern::Compile(text, escape);
  if (!compiled.ok()) return compiled.status().WithContext("column '", leaf.column, "'");
  return compiled;
}

}  // namespace pyfileindex::pattern
