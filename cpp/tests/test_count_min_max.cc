// IS NAN / IS NOT NAN, FileIndexReader::Count and FileIndexReader::MinMax against brute force
// over random columns with NULLs, every kind of NaN bit pattern and both zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "arrow_batch.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"
#include "test_support.h"

namespace pyfileindex {
namespace {

using test_support::Type;

constexpr int64_t kRows = 3000;

double FromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// One random table: d DOUBLE (NaN of several bit patterns, -0.0 and 0.0), i INT, s STRING,
// each with NULLs.
struct Table {
  std::vector<std::optional<double>> d;
  std::vector<std::optional<int32_t>> i;
  std::vector<std::optional<std::string>> s;
};

// `nulls`: whether the columns hold NULLs (a <> count leaves them out, or finds none).
Table RandomTable(uint32_t seed, bool nulls = true) {
  std::mt19937 rng(seed);
  const double specials[] = {FromBits(0x7ff8000000000000ull), FromBits(0xfff8000000000000ull),
                             FromBits(0x7ff0000000000001ull), FromBits(0x7ff8dead0000beefull),
                             -0.0, 0.0, INFINITY, -INFINITY, 1.5, -2.25};
  Table t;
  for (int64_t row = 0; row < kRows; ++row) {
    const uint32_t r = rng();
    if (nulls && r % 7 == 0) {
      t.d.push_back(std::nullopt);
    } else {
      t.d.push_back(specials[(r >> 4) % 10]);
    }
    if (nulls && (r >> 8) % 9 == 0) {
      t.i.push_back(std::nullopt);
    } else {
      t.i.push_back(static_cast<int32_t>((r >> 12) % 200) - 100);
    }
    if (nulls && (r >> 20) % 11 == 0) {
      t.s.push_back(std::nullopt);
    } else {
      t.s.push_back(std::string(1, static_cast<char>('a' + (r >> 24) % 20)) + "x");
    }
  }
  return t;
}

std::vector<Field> Fields() {
  return {{"d", Type("DOUBLE")}, {"i", Type("INT")}, {"s", Type("STRING")}};
}

std::vector<uint8_t> Container(const Table& t, const std::string& index_type) {
  test_arrow::OwnedColumn d("d", "g", kRows), i("i", "i", kRows), s("s", "u", kRows);
  int64_t d_nulls = 0, i_nulls = 0, s_nulls = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    d.double_values.push_back(t.d[row].value_or(0));
    if (!t.d[row]) d.SetNull(row), ++d_nulls;
    i.int32_values.push_back(t.i[row].value_or(0));
    if (!t.i[row]) i.SetNull(row), ++i_nulls;
    s.AppendString(t.s[row].value_or(""));
    if (!t.s[row]) s.SetNull(row), ++s_nulls;
  }
  d.Finish(kRows, d_nulls);
  i.Finish(kRows, i_nulls);
  s.Finish(kRows, s_nulls);
  test_arrow::OwnedBatch batch({&d, &i, &s}, kRows);
  const std::string columns = index_type == "bsi" ? "i" : "d,i,s";
  auto writer = FileIndexWriter::Make(
      Fields(), Options(std::map<std::string, std::string>{
                    {"file-index." + index_type + ".columns", columns}}));
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(batch.schema, batch.array).ok());
  auto finished = (*writer)->Finish();
  EXPECT_TRUE(finished.ok());
  return **finished;
}

// The reader borrows the bytes: it holds them (keep_alive) so that a temporary may be passed.
std::shared_ptr<FileIndexReader> Open(std::vector<uint8_t> bytes) {
  auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  auto reader = FileIndexReader::Open(owned->data(), owned->size(), Fields(), owned);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return *reader;
}

