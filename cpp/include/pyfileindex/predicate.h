/// @file
/// Predicate trees evaluated against a file index.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pyfileindex/export.h"
#include "pyfileindex/literal.h"

namespace pyfileindex {

/// Leaf comparisons and the two combinators. Literal counts: IS [NOT] NULL and IS [NOT] NAN
/// none, BETWEEN two, IN / NOT IN any number, LIKE / NOT LIKE one or two, the others one;
/// FileIndexReader::Evaluate rejects other counts and NULL literals outside IN lists with
/// InvalidArgument.
enum class PredicateOp : uint8_t {
  kEqual,
  kNotEqual,
  kLessThan,
  kLessOrEqual,
  kGreaterThan,
  kGreaterOrEqual,
  kIn,
  kNotIn,
  kIsNull,
  kIsNotNull,
  kBetween,  // literals: [low, high], both inclusive
  // String patterns on CHAR/VARCHAR columns (STRING literals; NULL rows match neither a
  // pattern nor its negation).
  kStartsWith,  // literals: [prefix]
  kEndsWith,    // literals: [suffix]
  kContains,    // literals: [infix]
  kLike,        // literals: [pattern] or [pattern, escape]: SQL LIKE, `_` is one code point
  kNotLike,     // literals as kLike: the non-NULL rows LIKE does not select
  kIsNaN,        // FLOAT / DOUBLE: the value is a NaN (any NaN bit pattern)
  kIsNotNaN,     // FLOAT / DOUBLE: the value is neither NULL nor a NaN
  kAnd,
  kOr,
};

/// SQL spelling of an operator ("=", "IN", "IS NULL", "AND", ...); a static string.
PYFILEINDEX_EXPORT const char* PredicateOpName(PredicateOp op);

/// A predicate tree. A leaf compares one column (a field name, or "m[k]" for the key k of a
/// MAP column m) with literals; an AND/OR node combines children (with no children either
/// answers REMAIN). Immutable once built, so one tree may be evaluated from many
/// threads and subtrees may be shared freely.
///
///   auto p = Predicate::And({Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Alice")}),
///                            Predicate::Leaf(PredicateOp::kIn, "f1", {Literal::Int(10), Literal::Int(20)})});
struct PYFILEINDEX_EXPORT Predicate {
  PredicateOp op = PredicateOp::kAnd;  ///< the operator
  std::string column;                  ///< leaves only
  std::vector<Literal> literals;       ///< leaves only; arity depends on `op`
  std::vector<std::shared_ptr<const Predicate>> children;  ///< kAnd / kOr only; never null

  /// True for comparisons, false for AND / OR.
  bool is_leaf() const { return op != PredicateOp::kAnd && op != PredicateOp::kOr; }
  /// SQL-like text, e.g. "(f0 = 'Alice' AND f1 IN (10, 20))".
  std::string ToString() const;

  /// A leaf `column op literals`.
  static std::shared_ptr<const Predicate> Leaf(PredicateOp op, std::string column,
                                               std::vector<Literal> literals = {});
  /// The conjunction / disjunction of `c`.
  static std::shared_ptr<const Predicate> And(std::vector<std::shared_ptr<const Predicate>> c);
  static std::shared_ptr<const Predicate> Or(std::vector<std::shared_ptr<const Predicate>> c);
};

/// The deepest AND/OR nesting FileIndexReader::Evaluate takes (InvalidArgument beyond it).
/// Evaluation recurses once per level, so the bound keeps a hostile tree from exhausting the
/// caller's stack; Paimon builds flat AND/OR nodes, so real predicates stay far below it.
inline constexpr int kMaxPredicateDepth = 512;

/// How predicates are passed around: shared, immutable.
using PredicatePtr = std::shared_ptr<const Predicate>;

/// ORDER BY column [ASC|DESC] [NULLS FIRST|LAST] LIMIT limit (FileIndexReader::EvaluateTopN).
struct TopN {
  std::string column;        ///< the ordering column
  bool descending = false;   ///< DESC instead of ASC
  bool nulls_first = false;  ///< NULLS FIRST instead of NULLS LAST
  int32_t limit = 0;         ///< rows wanted; must not be negative
  /// FETCH FIRST limit ROWS WITH TIES: also keep every row tied with the limit-th one on this
  /// column (NULLs tie with each other), so the answer may hold more than `limit` rows. This is
  /// what `ORDER BY column, more_keys... LIMIT limit` needs, since the later keys decide among
  /// the tied rows: Java Paimon's non-strict TopN (a TopN with more than one sort key).
  /// Without it the answer holds min(limit, selected rows) rows, ties cut as Java cuts them.
  bool with_ties = false;
};

}  // namespace pyfileindex
