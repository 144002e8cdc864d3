#include "pyfileindex/predicate.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>

namespace pyfileindex {
namespace {

// The decimal digits of the 128-bit two's complement integer high * 2^64 + low.
std::string UnscaledText(int64_t high, int64_t low) {
  const auto bits = (static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) |
                    static_cast<uint64_t>(low);
  const bool negative = high < 0;
  unsigned __int128 magnitude = negative ? ~bits + 1 : bits;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

}  // namespace

const char* PredicateOpName(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEqual: return "=";
    case PredicateOp::kNotEqual: return "<>";
    case PredicateOp::kLessThan: return "<";
    case PredicateOp::kLessOrEqual: return "<=";
    case PredicateOp::kGreaterThan: return ">";
    case PredicateOp::kGreaterOrEqual: return ">=";
    case PredicateOp::kIn: return "IN";
    case PredicateOp::kNotIn: return "NOT IN";
    case PredicateOp::kIsNull: return "IS NULL";
    case PredicateOp::kIsNotNull: return "IS NOT NULL";
    case PredicateOp::kBetween: return "BETWEEN";
    case PredicateOp::kStartsWith: return "STARTS WITH";
    case PredicateOp::kEndsWith: return "ENDS WITH";
    case PredicateOp::kContains: return "CONTAINS";
    case PredicateOp::kLike: return "LIKE";
    case PredicateOp::kNotLike: return "NOT LIKE";
    case PredicateOp::kIsNaN: return "IS NAN";
    case PredicateOp::kIsNotNaN: return "IS NOT NAN";
    case PredicateOp::kAnd: return "AND";
    case PredicateOp::kOr: return "OR";
  }
  return "?";
}

const char* Literal::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull: return "NULL";
    case Kind::kBool: return "boolean";
    case Kind::kInt: return "integer";
    case Kind::kDouble: return "floating-point";
    case Kind::kString: return "string";
    case Kind::kDecimal: return "decimal";
    case Kind::kTimestamp: return "timestamp";
  }
  return "unknown";
}

std::string Literal::Describe() const {
  return std::string(KindName(kind_)) + " literal " + ToString();
}

std::string Literal::ToString() const {
  char buf[64];
  switch (kind_) {
    case Kind::kNull: return "NULL";
    case Kind::kBool: return int_ ? "TRUE" : "FALSE";
    case Kind::kInt: return std::to_string(int_);
    case Kind::kDouble: {
      // The shortest text that reads back, in any locale (no comma for '.'), and marked as a
      // double where it would read as an integer ("5.0", not "5").
      std::string text(buf, std::to_chars(buf, buf + sizeof(buf), double_).ptr);
      if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
      return text;
    }
    case Kind::kString: return "'" + bytes_ + "'";
    case Kind::kDecimal: {  // plain notation, as Java's BigDecimal.toPlainString
      std::string digits = UnscaledText(high_, int_);
      if (scale_ <= 0) return digits + std::string(static_cast<size_t>(-scale_), '0');
      const bool negative = digits[0] == '-';
      if (negative) digits.erase(0, 1);
      const size_t scale = static_cast<size_t>(scale_);
      if (digits.size() <= scale) digits.insert(0, scale + 1 - digits.size(), '0');
      digits.insert(digits.size() - scale, ".");
      return negative ? "-" + digits : digits;
    }
    case Kind::kTimestamp:
      std::snprintf(buf, sizeof(buf), "TIMESTAMP(%" PRId64 " ms + %d ns)", int_, nano_of_milli_);
      return buf;
  }
  return "?";
}

std::string Predicate::ToString() const {
  if (!is_leaf()) {
    std::string text = "(";
    for (size_t i = 0; i < children.size(); ++i) {
      if (i > 0) text += std::string(" ") + PredicateOpName(op) + " ";
      text += children[i]->ToString();
    }
    return text + ")";
  }
  std::string text = column + " " + PredicateOpName(op);
  if (op == PredicateOp::kIn || op == PredicateOp::kNotIn) {
    text += " (";
    for (size_t i = 0; i < literals.size(); ++i) {
      if (i > 0) text += ", ";
      text += literals[i].ToString();
    }
    return text + ")";
  }
  if (op == PredicateOp::kBetween && literals.size() == 2) {
    return text + " " + literals[0].ToString() + " AND " + literals[1].ToString();
  }
  if ((op == PredicateOp::kLike || op == PredicateOp::kNotLike) && literals.size() == 2) {
    return text + " " + literals[0].ToString() + " ESCAPE " + literals[1].ToString();
  }
  for (const Literal& literal : literals) text += " " + literal.ToString();
  return text;
}

std::shared_ptr<const Predicate> Predicate::Leaf(PredicateOp op, std::string column,
                                                 std::vector<Literal> literals) {
  auto node = std::make_shared<Predicate>();
  node->op = op;
  node->column = std::move(column);
  node->literals = std::move(literals);
  return node;
}

std::shared_ptr<const Predicate> Predicate::And(
    std::vector<std::shared_ptr<const Predicate>> children) {
  auto node = std::make_shared<Predicate>();
  node->op = PredicateOp::kAnd;
  node->children = std::move(children);
  return node;
}

std::shared_ptr<const Predicate> Predicate::Or(
    std::vector<std::shared_ptr<const Predicate>> children) {
  auto node = std::make_shared<Predicate>();
  node->op = PredicateOp::kOr;
  node->children = std::move(children);
  return node;
}

}  // namespace pyfileindex