// SQL truth of a leaf on one row (NULL is not TRUE; NaN compares false except IS NAN).
bool Matches(const Table& t, const Predicate& p, int64_t row) {
  if (p.op == PredicateOp::kAnd || p.op == PredicateOp::kOr) {
    for (const auto& child : p.children) {
      const bool m = Matches(t, *child, row);
      if (p.op == PredicateOp::kAnd && !m) return false;
      if (p.op == PredicateOp::kOr && m) return true;
    }
    return p.op == PredicateOp::kAnd;
  }
  if (p.column == "d") {
    const auto& v = t.d[row];
    switch (p.op) {
      case PredicateOp::kIsNull: return !v;
      case PredicateOp::kIsNotNull: return v.has_value();
      case PredicateOp::kIsNaN: return v && std::isnan(*v);
      case PredicateOp::kIsNotNaN: return v && !std::isnan(*v);
      default: ADD_FAILURE() << "no brute force for " << p.ToString(); return false;
    }
  }
  if (p.column == "i") {
    const auto& v = t.i[row];
    if (p.op == PredicateOp::kIsNull) return !v;
    if (!v) return false;
    const int64_t x = *v;
    auto lit = [&](size_t k) { return p.literals[k].int_value(); };
    switch (p.op) {
      case PredicateOp::kIsNotNull: return true;
      case PredicateOp::kEqual: return x == lit(0);
      case PredicateOp::kNotEqual: return x != lit(0);
      case PredicateOp::kLessThan: return x < lit(0);
      case PredicateOp::kLessOrEqual: return x <= lit(0);
      case PredicateOp::kGreaterThan: return x > lit(0);
      case PredicateOp::kGreaterOrEqual: return x >= lit(0);
      case PredicateOp::kBetween: return lit(0) <= x && x <= lit(1);
      case PredicateOp::kIn:
      case PredicateOp::kNotIn: {
        bool any = false;
        for (size_t k = 0; k < p.literals.size(); ++k) any = any || x == lit(k);
        return p.op == PredicateOp::kIn ? any : !any;
      }
      default: ADD_FAILURE() << "no brute force for " << p.ToString(); return false;
    }
  }
  const auto& v = t.s[row];
  if (p.op == PredicateOp::kIsNull) return !v;
  if (!v) return false;
  switch (p.op) {
    case PredicateOp::kIsNotNull: return true;
    case PredicateOp::kEqual: return *v == p.literals[0].bytes();
    case PredicateOp::kNotEqual: return *v != p.literals[0].bytes();
    case PredicateOp::kGreaterThan: return *v > p.literals[0].bytes();
    case PredicateOp::kStartsWith: return v->rfind(p.literals[0].bytes(), 0) == 0;
    case PredicateOp::kContains: return v->find(p.literals[0].bytes()) != std::string::npos;
    default: ADD_FAILURE() << "no brute force for " << p.ToString(); return false;
  }
}

uint64_t BruteCount(const Table& t, const Predicate& p, const RowBitmap* excluded) {
  uint64_t n = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    if (excluded != nullptr && excluded->Contains(static_cast<uint32_t>(row))) continue;
    if (Matches(t, p, row)) ++n;
  }
  return n;
}

using P = Predicate;
using O = PredicateOp;

PredicatePtr IntLeaf(O op, std::vector<int64_t> values) {
  std::vector<Literal> literals;
  for (int64_t v : values) literals.push_back(Literal::Int(v));
  return P::Leaf(op, "i", std::move(literals));
}

// Predicates every exact index type answers exactly on column i.
std::vector<PredicatePtr> ExactIntPredicates() {
  return {IntLeaf(O::kEqual, {7}),           IntLeaf(O::kNotEqual, {7}),
          IntLeaf(O::kIn, {1, 2, 3, 500}),   IntLeaf(O::kNotIn, {1, 2, 3}),
          IntLeaf(O::kIsNull, {}),           IntLeaf(O::kIsNotNull, {}),
          IntLeaf(O::kEqual, {1000}),        IntLeaf(O::kNotIn, {})};
}

std::vector<PredicatePtr> ExactRangePredicates() {
  return {IntLeaf(O::kLessThan, {-3}), IntLeaf(O::kGreaterOrEqual, {50}),
          IntLeaf(O::kBetween, {-20, 20}), IntLeaf(O::kGreaterThan, {99})};
}

class CountTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CountTest, NaNAnswersAreExactAndCountsMatchBruteForce) {
  const std::string index_type = GetParam();
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    const Table t = RandomTable(seed, /*nulls=*/seed != 4);
    auto reader = Open(Container(t, index_type));
    std::mt19937 rng(seed * 31);
    std::vector<uint32_t> deleted;
    for (int64_t row = 0; row < kRows; ++row) {
      if (rng() % 5 == 0) deleted.push_back(static_cast<uint32_t>(row));
    }
    const RowBitmap excluded = RowBitmap::FromSorted(deleted.data(), deleted.size());

