// The bsi index: byte identity with the spec's annotated payload and the Java-written golden
// sidecars, reader answers against brute force for every type (exact where Java is exact, a
// superset where keys are truncated), Long.MIN_VALUE, and robustness against damaged payloads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "column/column_batch.h"
#include "index/bsi/bsi_index.h"
#include "index/index_type.h"
#include "io/byte_writer.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/options.h"
#include "pyfileindex/predicate.h"
#include "roaring/bitmap32.h"
#include "test_support.h"

namespace pyfileindex::index {
namespace {

using column::ColumnBatch;
using column::Physical;
using column::TimeUnit;
using test_support::Fixed;
using test_support::IndexPayload;
using test_support::FromHex;
using test_support::SharedDir;
using test_support::SliceRows;
using test_support::TestColumn;
using test_support::Timestamps;
using test_support::Type;
using Int128 = __int128;

constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();

// ---- helpers ------------------------------------------------------------------------------

std::unique_ptr<TestColumn> Ints(const std::string& type_text, std::vector<int32_t> values,
                                 const std::vector<bool>& is_null = {}) {
  return Fixed(type_text, Physical::kInt32, &TestColumn::i32, std::move(values), is_null);
}

std::unique_ptr<TestColumn> Longs(const std::string& type_text, Physical physical,
                                  std::vector<int64_t> values,
                                  const std::vector<bool>& is_null = {}) {
  return Fixed(type_text, physical, &TestColumn::i64, std::move(values), is_null);
}

std::unique_ptr<TestColumn> WideDecimals(const std::string& type_text,
                                         const std::vector<Int128>& values,
                                         const std::vector<bool>& is_null = {}) {
  std::vector<uint8_t> bytes(values.size() * 16);
  for (size_t i = 0; i < values.size(); ++i) {
    unsigned __int128 v = static_cast<unsigned __int128>(values[i]);
    for (int b = 0; b < 16; ++b) bytes[i * 16 + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  auto column = Fixed(type_text, Physical::kDecimal128, &TestColumn::wide, std::move(bytes),
                      is_null);
  column->batch.length = static_cast<int64_t>(values.size());
  return column;
}

Result<std::vector<uint8_t>> BuildBsi(const ColumnBatch& batch, int64_t batch_rows = 0) {
  PFI_ASSIGN_OR_RETURN(auto writer, BsiIndexType().MakeWriter(*batch.type, Options()));
  if (batch_rows <= 0) batch_rows = std::max<int64_t>(batch.length, 1);
  for (int64_t begin = 0; begin < batch.length; begin += batch_rows) {
    const int64_t n = std::min(batch_rows, batch.length - begin);
    PFI_RETURN_NOT_OK(writer->Write(SliceRows(batch, begin, n)));
  }
  return writer->Serialize();
}

// A reader with the payload it reads: readers borrow their bytes (the slices are read in
// place), so the bytes live as long as the reader.
struct OpenedBsi {
  std::vector<uint8_t> bytes;
  std::unique_ptr<ColumnIndexReader> reader;
  explicit operator bool() const { return reader != nullptr; }
  const ColumnIndexReader& operator*() const { return *reader; }
  const ColumnIndexReader* operator->() const { return reader.get(); }
};

OpenedBsi OpenBsi(const DataType& type, std::vector<uint8_t> payload) {
  OpenedBsi opened;
  opened.bytes = std::move(payload);
  auto reader = BsiIndexType().OpenReader(type, ByteSpan(opened.bytes));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (reader.ok()) opened.reader = std::move(reader).ValueOrDie();
  return opened;
}

Result<FileIndexResult> Ask(const ColumnIndexReader& reader, PredicateOp op,
                            std::vector<Literal> literals) {
  Predicate leaf;
  leaf.op = op;
  leaf.column = "c";
  leaf.literals = std::move(literals);
  return reader.Visit(leaf);
}

// The rows of a bitmap answer; fails the test for REMAIN/SKIP or an error.
std::vector<uint32_t> RowsOf(const ColumnIndexReader& reader, PredicateOp op,
                             std::vector<Literal> literals) {
  auto result = Ask(reader, op, std::move(literals));
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {999999};
  EXPECT_TRUE(result->is_rows()) << PredicateOpName(op);
  if (!result->is_rows()) return {999998};
  return result->rows().ToVector();
}

using Rows = std::vector<uint32_t>;

// ---- data set B ---------------------------------------------------------------------------

struct DataSetB {
  std::unique_ptr<TestColumn> f1 =
      Ints("INT", {100, 200, 300, 50, 500, 100, 0, 20},
           {false, false, false, false, false, false, true, false});
  std::unique_ptr<TestColumn> f2 = Ints("INT", {-2, -3, 1, 1, -1, 2, -2, 0},
                                        {false, false, false, false, false, false, false, true});
  std::unique_ptr<TestColumn> f4 = Timestamps(
      "TIMESTAMP(9)", TimeUnit::kNano,
      {1745542802000123000LL, 1745542902000123000LL, 1745542602000123000LL, -1744877000LL,
       -1764877000LL, 0, 1745542802000123001LL, -1724877000LL},
      {false, false, false, false, false, true, false, false});

  const TestColumn& column(const std::string& name) const {
    if (name == "f1") return *f1;
    if (name == "f2") return *f2;
    return *f4;
  }
};

std::vector<uint8_t> GoldenPayload(const std::string& table, const std::string& sidecar,
                                   const std::string& column, const std::string& index_type) {
  const std::string path = SharedDir() + "/golden/paimon-java-tables/" + table + "/" + sidecar;
  return IndexPayload(path, column, index_type);
}

std::vector<uint8_t> GoldenBsi(int table, const std::string& column) {
  if (table == 0) {
    return GoldenPayload(
        "append_with_bsi.db",
        "append_with_bsi/bucket-0/data-af9e31b7-b44d-4a0e-85ae-5877d224ec9f-0.parquet.index",
        column, "bsi");
  }
  return GoldenPayload("append_with_bsi_bitmap_bloomfilter.db",
                       "append_with_bsi_bitmap_bloomfilter/bucket-0/"
                       "data-15f89029-c10f-437f-b819-338c3e8ab2ee-0.parquet.index",
                       column, "bsi");
}

// The annotated 175-byte f2 payload of the spec (section 8.2).
const char* kSpecF2Hex =
    "01 00000008 01"
    " 01 0000000000000000 0000000000000002"
    " 3a300000 01000000 0000 0200 10000000 0200 0300 0500"
    " 00000002"
    " 3a300000 01000000 0000 0100 10000000 0200 0300"
    " 3a300000 01000000 0000 0000 10000000 0500"
    " 01"
    " 01 0000000000000000 0000000000000003"
    " 3a300000 01000000 0000 0300 10000000 0000 0100 0400 0600"
    " 00000002"
    " 3a300000 01000000 0000 0100 10000000 0100 0400"
    " 3a300000 01000000 0000 0200 10000000 0000 0100 0600";

TEST(BsiGoldenTest, SpecAnnotatedF2Payload) {
  const std::vector<uint8_t> expected = FromHex(kSpecF2Hex);
  ASSERT_EQ(expected.size(), 175u);
  const DataSetB data;
  auto rebuilt = BuildBsi(data.f2->batch);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
  EXPECT_EQ(*rebuilt, expected);
}

TEST(BsiGoldenTest, RebuiltPayloadsEqualJavaBytes) {
  const DataSetB data;
  const std::map<std::string, size_t> sizes = {{"f1", 231}, {"f2", 175}, {"f4", 1437}};
  for (int table = 0; table < 2; ++table) {
    for (const auto& [column, size] : sizes) {
      const std::vector<uint8_t> golden = GoldenBsi(table, column);
      ASSERT_EQ(golden.size(), size) << column;
      for (int64_t batch_rows : {0, 1, 3}) {
        auto rebuilt = BuildBsi(data.column(column).batch, batch_rows);
        ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
        EXPECT_EQ(*rebuilt, golden) << column << " table " << table << " batches " << batch_rows;
      }
    }
  }
  // f1's existence bitmap {0..5, 7} is a run container, written right after min and max.
  const std::vector<uint8_t> f1 = GoldenBsi(0, "f1");
  ASSERT_GE(f1.size(), 42u);
  EXPECT_EQ(std::vector<uint8_t>(f1.begin() + 23, f1.begin() + 42),
            FromHex("3b300000 01 0000 0600 0200 0000 0500 0700 0000"));
}

TEST(BsiGoldenTest, JavaWrittenIndexAnswersTheSpecExamples) {
  const DataSetB data;
  auto f2 = OpenBsi(data.f2->type, GoldenBsi(0, "f2"));
  ASSERT_TRUE(f2);
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kGreaterThan, {Literal::Int(-2)}), (Rows{2, 3, 4, 5}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kLessThan, {Literal::Int(0)}), (Rows{0, 1, 4, 6}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kEqual, {Literal::Int(-2)}), (Rows{0, 6}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kNotEqual, {Literal::Int(1)}), (Rows{0, 1, 4, 5, 6}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kIsNull, {}), (Rows{7}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kIsNotNull, {}), (Rows{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kIn, {Literal::Int(-3), Literal::Int(2), Literal::Int(9)}),
            (Rows{1, 5}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kNotIn, {Literal::Int(-2), Literal::Int(1)}),
            (Rows{1, 4, 5}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kBetween, {Literal::Int(-2), Literal::Int(1)}),
            (Rows{0, 2, 3, 4, 6}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kIn, {}), (Rows{}));
  EXPECT_EQ(RowsOf(*f2, PredicateOp::kNotIn, {}), (Rows{0, 1, 2, 3, 4, 5, 6}));
}

// Every operator and every literal in [-5, 600) against brute force over data set B (INT
// columns: Java's answers are exact there, and so are ours).
TEST(BsiGoldenTest, BruteForceOverDataSetBIntColumns) {
  const DataSetB data;
  for (const char* name : {"f1", "f2"}) {
    const TestColumn& column = data.column(name);
    auto reader = OpenBsi(column.type, GoldenBsi(1, name));
    ASSERT_TRUE(reader);
    for (int64_t v = -5; v < 600; ++v) {
      Rows eq, ne, lt, le, gt, ge;
      for (uint32_t r = 0; r < 8; ++r) {
        if (column.batch.IsNull(r)) continue;
        const int64_t x = column.i32[r];
        if (x == v) eq.push_back(r);
        if (x != v) ne.push_back(r);
        if (x < v) lt.push_back(r);
        if (x <= v) le.push_back(r);
        if (x > v) gt.push_back(r);
        if (x >= v) ge.push_back(r);
      }
      const Literal l = Literal::Int(v);
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kEqual, {l}), eq) << name << " = " << v;
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kNotEqual, {l}), ne) << name << " <> " << v;
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {l}), lt) << name << " < " << v;
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kLessOrEqual, {l}), le) << name << " <= " << v;
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {l}), gt) << name << " > " << v;
      ASSERT_EQ(RowsOf(*reader, PredicateOp::kGreaterOrEqual, {l}), ge) << name << " >= " << v;
    }
  }
}