    const bool exact_type = index_type == "bitmap" || index_type == "range-bitmap";
    for (O op : {O::kIsNaN, O::kIsNotNaN}) {
      auto leaf = P::Leaf(op, "d");
      auto answer = reader->Evaluate(*leaf);
      ASSERT_TRUE(answer.ok()) << answer.status().ToString();
      const uint64_t want = BruteCount(t, *leaf, nullptr);
      if (exact_type) {
        ASSERT_TRUE(answer->is_rows()) << index_type << " " << leaf->ToString();
        for (int64_t row = 0; row < kRows; ++row) {
          EXPECT_EQ(answer->rows().Contains(static_cast<uint32_t>(row)), Matches(t, *leaf, row))
              << index_type << " " << leaf->ToString() << " row " << row;
        }
        auto counted = reader->Count(*leaf, &excluded);
        ASSERT_TRUE(counted.ok()) << counted.status().ToString();
        ASSERT_TRUE(counted->has_value()) << index_type << " " << leaf->ToString();
        EXPECT_EQ(**counted, BruteCount(t, *leaf, &excluded)) << leaf->ToString();
      } else if (answer->kind() == FileIndexResult::Kind::kSkip) {
        EXPECT_EQ(want, 0u) << index_type << " skipped " << leaf->ToString();
      }
    }

    std::vector<PredicatePtr> exact;
    if (index_type != "bloom-filter") exact = ExactIntPredicates();
    if (index_type == "bitmap" || index_type == "range-bitmap") {  // string patterns
      exact.push_back(P::Leaf(O::kStartsWith, "s", {Literal::String("c")}));
      exact.push_back(P::Leaf(O::kContains, "s", {Literal::String("dx")}));
    }
    if (index_type == "range-bitmap" || index_type == "bsi") {
      for (auto& p : ExactRangePredicates()) exact.push_back(p);
    }
    std::vector<PredicatePtr> combined;
    for (size_t k = 0; k + 1 < exact.size(); ++k) {
      combined.push_back(P::And({exact[k], exact[k + 1]}));
      combined.push_back(P::Or({exact[k], exact[k + 1]}));
    }
    for (auto& p : combined) exact.push_back(p);
    for (const PredicatePtr& p : exact) {
      for (const RowBitmap* ex : {static_cast<const RowBitmap*>(nullptr), &excluded}) {
        auto counted = reader->Count(*p, ex);
        ASSERT_TRUE(counted.ok()) << counted.status().ToString();
        ASSERT_TRUE(counted->has_value()) << index_type << " " << p->ToString();
        EXPECT_EQ(**counted, BruteCount(t, *p, ex)) << index_type << " " << p->ToString();
      }
    }
  }
}

TEST_P(CountTest, InexactAnswersAreNotCounted) {
  const std::string index_type = GetParam();
  const Table t = RandomTable(9);
  auto reader = Open(Container(t, index_type));
  // A column without an index, and an AND whose other side no index answers.
  std::vector<PredicatePtr> inexact = {
      P::Leaf(O::kEqual, "nope", {Literal::Int(1)}),
      P::And({IntLeaf(O::kIsNotNull, {}), P::Leaf(O::kEqual, "nope", {Literal::Int(1)})}),
      P::Or({IntLeaf(O::kIsNull, {}), P::Leaf(O::kEqual, "nope", {Literal::Int(1)})}),
      P::Or({}),
  };
  // Comparisons on DOUBLE follow Java's order (NaN above +Infinity): never counted.
  if (index_type != "bsi") {
    inexact.push_back(P::Leaf(O::kGreaterThan, "d", {Literal::Double(0.0)}));
    inexact.push_back(P::Leaf(O::kEqual, "d", {Literal::Double(0.0)}));
  }
  if (index_type == "bloom-filter") inexact.push_back(IntLeaf(O::kEqual, {7}));
  for (const PredicatePtr& p : inexact) {
    auto counted = reader->Count(*p);
    ASSERT_TRUE(counted.ok()) << counted.status().ToString();
    EXPECT_FALSE(counted->has_value()) << index_type << " " << p->ToString();
  }
  // An AND with a side no row satisfies counts 0 whatever the other side.
  auto none = reader->Count(
      *P::And({IntLeaf(O::kEqual, {1000}), P::Leaf(O::kEqual, "nope", {Literal::Int(1)})}));
  ASSERT_TRUE(none.ok());
  if (index_type == "bloom-filter") {
    EXPECT_FALSE(none->has_value() && **none != 0u);
  } else {
    ASSERT_TRUE(none->has_value());
    EXPECT_EQ(**none, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(IndexTypes, CountTest,
                         ::testing::Values("bitmap", "range-bitmap", "bsi", "bloom-filter"));

TEST(NaNPredicateTest, TakesNoLiteralAndNamesItself) {
  const Table t = RandomTable(4);
  auto reader = Open(Container(t, "bitmap"));
  auto bad = reader->Evaluate(*P::Leaf(O::kIsNaN, "d", {Literal::Double(1.0)}));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("IS NAN"), std::string::npos) << bad.status().ToString();
  EXPECT_EQ(P::Leaf(O::kIsNotNaN, "d")->ToString(), "d IS NOT NAN");
  // A column that cannot hold NaN: no index type can say (the caller checks types).
  for (const char* index_type : {"bitmap", "range-bitmap", "bsi", "bloom-filter"}) {
    auto typed = Open(Container(t, index_type));
    for (O op : {O::kIsNaN, O::kIsNotNaN}) {
      auto on_int = typed->Evaluate(*P::Leaf(op, "i"));
      ASSERT_TRUE(on_int.ok()) << index_type << ": " << on_int.status().ToString();
      EXPECT_EQ(on_int->kind(), FileIndexResult::Kind::kRemain) << index_type;
      auto counted = typed->Count(*P::Leaf(op, "i"));
      ASSERT_TRUE(counted.ok()) << index_type;
      EXPECT_FALSE(counted->has_value()) << index_type;
    }
  }
}

// Java's order for doubles: -0.0 < 0.0 and NaN above +Infinity.
bool JavaLess(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  if (a == b) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

TEST(MinMaxTest, RangeBitmapMinMaxMatchesBruteForceWithAndWithoutSelection) {
  for (uint32_t seed : {5u, 6u, 7u}) {
    const Table t = RandomTable(seed);
    auto reader = Open(Container(t, "range-bitmap"));
    std::mt19937 rng(seed);
    for (int round = 0; round < 6; ++round) {
      std::vector<uint32_t> kept;
      const uint32_t keep_one_in = round == 0 ? 1 : (round == 5 ? 800 : 2 + round);
      for (int64_t row = 0; row < kRows; ++row) {
        if (rng() % keep_one_in == 0) kept.push_back(static_cast<uint32_t>(row));
      }
      const RowBitmap selection = RowBitmap::FromSorted(kept.data(), kept.size());
      const RowBitmap* sel = round == 0 ? nullptr : &selection;
      auto selected = [&](int64_t row) { return sel == nullptr || sel->Contains(row); };

      std::optional<int32_t> imin, imax;
      std::optional<std::string> smin, smax;
      std::optional<double> dmin, dmax;
      for (int64_t row = 0; row < kRows; ++row) {
        if (!selected(row)) continue;
        if (t.i[row]) {
          imin = std::min(imin.value_or(*t.i[row]), *t.i[row]);
          imax = std::max(imax.value_or(*t.i[row]), *t.i[row]);
        }
        if (t.s[row]) {
          smin = std::min(smin.value_or(*t.s[row]), *t.s[row]);
          smax = std::max(smax.value_or(*t.s[row]), *t.s[row]);
        }
        if (t.d[row]) {
          if (!dmin || JavaLess(*t.d[row], *dmin)) dmin = *t.d[row];
          if (!dmax || JavaLess(*dmax, *t.d[row])) dmax = *t.d[row];
        }
      }
      auto i = reader->MinMax("i", sel);
      ASSERT_TRUE(i.ok()) << i.status().ToString();
      ASSERT_EQ(i->has_value(), imin.has_value());
      if (imin) {
        EXPECT_EQ((*i)->first.int_value(), *imin);
        EXPECT_EQ((*i)->second.int_value(), *imax);
      }
      auto s = reader->MinMax("s", sel);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      ASSERT_EQ(s->has_value(), smin.has_value());
      if (smin) {
        EXPECT_EQ((*s)->first.bytes(), *smin);
        EXPECT_EQ((*s)->second.bytes(), *smax);
      }
      auto d = reader->MinMax("d", sel);
      ASSERT_TRUE(d.ok()) << d.status().ToString();
      ASSERT_EQ(d->has_value(), dmin.has_value());
      if (dmin) {
        const double lo = (*d)->first.double_value(), hi = (*d)->second.double_value();
        EXPECT_FALSE(JavaLess(lo, *dmin) || JavaLess(*dmin, lo)) << lo << " vs " << *dmin;
        EXPECT_FALSE(JavaLess(hi, *dmax) || JavaLess(*dmax, hi)) << hi << " vs " << *dmax;
      }
    }
    // An empty selection: no value.
    const RowBitmap nothing;
    auto empty = reader->MinMax("i", &nothing);
    ASSERT_TRUE(empty.ok());
    EXPECT_FALSE(empty->has_value());
  }
}

TEST(MinMaxTest, ColumnsWithoutARangeBitmapAreNotFound) {
  const Table t = RandomTable(8);
  auto reader = Open(Container(t, "bitmap"));
  auto answer = reader->MinMax("i");
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), StatusCode::kNotFound);
  EXPECT_NE(answer.status().ToString().find("'i'"), std::string::npos);
}

}  // namespace
}  // namespace pyfileindex