TEST(BsiGoldenTest, Timestamp9KeepsRowsThatDifferOnlyInNanoseconds) {
  const DataSetB data;
  auto f4 = OpenBsi(data.f4->type, GoldenBsi(0, "f4"));
  ASSERT_TRUE(f4);
  // f4 > 1745542802000123000 ns: Java answers {1} and drops row 6 (…123001 ns). Rows 1 and 6
  // match; row 0 (equal at microsecond precision) may be included.
  const Literal x = Literal::Timestamp(1745542802000LL, 123000);
  const Rows gt = RowsOf(*f4, PredicateOp::kGreaterThan, {x});
  EXPECT_EQ(gt, (Rows{0, 1, 6}));
  // <> cannot exclude a row whose microsecond equals the literal's: it may differ in nanos.
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kNotEqual, {x}), (Rows{0, 1, 2, 3, 4, 6, 7}));
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kEqual, {x}), (Rows{0, 6}));
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kEqual, {Literal::Timestamp(1745542802000LL, 123001)}),
            (Rows{0, 6}));
  // < …123001 ns: row 0 is smaller (Java's microsecond LT drops it).
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kLessThan, {Literal::Timestamp(1745542802000LL, 123001)}),
            (Rows{0, 2, 3, 4, 6, 7}));
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kLessThan, {x}), (Rows{2, 3, 4, 7}));
  // > the last nanosecond of a microsecond can exclude that microsecond.
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kGreaterThan, {Literal::Timestamp(1745542802000LL, 123999)}),
            (Rows{1}));
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kIsNull, {}), (Rows{5}));
  // Negative side: -1744877000 ns = -1745 ms + 123000 ns -> micros -1744877.
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kEqual, {Literal::Timestamp(-1745, 123000)}), (Rows{3}));
  EXPECT_EQ(RowsOf(*f4, PredicateOp::kLessThan, {Literal::Timestamp(-1745, 123000)}), (Rows{4}));
}

// ---- brute force on random data -----------------------------------------------------------

// Each row's value as the closed interval of true values its key may stand for, in a fine
// unit shared with the literals (an exact type has lo == hi).
struct Interval {
  bool null = false;
  Int128 lo = 0;
  Int128 hi = 0;
  Int128 actual = 0;  // the true value (inside [lo, hi])
};

struct Probe {
  Literal literal;
  Int128 fine;  // the literal in the fine unit
};

// Checks every operator for every probe: the answer must equal the interval oracle (what may
// match given the keys), which equals the exact truth for exact types, and must contain every
// row that truly matches.
void CheckAll(const ColumnIndexReader& reader, const std::vector<Interval>& rows,
              const std::vector<Probe>& probes, const std::string& what) {
  auto select = [&rows](auto may, auto truly) {
    std::pair<Rows, Rows> out;
    for (uint32_t r = 0; r < rows.size(); ++r) {
      if (rows[r].null) continue;
      if (may(rows[r])) out.first.push_back(r);
      if (truly(rows[r])) out.second.push_back(r);
    }
    return out;
  };
  auto check = [&](PredicateOp op, std::vector<Literal> literals,
                   const std::pair<Rows, Rows>& expected, const std::string& text) {
    const Rows got = RowsOf(reader, op, std::move(literals));
    EXPECT_EQ(got, expected.first) << what << ": " << text;
    EXPECT_TRUE(std::includes(got.begin(), got.end(), expected.second.begin(),
                              expected.second.end()))
        << what << ": " << text << " lost rows that match";
  };
  Rows non_null, nulls;
  for (uint32_t r = 0; r < rows.size(); ++r) (rows[r].null ? nulls : non_null).push_back(r);
  EXPECT_EQ(RowsOf(reader, PredicateOp::kIsNull, {}), nulls) << what;
  EXPECT_EQ(RowsOf(reader, PredicateOp::kIsNotNull, {}), non_null) << what;

  for (size_t i = 0; i < probes.size(); ++i) {
    const Int128 v = probes[i].fine;
    const Literal& l = probes[i].literal;
    const std::string text = l.ToString();
    check(PredicateOp::kEqual, {l},
          select([v](const Interval& x) { return x.lo <= v && v <= x.hi; },
                 [v](const Interval& x) { return x.actual == v; }),
          "= " + text);
    check(PredicateOp::kNotEqual, {l},
          select([v](const Interval& x) { return !(x.lo == v && x.hi == v); },
                 [v](const Interval& x) { return x.actual != v; }),
          "<> " + text);
    check(PredicateOp::kLessThan, {l},
          select([v](const Interval& x) { return x.lo < v; },
                 [v](const Interval& x) { return x.actual < v; }),
          "< " + text);
    check(PredicateOp::kLessOrEqual, {l},
          select([v](const Interval& x) { return x.lo <= v; },
                 [v](const Interval& x) { return x.actual <= v; }),
          "<= " + text);
    check(PredicateOp::kGreaterThan, {l},
          select([v](const Interval& x) { return x.hi > v; },
                 [v](const Interval& x) { return x.actual > v; }),
          "> " + text);
    check(PredicateOp::kGreaterOrEqual, {l},
          select([v](const Interval& x) { return x.hi >= v; },
                 [v](const Interval& x) { return x.actual >= v; }),
          ">= " + text);
    const Probe& other = probes[(i * 7 + 3) % probes.size()];
    const Int128 w = other.fine;
    check(PredicateOp::kBetween, {l, other.literal},
          select([v, w](const Interval& x) { return x.hi >= v && x.lo <= w; },
                 [v, w](const Interval& x) { return x.actual >= v && x.actual <= w; }),
          "between " + text + " and " + other.literal.ToString());
    check(PredicateOp::kIn, {l, other.literal},
          select([v, w](const Interval& x) {
                   return (x.lo <= v && v <= x.hi) || (x.lo <= w && w <= x.hi);
                 },
                 [v, w](const Interval& x) { return x.actual == v || x.actual == w; }),
          "in " + text);
    check(PredicateOp::kNotIn, {l, other.literal},
          select([v, w](const Interval& x) {
                   return !(x.lo == v && x.hi == v) && !(x.lo == w && x.hi == w);
                 },
                 [v, w](const Interval& x) { return x.actual != v && x.actual != w; }),
          "not in " + text);
  }
}

// Writes `column` in uneven batches, checks the bytes do not depend on batching, reopens the
// payload and checks every answer.
void BuildAndCheck(const TestColumn& column, const std::vector<Interval>& rows,
                   const std::vector<Probe>& probes, const std::string& what) {
  auto payload = BuildBsi(column.batch, 97);
  ASSERT_TRUE(payload.ok()) << what << ": " << payload.status().ToString();
  auto whole = BuildBsi(column.batch);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*payload, *whole) << what;
  auto reader = OpenBsi(column.type, *payload);
  ASSERT_TRUE(reader) << what;
  CheckAll(*reader, rows, probes, what);
}

std::vector<bool> RandomNulls(std::mt19937_64& rng, size_t n, int one_in) {
  std::vector<bool> nulls(n);
  for (size_t i = 0; i < n; ++i) nulls[i] = rng() % one_in == 0;
  return nulls;
}

TEST(BsiRandomTest, IntegralTypesWithExtremes) {
  std::mt19937_64 rng(21);
  const size_t n = 400;
  struct Spec {
    const char* type;
    Physical physical;
    int64_t lo;
    int64_t hi;
  };
  const Spec specs[] = {
      {"TINYINT", Physical::kInt8, -128, 127},
      {"SMALLINT", Physical::kInt16, -32768, 32767},
      {"INT", Physical::kInt32, std::numeric_limits<int32_t>::min(),
       std::numeric_limits<int32_t>::max()},
      {"DATE", Physical::kInt32, -800000, 800000},
      {"TIME", Physical::kInt32, 0, 86399999},
      {"BIGINT", Physical::kInt64, kLongMin + 1, kLongMax},  // Long.MIN_VALUE: see below
  };
  for (const Spec& spec : specs) {
    for (int shape = 0; shape < 4; ++shape) {  // mixed, only >= 0, only < 0, narrow range
      std::vector<int64_t> values(n);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t span = static_cast<uint64_t>(spec.hi) - static_cast<uint64_t>(spec.lo);
        int64_t v = static_cast<int64_t>(static_cast<uint64_t>(spec.lo) +
                                         (span == ~0ULL ? rng() : rng() % (span + 1)));
        if (i % 13 == 0) v = spec.lo;
        if (i % 13 == 1) v = spec.hi;
        if (i % 13 == 2) v = 0;
        if (shape == 1) v = v < 0 ? -(v + 1) : v;
        if (shape == 2) v = v >= 0 ? -v - 1 : v;
        if (shape == 3) v = static_cast<int64_t>(rng() % 7) - 3;
        values[i] = std::max(spec.lo, std::min(spec.hi, v));
      }
      const std::vector<bool> nulls = RandomNulls(rng, n, 6);
      std::unique_ptr<TestColumn> column;
      switch (spec.physical) {
        case Physical::kInt8: {
          std::vector<int8_t> v(values.begin(), values.end());
          column = Fixed(spec.type, spec.physical, &TestColumn::i8, v, nulls);
          break;
        }
        case Physical::kInt16: {
          std::vector<int16_t> v(values.begin(), values.end());
          column = Fixed(spec.type, spec.physical, &TestColumn::i16, v, nulls);
          break;
        }
        case Physical::kInt32: {
          std::vector<int32_t> v(values.begin(), values.end());
          column = Fixed(spec.type, spec.physical, &TestColumn::i32, v, nulls);
          break;
        }
        default:
          column = Longs(spec.type, spec.physical, values, nulls);
      }
      std::vector<Interval> rows(n);
      for (size_t i = 0; i < n; ++i) {
        rows[i].null = nulls[i];
        rows[i].lo = rows[i].hi = rows[i].actual = values[i];
      }
      std::vector<Probe> probes;
      // Stored values and their neighbours, the type's bounds, and literals far outside it
      // (never narrowed: `< 1000` on TINYINT is every non-null row).
      for (size_t i = 0; i < 25; ++i) {
        const int64_t v = values[rng() % n];
        for (int64_t d : {-1, 0, 1}) {
          if ((d < 0 && v == kLongMin) || (d > 0 && v == kLongMax)) continue;
          probes.push_back({Literal::Int(v + d), Int128(v + d)});
        }
      }
      for (int64_t v : {kLongMin, kLongMin + 1, kLongMax, int64_t{0}, int64_t{-1}, int64_t{1000},
                        int64_t{-1000}, spec.lo, spec.hi}) {
        probes.push_back({Literal::Int(v), Int128(v)});
      }
      BuildAndCheck(*column, rows, probes,
                    std::string(spec.type) + " shape " + std::to_string(shape));
    }
  }
}

Int128 Pow10(int e) {
  Int128 p = 1;
  while (e-- > 0) p *= 10;
  return p;
}

Literal WideDecimal(Int128 unscaled, int scale) {
  const auto bits = static_cast<unsigned __int128>(unscaled);
  return Literal::Decimal128(static_cast<int64_t>(bits >> 64), static_cast<uint64_t>(bits), scale);
}

TEST(BsiRandomTest, DecimalsOfSeveralPrecisionsAndScales) {
  std::mt19937_64 rng(22);
  const size_t n = 300;
  struct Spec {
    int precision;
    int scale;
  };
  for (const Spec spec : {Spec{5, 0}, Spec{10, 2}, Spec{18, 4}, Spec{18, 18}, Spec{25, 3},
                          Spec{38, 10}}) {
    const std::string type =
        "DECIMAL(" + std::to_string(spec.precision) + ", " + std::to_string(spec.scale) + ")";
    const Int128 limit = Pow10(std::min(spec.precision, 18)) - 1;  // keys must fit a long
    std::vector<Int128> unscaled(n);
    for (size_t i = 0; i < n; ++i) {
      Int128 v = static_cast<Int128>(rng() % static_cast<uint64_t>(limit * 2 + 1)) - limit;
      if (i % 17 == 0) v = limit;
      if (i % 17 == 1) v = -limit;
      if (i % 17 == 2) v = 0;
      unscaled[i] = v;
    }
    const std::vector<bool> nulls = RandomNulls(rng, n, 5);
    std::unique_ptr<TestColumn> column;
    if (spec.precision <= 18) {
      std::vector<int64_t> v(unscaled.begin(), unscaled.end());
      column = Longs(type, Physical::kDecimal, v, nulls);
    } else {
      column = WideDecimals(type, unscaled, nulls);
    }
    // Fine unit: 10^-18 (literal scales used below stay <= 18, so everything fits 128 bits).
    const int fine_scale = 18;
    std::vector<Interval> rows(n);
    for (size_t i = 0; i < n; ++i) {
      rows[i].null = nulls[i];
      rows[i].lo = rows[i].hi = rows[i].actual = unscaled[i] * Pow10(fine_scale - spec.scale);
    }
    std::vector<Probe> probes;
    for (int i = 0; i < 40; ++i) {
      const Int128 stored = unscaled[rng() % n];
      // The same value at the column scale, at a finer scale, and half a unit off.
      const int extra = static_cast<int>(rng() % 3);
      auto fits_long = [](Int128 x) { return x > -Pow10(18) && x < Pow10(18); };
      if (spec.scale + extra <= fine_scale && fits_long(stored * Pow10(extra))) {
        const Int128 at = stored * Pow10(extra);
        probes.push_back({Literal::Decimal(static_cast<int64_t>(at), spec.scale + extra),
                          at * Pow10(fine_scale - spec.scale - extra)});
      }
      if (spec.scale + 1 <= fine_scale && fits_long(stored * 10 + 5)) {
        const Int128 half = stored * 10 + 5;
        probes.push_back({Literal::Decimal(static_cast<int64_t>(half), spec.scale + 1),
                          half * Pow10(fine_scale - spec.scale - 1)});
      }
      // A coarser literal (scale below the column's, including negative scales).
      const int coarse = spec.scale - static_cast<int>(rng() % 4);
      const int64_t raw = static_cast<int64_t>(rng() % 2001) - 1000;
      if (fine_scale - coarse <= 36) {
        probes.push_back({Literal::Decimal(raw, coarse), Int128(raw) * Pow10(fine_scale - coarse)});
      }
    }
    // Unscaled values beyond a long: a stored value written at scale 18 (equal to it), and
    // values beyond every key at the column's scale.
    for (int i = 0; i < 10; ++i) {
      const Int128 stored = unscaled[rng() % n] * Pow10(fine_scale - spec.scale);
      probes.push_back({WideDecimal(stored, fine_scale), stored});
      probes.push_back({WideDecimal(stored + 1, fine_scale), stored + 1});
    }
    for (int64_t sign : {1, -1}) {
      const Int128 beyond = sign * (Pow10(19) + static_cast<Int128>(rng() % 1000));
      probes.push_back({WideDecimal(beyond, spec.scale), beyond * Pow10(fine_scale - spec.scale)});
    }
    // Far outside every key: the multiplication to the column scale overflows a long.
    if (spec.scale >= 2) {
      for (int64_t sign : {1, -1}) {
        probes.push_back({Literal::Decimal(sign * kLongMax, spec.scale - 2),
                          Int128(sign * kLongMax) * Pow10(fine_scale - spec.scale + 2)});
      }
    }
    BuildAndCheck(*column, rows, probes, type);
  }
}

TEST(BsiRandomTest, TimestampsOfEveryPrecisionBeforeAndAfter1970) {
  std::mt19937_64 rng(23);
  const size_t n = 300;
  for (int precision : {0, 3, 6, 7, 9}) {
    const std::string type = "TIMESTAMP(" + std::to_string(precision) + ")";
    // Values conform to the precision (a TIMESTAMP(3) holds whole milliseconds).
    const int64_t granule = precision == 0 ? 1000000000
                            : precision <= 3 ? 1000000
                            : precision <= 6 ? 1000
                            : precision == 7 ? 100
                                             : 1;
    std::vector<int64_t> nanos(n);
    for (size_t i = 0; i < n; ++i) {
      int64_t v = static_cast<int64_t>(rng() % 4000000000000000000ULL) - 2000000000000000000LL;
      if (i % 11 == 0) v = -1;
      if (i % 11 == 1) v = static_cast<int64_t>(rng() % 3000) - 1500;  // around the epoch
      if (i % 11 == 2 && i > 2) v = nanos[i - 1] + 1;  // differs only in the last digit
      nanos[i] = column::FloorDiv(v, granule) * granule;
    }
    const std::vector<bool> nulls = RandomNulls(rng, n, 7);
    for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
      const int64_t per_unit = unit == TimeUnit::kSecond  ? 1000000000
                               : unit == TimeUnit::kMilli ? 1000000
                               : unit == TimeUnit::kMicro ? 1000
                                                          : 1;
      if (per_unit > granule) continue;  // the unit cannot carry this precision
      std::vector<int64_t> raw(n);
      for (size_t i = 0; i < n; ++i) raw[i] = nanos[i] / per_unit;  // exact: granule | value
      auto column = Timestamps(type, unit, raw, nulls);
      std::vector<Interval> rows(n);
      for (size_t i = 0; i < n; ++i) {
        rows[i].null = nulls[i];
        rows[i].actual = nanos[i];
        if (precision <= 6) {
          rows[i].lo = rows[i].hi = nanos[i];
        } else {  // the key keeps micros only
          rows[i].lo = Int128(column::FloorDiv(nanos[i], 1000)) * 1000;
          rows[i].hi = rows[i].lo + 999;
        }
      }
      std::vector<Probe> probes;
      auto add_probe = [&probes](int64_t ns) {
        const int64_t millis = column::FloorDiv(ns, 1000000);
        const int32_t nano_of_milli = static_cast<int32_t>(ns - millis * 1000000);
        probes.push_back({Literal::Timestamp(millis, nano_of_milli), Int128(ns)});
      };
      for (int i = 0; i < 30; ++i) {
        const int64_t v = nanos[rng() % n];
        for (int64_t d : {-1000000, -1000, -1, 0, 1, 999, 1000, 1000000}) add_probe(v + d);
      }
      add_probe(0);
      add_probe(-1);
      // Beyond every key: millis * 1000 overflows a long.
      probes.push_back({Literal::Timestamp(kLongMax / 100, 0), Int128(kLongMax / 100) * 1000000});
      probes.push_back({Literal::Timestamp(kLongMin / 100, 0), Int128(kLongMin / 100) * 1000000});
      BuildAndCheck(*column, rows, probes, type + " unit " + std::to_string(per_unit));
    }
  }
}

// ---- special values, degenerate columns, large bitmaps ------------------------------------

TEST(BsiWriterTest, LongMinValueCannotBeStoredButIsAnsweredAsALiteral) {
  auto with_min = Longs("BIGINT", Physical::kInt64, {1, kLongMin, -5});
  auto failed = BuildBsi(with_min->batch);
  EXPECT_EQ(failed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(failed.status().message().find("-9223372036854775808"), std::string::npos);
  // As a NULL row it is ignored.
  auto null_min = Longs("BIGINT", Physical::kInt64, {1, kLongMin, -5}, {false, true, false});
  EXPECT_TRUE(BuildBsi(null_min->batch).ok());

  auto column = Longs("BIGINT", Physical::kInt64, {kLongMin + 1, -1, 0, kLongMax, 7},
                      {false, false, false, false, true});
  auto payload = BuildBsi(column->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBsi(column->type, *payload);
  ASSERT_TRUE(reader);
  const Literal min = Literal::Int(kLongMin);
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {min}), (Rows{}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kNotEqual, {min}), (Rows{0, 1, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {min}), (Rows{}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessOrEqual, {min}), (Rows{}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {min}), (Rows{0, 1, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterOrEqual, {min}), (Rows{0, 1, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {Literal::Int(kLongMin + 1)}), (Rows{0}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessOrEqual, {Literal::Int(kLongMin + 1)}), (Rows{0}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterOrEqual, {Literal::Int(kLongMax)}), (Rows{3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {Literal::Int(kLongMax)}), (Rows{}));
}

TEST(BsiWriterTest, DegenerateColumns) {
  // No rows at all, and only NULLs: no side is written.
  auto empty = Ints("INT", {});
  auto empty_payload = BuildBsi(empty->batch);
  ASSERT_TRUE(empty_payload.ok());
  EXPECT_EQ(*empty_payload, FromHex("01 00000000 00 00"));
  auto all_null = Ints("INT", {1, 2, 3}, {true, true, true});
  auto null_payload = BuildBsi(all_null->batch);
  ASSERT_TRUE(null_payload.ok());
  EXPECT_EQ(*null_payload, FromHex("01 00000003 00 00"));
  auto reader = OpenBsi(all_null->type, *null_payload);
  ASSERT_TRUE(reader);
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kIsNull, {}), (Rows{0, 1, 2}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {Literal::Int(-10)}), (Rows{}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kNotEqual, {Literal::Int(1)}), (Rows{}));

  // Only zeros: max = 0 gives a positive BSI with no slices at all.
  auto zeros = Ints("INT", {0, 0});
  auto zero_payload = BuildBsi(zeros->batch);
  ASSERT_TRUE(zero_payload.ok());
  // {0, 1}: two values in one run stay an array (a run only pays from four values on).
  EXPECT_EQ(*zero_payload, FromHex("01 00000002 01 01 0000000000000000 0000000000000000"
                                   " 3a300000 01000000 0000 0100 10000000 0000 0100"
                                   " 00000000 00"));
  auto zero_reader = OpenBsi(zeros->type, *zero_payload);
  ASSERT_TRUE(zero_reader);
  EXPECT_EQ(RowsOf(*zero_reader, PredicateOp::kEqual, {Literal::Int(0)}), (Rows{0, 1}));
  EXPECT_EQ(RowsOf(*zero_reader, PredicateOp::kLessThan, {Literal::Int(0)}), (Rows{}));
  EXPECT_EQ(RowsOf(*zero_reader, PredicateOp::kGreaterOrEqual, {Literal::Int(0)}), (Rows{0, 1}));
}

// The payload Java would write, built independently: every bitmap filled by single adds.
std::vector<uint8_t> ModelPayload(const std::vector<int64_t>& values,
                                  const std::vector<bool>& nulls) {
  struct Side {
    roaring::Bitmap32 ebm;
    std::vector<roaring::Bitmap32> slices = std::vector<roaring::Bitmap32>(64);
    uint64_t max = 0;
  } positive, negative;
  for (size_t r = 0; r < values.size(); ++r) {
    if (nulls[r]) continue;
    Side& side = values[r] < 0 ? negative : positive;
    const uint64_t v = values[r] < 0 ? static_cast<uint64_t>(-values[r])
                                     : static_cast<uint64_t>(values[r]);
    side.max = std::max(side.max, v);
    side.ebm.Add(static_cast<uint32_t>(r));
    for (int bit = 0; bit < 64; ++bit) {
      if ((v >> bit) & 1) side.slices[bit].Add(static_cast<uint32_t>(r));
    }
  }
  io::ByteWriter out;
  out.WriteI8(1);
  out.WriteI32BE(static_cast<int32_t>(values.size()));
  for (Side* side : {&positive, &negative}) {
    out.WriteBool(!side->ebm.IsEmpty());
    if (side->ebm.IsEmpty()) continue;
    out.WriteI8(1);
    out.WriteI64BE(0);
    out.WriteI64BE(static_cast<int64_t>(side->max));
    out.WriteBytes(side->ebm.Serialize());
    int slices = 0;
    while (slices < 64 && (side->max >> slices) != 0) ++slices;
    out.WriteI32BE(slices);
    for (int i = 0; i < slices; ++i) out.WriteBytes(side->slices[i].Serialize());
  }
  return out.Take();
}

TEST(BsiWriterTest, LargeColumnsMatchTheAddOnlyModelAndAnswerCorrectly) {
  // 200000 rows span four Roaring chunks with array, bitmap and run containers.
  std::mt19937_64 rng(24);
  const size_t n = 200000;
  std::vector<int64_t> values(n);
  std::vector<bool> nulls(n);
  for (size_t i = 0; i < n; ++i) {
    if (i < 70000) {
      values[i] = static_cast<int64_t>(i / 1000);  // long runs of equal values
    } else if (i < 140000) {
      values[i] = static_cast<int64_t>(rng() % 2000001) - 1000000;
    } else {
      values[i] = (i % 3 == 0) ? -7 : 5;
    }
    nulls[i] = (i >= 100000 && i < 100500) || rng() % 50 == 0;
  }
  auto column = Longs("BIGINT", Physical::kInt64, values, nulls);
  auto payload = BuildBsi(column->batch, 65536 + 17);
  ASSERT_TRUE(payload.ok());
  EXPECT_TRUE(*payload == ModelPayload(values, nulls));
  auto reader = OpenBsi(column->type, *payload);
  ASSERT_TRUE(reader);
  for (int64_t v : {int64_t{-1000000}, int64_t{-7}, int64_t{0}, int64_t{5}, int64_t{69},
                    int64_t{123456}}) {
    Rows lt, eq;
    for (uint32_t r = 0; r < n; ++r) {
      if (nulls[r]) continue;
      if (values[r] < v) lt.push_back(r);
      if (values[r] == v) eq.push_back(r);
    }
    EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {Literal::Int(v)}), lt) << v;
    EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {Literal::Int(v)}), eq) << v;
  }
}

// A chunk's words hold only the slices needed so far; a wider value mid-chunk re-lays them out
// in place. Values widen one bit at a time and then jump to 62 bits, inside and across chunks,
// with earlier rows' bits set in every slice.
TEST(BsiWriterTest, WideningValuesKeepTheEarlierRowsBits) {
  std::mt19937_64 rng(31);
  const size_t n = 140000;
  std::vector<int64_t> values(n);
  std::vector<bool> nulls(n);
  for (size_t i = 0; i < n; ++i) {
    const int bits = std::min<int>(1 + static_cast<int>(i / 2000), 40);
    values[i] = static_cast<int64_t>(rng() & ((uint64_t{1} << bits) - 1));
    if (i % 9 == 0) values[i] = -values[i];
    nulls[i] = rng() % 17 == 0;
  }
  values[50000] = int64_t{1} << 61;
  values[50001] = -(int64_t{1} << 62);
  nulls[50000] = nulls[50001] = false;
  auto column = Longs("BIGINT", Physical::kInt64, values, nulls);
  auto payload = BuildBsi(column->batch, 4099);
  ASSERT_TRUE(payload.ok()) << payload.status().ToString();
  EXPECT_TRUE(*payload == ModelPayload(values, nulls));
}

// A chunk whose values change at few rows is kept as runs until it has too many: chunks of
// runs (broken by NULLs and by rows of the other side), one that turns to words mid-chunk,
// runs across chunk ends and an empty chunk all match the model.
TEST(BsiWriterTest, RunsOfEqualValuesMatchTheModel) {
  std::mt19937_64 rng(77);
  const size_t n = 330000;
  std::vector<int64_t> values(n);
  std::vector<bool> nulls(n);
  int64_t value = 0;
  for (size_t i = 0; i < n; ++i) {
    // Runs of 1..400 rows in chunks 0-1, of 1..40 rows from row 150000 (too many for a
    // chunk's runs past some point), a NULL-only chunk, then long runs again.
    const size_t stretch = i < 150000 ? 400 : 40;
    if (rng() % stretch == 0) value = static_cast<int64_t>(rng() % 5000) - 300;
    values[i] = value;
    nulls[i] = (i >= 196608 && i < 262144) || rng() % 1000 == 0;
  }
  auto column = Longs("BIGINT", Physical::kInt64, values, nulls);
  auto payload = BuildBsi(column->batch, 30011);
  ASSERT_TRUE(payload.ok()) << payload.status().ToString();
  EXPECT_TRUE(*payload == ModelPayload(values, nulls));
}

// Columns whose every chunk stays runs (sorted or clustered) keep the runs to the end and
// write each bitmap straight from them: both sides, NULL rows between and across runs, one to
// six chunks (bitmaps of fewer and of more than four containers), runs over chunk ends.
TEST(BsiWriterTest, ColumnsOfRunsOnlyAreWrittenFromTheirRuns) {
  std::mt19937_64 rng(2911);
  for (int round = 0; round < 12; ++round) {
    const size_t n = 1 + static_cast<size_t>(rng() % (6 * 65536));
    const size_t stretch = 200 + rng() % 3000;
    std::vector<int64_t> values(n);
    std::vector<bool> nulls(n);
    int64_t value = static_cast<int64_t>(rng() % 100) - 50;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % stretch == 0) value += static_cast<int64_t>(rng() % 1000);  // ascending
      if (round % 4 == 3 && rng() % stretch == 0) value = -value;
      values[i] = value;
      nulls[i] = round % 2 == 1 && rng() % (stretch / 2) == 0;
    }
    auto column = Longs("BIGINT", Physical::kInt64, values, nulls);
    auto payload = BuildBsi(column->batch, 1 + static_cast<int64_t>(rng() % 100000));
    ASSERT_TRUE(payload.ok()) << payload.status().ToString();
    EXPECT_TRUE(*payload == ModelPayload(values, nulls)) << "round " << round << ", " << n
                                                           << " rows";
  }
}

TEST(BsiWriterTest, InPlaceSerializationEqualsSerializeAndHappensOnce) {
  // Both sides present, and one side only: the two-step path (the container's) writes the
  // same bytes as Serialize(); a writer serializes once and takes no rows afterwards.
  const std::vector<std::vector<int64_t>> columns = {{5, -3, 0, 1 << 20, -70000, 9},
                                                     {4, 8, 15, 16, 23, 42}};
  for (const auto& values : columns) {
    auto column = Longs("BIGINT", Physical::kInt64, values, std::vector<bool>(values.size()));
    auto expected = BuildBsi(column->batch);
    ASSERT_TRUE(expected.ok());
    ASSERT_TRUE(*expected == ModelPayload(values, std::vector<bool>(values.size())));
    auto writer = BsiIndexType().MakeWriter(column->type, Options());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(column->batch).ok());
    auto size = (*writer)->PrepareSerialize();
    ASSERT_TRUE(size.ok());
    ASSERT_EQ(*size, expected->size());
    std::vector<uint8_t> in_place(*size + 1, 0xEE);  // one guard byte after the payload
    (*writer)->SerializeTo(in_place.data());
    EXPECT_EQ(in_place.back(), 0xEE);
    in_place.pop_back();
    EXPECT_TRUE(in_place == *expected);
    EXPECT_EQ((*writer)->PrepareSerialize().status().code(), StatusCode::kInternal);
    EXPECT_EQ((*writer)->Serialize().status().code(), StatusCode::kInternal);
    EXPECT_EQ((*writer)->Write(column->batch).code(), StatusCode::kInvalidArgument);
  }
}

// ---- literals, types, describe ------------------------------------------------------------

TEST(BsiReaderTest, LiteralKindsAndNulls) {
  const DataSetB data;
  auto f2 = OpenBsi(data.f2->type, GoldenBsi(0, "f2"));
  ASSERT_TRUE(f2);
  auto status = Ask(*f2, PredicateOp::kEqual, {Literal::String("1")}).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("INT"), std::string::npos) << status.message();
  EXPECT_EQ(Ask(*f2, PredicateOp::kLessThan, {Literal::Double(1)}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Ask(*f2, PredicateOp::kIn, {Literal::Int(1), Literal::Decimal(1, 0)}).status().code(),
            StatusCode::kInvalidArgument);
  // Arities are checked by the file reader before any index sees a leaf (test_api_boundary).
  EXPECT_EQ(Ask(*f2, PredicateOp::kOr, {}).status().code(), StatusCode::kInvalidArgument);
  // Java throws a NullPointerException on NULL literals; REMAIN is the safe answer.
  for (PredicateOp op : {PredicateOp::kEqual, PredicateOp::kNotEqual, PredicateOp::kLessThan,
                         PredicateOp::kGreaterOrEqual}) {
    auto result = Ask(*f2, op, {Literal::Null()});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->kind(), FileIndexResult::Kind::kRemain) << PredicateOpName(op);
  }
  auto in_null = Ask(*f2, PredicateOp::kNotIn, {Literal::Int(1), Literal::Null()});
  ASSERT_TRUE(in_null.ok());
  EXPECT_EQ(in_null->kind(), FileIndexResult::Kind::kRemain);

  auto f4 = OpenBsi(data.f4->type, GoldenBsi(0, "f4"));
  ASSERT_TRUE(f4);
  EXPECT_EQ(Ask(*f4, PredicateOp::kEqual, {Literal::Timestamp(0, -1)}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Ask(*f4, PredicateOp::kEqual, {Literal::Int(0)}).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(BsiReaderTest, DecimalLiteralsAtOtherScales) {
  // DECIMAL(10, 2): 1.00, 1.50, -2.50, 0.00
  auto column = Longs("DECIMAL(10, 2)", Physical::kDecimal, {100, 150, -250, 0});
  auto payload = BuildBsi(column->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBsi(column->type, *payload);
  ASSERT_TRUE(reader);
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {Literal::Decimal(1, 0)}), (Rows{0}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {Literal::Decimal(15, 1)}), (Rows{1}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kEqual, {Literal::Decimal(1005, 3)}), (Rows{}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {Literal::Decimal(1005, 3)}), (Rows{0, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {Literal::Decimal(1005, 3)}), (Rows{1}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterOrEqual, {Literal::Decimal(-2501, 3)}),
            (Rows{0, 1, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {Literal::Decimal(-2499, 3)}), (Rows{2}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kNotEqual, {Literal::Decimal(1005, 3)}),
            (Rows{0, 1, 2, 3}));
  // A literal with a huge scale is a tiny number; with a negative scale a huge one.
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {Literal::Decimal(1, 60)}), (Rows{0, 1}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {Literal::Decimal(-1, 60)}), (Rows{2}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kLessThan, {Literal::Decimal(1, -30)}),
            (Rows{0, 1, 2, 3}));
  EXPECT_EQ(RowsOf(*reader, PredicateOp::kGreaterThan, {Literal::Decimal(-1, -30)}),
            (Rows{0, 1, 2, 3}));
  // A DECIMAL(38, 0) value beyond a long cannot be stored (Java's longValueExact throws).
  auto wide = WideDecimals("DECIMAL(38, 0)", {Int128(1) << 70});
  EXPECT_EQ(BuildBsi(wide->batch).status().code(), StatusCode::kInvalidArgument);
}

TEST(BsiIndexTypeTest, SupportedTypesAndRegistration) {
  for (const char* text : {"TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME",
                           "DECIMAL(5, 2)", "DECIMAL(38, 10)", "TIMESTAMP(0)", "TIMESTAMP(9)",
                           "TIMESTAMP(6) WITH LOCAL TIME ZONE"}) {
    EXPECT_TRUE(BsiIndexType().CheckType(Type(text)).ok()) << text;
  }
  for (const char* text : {"STRING", "BOOLEAN", "FLOAT", "DOUBLE", "BYTES", "ARRAY<INT>"}) {
    const Status status = BsiIndexType().CheckType(Type(text));
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(status.message().find("bsi"), std::string::npos) << status.message();
  }
  EXPECT_EQ(BsiIndexType().name(), "bsi");
  EXPECT_EQ(FindIndexType("bsi"), &BsiIndexType());
  // A batch whose layout does not carry the type.
  auto wrong = Fixed("INT", Physical::kDouble, &TestColumn::i64, std::vector<int64_t>{1});
  EXPECT_EQ(BuildBsi(wrong->batch).status().code(), StatusCode::kInvalidArgument);
}

TEST(BsiReaderTest, DescribeReportsBothSides) {
  const DataSetB data;
  auto f2 = OpenBsi(data.f2->type, GoldenBsi(0, "f2"));
  ASSERT_TRUE(f2);
  auto facts = f2->Describe();
  ASSERT_TRUE(facts.ok());
  std::map<std::string, std::string> by_name(facts->begin(), facts->end());
  EXPECT_EQ(by_name["row_count"], "8");
  EXPECT_EQ(by_name["null_count"], "1");
  EXPECT_EQ(by_name["positive.max"], "2");
  EXPECT_EQ(by_name["negative.max"], "3");
  EXPECT_EQ(by_name["negative.slices"], "2");
}

// ---- robustness ---------------------------------------------------------------------------

TEST(BsiRobustnessTest, EveryPrefixIsRejected) {
  const DataSetB data;
  for (const char* column : {"f1", "f2", "f4"}) {
    const std::vector<uint8_t> golden = GoldenBsi(0, column);
    ASSERT_FALSE(golden.empty());
    for (size_t size = 0; size < golden.size(); ++size) {
      std::vector<uint8_t> prefix(golden.begin(), golden.begin() + size);
      auto reader = BsiIndexType().OpenReader(data.column(column).type, ByteSpan(prefix));
      ASSERT_FALSE(reader.ok()) << column << " prefix " << size;
      EXPECT_EQ(reader.status().code(), StatusCode::kCorrupt) << reader.status().ToString();
    }
  }
}

TEST(BsiRobustnessTest, HandMadeDamage) {
  const DataType type = Type("INT");
  auto open = [&type](const std::string& hex) {
    const std::vector<uint8_t> bytes = FromHex(hex);
    return BsiIndexType().OpenReader(type, ByteSpan(bytes)).status();
  };
  const std::string good_side = "01 0000000000000000 0000000000000000 3a300000 01000000 0000 0000"
                                " 10000000 0000 00000000";
  EXPECT_TRUE(open("01 00000001 01 " + good_side + " 00").ok());
  EXPECT_EQ(open("02 00000001 00 00").code(), StatusCode::kNotSupported);
  EXPECT_EQ(open("01 ffffffff 00 00").code(), StatusCode::kCorrupt);  // negative row count
  EXPECT_EQ(open("01 00000000 01 " + good_side + " 00").code(),
            StatusCode::kCorrupt);  // row 0 beyond row count 0
  EXPECT_EQ(open("01 00000001 01 " + good_side + " 00 00").code(),
            StatusCode::kCorrupt);  // trailing byte
  EXPECT_EQ(open("01 00000001 01 " + good_side + " 01 " + good_side).code(),
            StatusCode::kCorrupt);  // the same row on both sides
  // Slice count disagreeing with max, negative min, min > max, a huge slice count.
  EXPECT_EQ(open("01 00000001 01 01 0000000000000000 0000000000000001 3a30000001000000000000001000"
                 "00000000 00000000 00")
                .code(),
            StatusCode::kCorrupt);
  EXPECT_EQ(open("01 00000001 01 01 ffffffffffffffff 0000000000000000 3a300000000000000000000000 00")
                .code(),
            StatusCode::kCorrupt);
  EXPECT_EQ(open("01 00000001 01 01 0000000000000005 0000000000000001 3a300000000000000000000000 00")
                .code(),
            StatusCode::kCorrupt);
  EXPECT_EQ(open("01 00000001 01 01 0000000000000000 4000000000000000 3a30000000000000 7fffffff 00")
                .code(),
            StatusCode::kCorrupt);
  // A slice holding a row (1) the existence bitmap {0} lacks: as in Java, comparisons start
  // from the EBM, so row 1 is in no answer and row 0 keeps code 0.
  const std::vector<uint8_t> stray = FromHex(
      "01 00000002 01 01 0000000000000000 0000000000000001"
      " 3a300000 01000000 0000 0000 10000000 0000 00000001"
      " 3a300000 01000000 0000 0000 10000000 0100 00");
  auto reader = BsiIndexType().OpenReader(type, ByteSpan(stray));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(RowsOf(**reader, PredicateOp::kEqual, {Literal::Int(0)}), std::vector<uint32_t>{0});
  EXPECT_TRUE(RowsOf(**reader, PredicateOp::kEqual, {Literal::Int(1)}).empty());
  EXPECT_TRUE(RowsOf(**reader, PredicateOp::kGreaterThan, {Literal::Int(0)}).empty());
  EXPECT_EQ(RowsOf(**reader, PredicateOp::kLessOrEqual, {Literal::Int(1)}),
            std::vector<uint32_t>{0});
}

TEST(BsiRobustnessTest, RandomFlipsNeverCrash) {
  const DataSetB data;
  std::mt19937_64 rng(25);
  int opened = 0;
  for (const char* column : {"f1", "f2", "f4"}) {
    const std::vector<uint8_t> golden = GoldenBsi(1, column);
    ASSERT_FALSE(golden.empty());
    for (int trial = 0; trial < 1500; ++trial) {
      std::vector<uint8_t> bytes = golden;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
      }
      auto reader = BsiIndexType().OpenReader(data.column(column).type, ByteSpan(bytes));
      if (!reader.ok()) {
        EXPECT_TRUE(reader.status().code() == StatusCode::kCorrupt ||
                    reader.status().code() == StatusCode::kNotSupported)
            << reader.status().ToString();
        continue;
      }
      ++opened;
      auto facts = (*reader)->Describe();
      ASSERT_TRUE(facts.ok());
      const std::map<std::string, std::string> by_name(facts->begin(), facts->end());
      const uint64_t row_count = std::stoull(by_name.at("row_count"));
      const Literal l = std::string(column) == "f4" ? Literal::Timestamp(1, 2) : Literal::Int(3);
      for (PredicateOp op : {PredicateOp::kEqual, PredicateOp::kNotEqual, PredicateOp::kLessThan,
                             PredicateOp::kGreaterOrEqual, PredicateOp::kIsNull}) {
        std::vector<Literal> literals;
        if (op != PredicateOp::kIsNull) literals.push_back(l);
        auto result = Ask(**reader, op, literals);
        ASSERT_TRUE(result.ok());
        ASSERT_TRUE(result->is_rows());
        // Answers stay inside the rows the payload declares.
        const RowBitmap& rows = result->rows();
        EXPECT_TRUE(rows.IsEmpty() || rows.impl().Maximum() < row_count);
      }
    }
  }
  EXPECT_GT(opened, 0);
}

}  // namespace
}  // namespace pyfileindex::index
