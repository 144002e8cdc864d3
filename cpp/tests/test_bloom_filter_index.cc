// The bloom-filter index: Java's sizing, FastHash, probe positions, byte identity with the
// Java-written golden sidecars, reader answers and robustness against damaged payloads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "column/column_batch.h"
#include "index/bloom_filter/bloom_filter_index.h"
#include "index/bloom_filter/bloom_probes.h"
#include "index/bloom_filter/bloom_shape.h"
#include "index/bloom_filter/fast_hash.h"
#include "index/bloom_filter/recent_hashes.h"
#include "index/bloom_filter/recent_values.h"
#include "index/bloom_filter/tuning.h"
#include "hash/xxh64.h"
#include "index/index_type.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/options.h"
#include "pyfileindex/predicate.h"
#include "test_support.h"

namespace pyfileindex::index {
namespace {

using bloom_filter::BloomProbes;
using bloom_filter::BloomShape;
using bloom_filter::ComputeBloomShape;
using bloom_filter::FastHash;
using bloom_filter::JavaRound;
using bloom_filter::RecentHashes;
using bloom_filter::RecentValues;
using bloom_filter::Wang64;
namespace tuning = bloom_filter::tuning;
using column::ColumnBatch;
using column::Physical;
using column::TimeUnit;
using test_support::DictionaryEncoded;
using test_support::Fixed;
using test_support::IndexPayload;
using test_support::SharedDir;
using test_support::SliceRows;
using test_support::Strings;
using test_support::TestColumn;
using test_support::Timestamps;
using test_support::Type;

// ---- helpers ------------------------------------------------------------------------------

Result<std::vector<uint8_t>> BuildBloom(const ColumnBatch& batch, const Options& options = {},
                                        int64_t batch_rows = 0) {
  PFI_ASSIGN_OR_RETURN(auto writer, BloomFilterIndexType().MakeWriter(*batch.type, options));
  if (batch_rows <= 0) batch_rows = batch.length > 0 ? batch.length : 1;
  for (int64_t begin = 0; begin < batch.length; begin += batch_rows) {
    const int64_t n = std::min(batch_rows, batch.length - begin);
    PFI_RETURN_NOT_OK(writer->Write(SliceRows(batch, begin, n)));
  }
  if (batch.length == 0) PFI_RETURN_NOT_OK(writer->Write(batch));
  return writer->Serialize();
}

std::unique_ptr<ColumnIndexReader> OpenBloom(const DataType& type,
                                             const std::vector<uint8_t>& payload) {
  auto reader = BloomFilterIndexType().OpenReader(type, ByteSpan(payload));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(reader).ValueOrDie() : nullptr;
}

FileIndexResult::Kind Answer(const ColumnIndexReader& reader, PredicateOp op,
                             std::vector<Literal> literals) {
  Predicate leaf;
  leaf.op = op;
  leaf.column = "c";
  leaf.literals = std::move(literals);
  auto result = reader.Visit(leaf);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? result->kind() : FileIndexResult::Kind::kRows;
}

Status AnswerStatus(const ColumnIndexReader& reader, PredicateOp op,
                    std::vector<Literal> literals) {
  Predicate leaf;
  leaf.op = op;
  leaf.column = "c";
  leaf.literals = std::move(literals);
  return reader.Visit(leaf).status();
}

constexpr auto kRemain = FileIndexResult::Kind::kRemain;
constexpr auto kSkip = FileIndexResult::Kind::kSkip;

// Java's probe positions with plain int arithmetic and %, as an independent reference for the
// fastmod-based BloomProbes.
std::vector<uint32_t> JavaProbePositions(uint64_t hash, int32_t k, int32_t num_bits) {
  std::vector<uint32_t> out;
  const int32_t h1 = static_cast<int32_t>(static_cast<uint32_t>(hash));
  const int32_t h2 = static_cast<int32_t>(static_cast<uint32_t>(hash >> 32));
  for (int32_t i = 1; i <= k; ++i) {
    int64_t wide = static_cast<int64_t>(h1) + static_cast<int64_t>(i) * h2;
    int32_t combined = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(wide)));
    if (combined < 0) combined = ~combined;
    out.push_back(static_cast<uint32_t>(combined % num_bits));
  }
  return out;
}

// Java's model of a whole filter: the payload it writes with `shape` for these hashes.
std::vector<uint8_t> JavaModelFilter(const BloomShape& shape, const std::vector<uint64_t>& hashes) {
  std::vector<uint8_t> model(4 + shape.num_bytes(), 0);
  model[3] = static_cast<uint8_t>(shape.num_hash_functions);
  for (uint64_t hash : hashes) {
    for (uint32_t p : JavaProbePositions(hash, shape.num_hash_functions, shape.num_bits)) {
      model[4 + (p >> 3)] |= static_cast<uint8_t>(1u << (p & 7));
    }
  }
  return model;
}

// ---- sizing -------------------------------------------------------------------------------

TEST(BloomShapeTest, MatchesJavaReferenceTable) {
  struct Row {
    int32_t items;
    double fpp;
    int32_t num_bits;
    int32_t k;
  };
  const Row rows[] = {
      {1000000, 0.1, 4792536, 3},  {1000000, 0.05, 6235232, 4}, {1000000, 0.01, 9585064, 7},
      {1000000, 0.001, 14377592, 10}, {10000, 0.1, 47928, 3},   {1000, 0.1, 4800, 3},
      {1000, 0.01, 9592, 7},       {100, 0.1, 480, 3},          {1, 0.1, 8, 6},
      {0, 0.1, 8, 1},              {0, 0.5, 8, 1},
  };
  for (const Row& row : rows) {
    auto shape = ComputeBloomShape(row.items, row.fpp);
    ASSERT_TRUE(shape.ok()) << row.items << " " << row.fpp;
    EXPECT_EQ(shape->num_bits, row.num_bits) << row.items << " " << row.fpp;
    EXPECT_EQ(shape->num_hash_functions, row.k) << row.items << " " << row.fpp;
  }
  // The defaults give the 599071-byte payload seen in every Java file.
  EXPECT_EQ(ComputeBloomShape(1000000, 0.1)->num_bytes() + 4, 599071);
}

TEST(BloomShapeTest, DegenerateOptionsFailLikeJava) {
  EXPECT_FALSE(ComputeBloomShape(1000, 0.0).ok());       // log(0) = -inf: int overflow
  EXPECT_FALSE(ComputeBloomShape(2147483647, 1e-300).ok());
  // fpp = 2: the logarithm turns positive, nb and numBits negative: Java cannot allocate.
  EXPECT_FALSE(ComputeBloomShape(1000, 2.0).ok());
  // Negative items flip the sign of the logarithm; Java still builds a tiny filter.
  auto odd = ComputeBloomShape(-1, 0.1);
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->num_bits, 8);
  EXPECT_EQ(odd->num_hash_functions, 1);
}

TEST(BloomShapeTest, JavaRoundTiesUpAndNoFloorPlusHalfError) {
  EXPECT_EQ(JavaRound(2.5), 3);
  EXPECT_EQ(JavaRound(-2.5), -2);
  EXPECT_EQ(JavaRound(0.49999999999999994), 0);
  EXPECT_EQ(JavaRound(std::nan("")), 0);
  EXPECT_EQ(JavaRound(1e300), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(JavaRound(-1e300), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(JavaRound(std::numeric_limits<double>::infinity()),
            std::numeric_limits<int64_t>::max());
}

TEST(BloomShapeTest, ItemsAndFppOptionsAreParsed) {
  const DataType type = Type("INT");
  Options options;
  options.Set("items", "1000");
  options.Set("fpp", "0.01");
  auto column = Fixed("INT", Physical::kInt32, &TestColumn::i32, std::vector<int32_t>{});
  auto payload = BuildBloom(column->batch, options);
  ASSERT_TRUE(payload.ok()) << payload.status().ToString();
  EXPECT_EQ(payload->size(), 4u + 1199u);
  EXPECT_EQ(std::vector<uint8_t>(payload->begin(), payload->begin() + 4),
            (std::vector<uint8_t>{0, 0, 0, 7}));

  Options bad_items;
  bad_items.Set("items", "3000000000");
  EXPECT_EQ(BloomFilterIndexType().MakeWriter(type, bad_items).status().code(),
            StatusCode::kInvalidArgument);
  Options bad_fpp;
  bad_fpp.Set("fpp", "zero");
  EXPECT_EQ(BloomFilterIndexType().MakeWriter(type, bad_fpp).status().code(),
            StatusCode::kInvalidArgument);
  Options zero_fpp;
  zero_fpp.Set("fpp", "0");
  EXPECT_EQ(BloomFilterIndexType().MakeWriter(type, zero_fpp).status().code(),
            StatusCode::kInvalidArgument);
}

// ---- hashing ------------------------------------------------------------------------------

TEST(FastHashTest, Wang64CheckValues) {
  EXPECT_EQ(Wang64(0), 0u);
  EXPECT_EQ(Wang64(1), 0x5BCA7C69B794F8CEULL);
  EXPECT_EQ(Wang64(-1), 0x5BCA868437950D03ULL);
  EXPECT_EQ(Wang64(100), 0xDB216D4EB642D87EULL);
  EXPECT_EQ(Wang64(-2), 0xB7950D1EEF2A1A33ULL);
  EXPECT_EQ(Wang64(0x3FC00000), 0xAD39E1C6B4E29348ULL);
  EXPECT_EQ(Wang64(0x3FF8000000000000LL), 0x3DDDFF49A005B9C8ULL);
  EXPECT_EQ(Wang64(0x7FC00000), 0x67C27C6D9936AE63ULL);
  EXPECT_EQ(Wang64(std::numeric_limits<int64_t>::min()), 0x3BE7D0F7780DE548ULL);
  EXPECT_EQ(Wang64(20), 0x2BD3CB77D7A79683ULL);
}

TEST(FastHashTest, UnsupportedTypesAreRejected) {
  for (const char* text : {"BOOLEAN", "DECIMAL(10, 2)", "ARRAY<INT>", "MAP<STRING, INT>"}) {
    const DataType type = Type(text);
    Status status = BloomFilterIndexType().CheckType(type);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(status.message().find("bloom-filter"), std::string::npos) << status.message();
    EXPECT_FALSE(BloomFilterIndexType().MakeWriter(type, Options()).ok()) << text;
  }
  for (const char* text : {"CHAR(3)", "STRING", "BINARY(2)", "BYTES", "TINYINT", "SMALLINT", "INT",
                           "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME", "TIMESTAMP(0)",
                           "TIMESTAMP(9)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"}) {
    EXPECT_TRUE(BloomFilterIndexType().CheckType(Type(text)).ok()) << text;
  }
}

TEST(FastHashTest, NaNsAreCanonicalAndSignedZerosDiffer) {
  auto hash = FastHash::For(Type("DOUBLE"));
  ASSERT_TRUE(hash.ok());
  const double quiet = std::numeric_limits<double>::quiet_NaN();
  const double other_nan = java::LongBitsToDouble(0x7ff0000000000001LL);
  EXPECT_EQ(*hash->HashLiteral(Literal::Double(quiet)).value(),
            *hash->HashLiteral(Literal::Double(other_nan)).value());
  EXPECT_NE(*hash->HashLiteral(Literal::Double(0.0)).value(),
            *hash->HashLiteral(Literal::Double(-0.0)).value());
  auto float_hash = FastHash::For(Type("FLOAT"));
  ASSERT_TRUE(float_hash.ok());
  EXPECT_EQ(*float_hash->HashLiteral(Literal::Double(quiet)).value(), Wang64(0x7FC00000));
  EXPECT_EQ(*float_hash->HashLiteral(Literal::Double(1.5)).value(), 0xAD39E1C6B4E29348ULL);
}

// ---- probe positions and the spec's worked example ----------------------------------------

TEST(BloomProbesTest, SpecSampleProbes) {
  const BloomProbes probes(4792536, 3);
  auto positions = [&probes](uint64_t hash) {
    std::vector<uint32_t> out;
    probes.ForEachPosition(hash, [&out](uint32_t p) {
      out.push_back(p);
      return true;
    });
    return out;
  };
  EXPECT_EQ(positions(0xD4A957E0CF31160BULL), (std::vector<uint32_t>{2769508, 4244115, 817627}));
  EXPECT_EQ(positions(0x9CFF2296681AE613ULL), (std::vector<uint32_t>{4119121, 3457024, 4199477}));
  EXPECT_EQ(positions(Wang64(100)), (std::vector<uint32_t>{988075, 4330322, 4001144}));
  EXPECT_EQ(positions(Wang64(20)), (std::vector<uint32_t>{907226, 2949689, 199616}));
  // Hash 0 (the value 0) sends every probe to bit 0.
  EXPECT_EQ(positions(0), (std::vector<uint32_t>{0, 0, 0}));
}

TEST(BloomProbesTest, FastModAgreesWithJavaRemainder) {
  std::mt19937_64 rng(7);
  const int32_t sizes[] = {8, 480, 4800, 4792536, 14377592, 2147483640, 1 << 30};
  for (int32_t num_bits : sizes) {
    for (int32_t k : {1, 3, 7, 30}) {
      const BloomProbes probes(static_cast<uint32_t>(num_bits), k);
      for (int trial = 0; trial < 2000; ++trial) {
        uint64_t hash = rng();
        if (trial < 4) hash = trial == 0 ? 0 : trial == 1 ? ~0ULL : trial == 2 ? 1ULL << 63 : 0x80000000ULL;
        std::vector<uint32_t> got;
        probes.ForEachPosition(hash, [&got](uint32_t p) {
          got.push_back(p);
          return true;
        });
        ASSERT_EQ(got, JavaProbePositions(hash, k, num_bits)) << num_bits << " " << hash;
      }
    }
  }
}

TEST(BloomProbesTest, AddManyEqualsAddingOneByOne) {
  // AddMany (eight hashes a step with AVX2) must set exactly Add()'s bits: any bit-set size,
  // number of probes and count, and probes whose value num_bits divides exactly.
  std::mt19937_64 rng(11);
  // 1568 and 1648: for about half of their multiples a double-precision quotient truncates
  // one low. Powers of two and their neighbours: where the exact quotient's shift changes.
  const uint32_t sizes[] = {1, 2, 3, 8, 9, 480, 1568, 1648, 4095, 4096, 4097, 4801,
                            (1u << 22) + 1, 4792536, 2147483640u, 1u << 30, 100000007};
  for (uint32_t num_bits : sizes) {
    for (int32_t k : {1, 2, 3, 7, 32, 33}) {
      const BloomProbes probes(num_bits, k);
      // Eight bytes past the bit set must stay zero: a position of num_bits would land there.
      const size_t bytes = (num_bits + 7) / 8 + 8;
      std::vector<uint8_t> expected(bytes, 0), got(bytes, 0);
      std::vector<uint64_t> hashes;
      for (int i = 0; i < 203; ++i) {
        uint64_t hash = rng();
        if (i % 5 == 0) {  // h1 + h2 a multiple of num_bits: the first probe's remainder is 0
          const uint32_t h2 = static_cast<uint32_t>(rng() >> 33);
          const uint32_t multiple = static_cast<uint32_t>(rng() % (0x7FFFFFFFu / num_bits + 1));
          const uint32_t h1 = multiple * num_bits - h2;
          hash = (uint64_t{h2} << 32) | h1;
        }
        if (i == 2) hash = ~uint64_t{0};
        if (i == 3) hash = uint64_t{1} << 63;
        if (i > 5 && i % 17 == 0) hash = hashes.back();  // a repeat
        hashes.push_back(hash);
      }
      for (uint64_t hash : hashes) probes.Add(hash, expected.data());
      probes.AddMany(hashes.data(), hashes.size(), got.data());
      ASSERT_TRUE(expected == got) << num_bits << " bits, k " << k;
      ASSERT_TRUE(std::all_of(got.end() - 8, got.end(), [](uint8_t b) { return b == 0; }));
      std::vector<uint8_t> scalar(bytes, 0);
      probes.AddManyScalar(hashes.data(), hashes.size(), scalar.data());
      ASSERT_TRUE(expected == scalar) << num_bits << " bits, k " << k;
    }
  }
  // Random sizes up to 2^24 bits (the vector path's range), every remainder checked.
  for (int round = 0; round < 300; ++round) {
    const uint32_t num_bits = static_cast<uint32_t>(rng() % (1u << 24)) + 1;
    const BloomProbes probes(num_bits, 3);
    std::vector<uint64_t> hashes(64);
    for (uint64_t& hash : hashes) hash = rng();
    std::vector<uint8_t> expected((num_bits + 7) / 8, 0), got(expected.size(), 0);
    for (uint64_t hash : hashes) probes.Add(hash, expected.data());
    probes.AddMany(hashes.data(), hashes.size(), got.data());
    ASSERT_TRUE(expected == got) << num_bits << " bits";
  }
}

TEST(FastHashTest, TimestampOverflowIsRefusedOnlyOnValidRows) {
  // TIMESTAMP(3) from seconds: a valid row whose millis overflow a long fails, naming its
  // value; the same value under a null row is not looked at.
  auto hash = FastHash::For(Type("TIMESTAMP(3)"));
  ASSERT_TRUE(hash.ok());
  const int64_t huge = std::numeric_limits<int64_t>::max() / 10;
  std::vector<int64_t> seconds = {1, huge, 2};
  for (const bool huge_is_null : {false, true}) {
    const uint8_t validity = huge_is_null ? 0b101 : 0b111;
    ColumnBatch batch;
    batch.physical = Physical::kTimestamp;
    batch.timestamp_unit = TimeUnit::kSecond;
    batch.length = 3;
    batch.null_count = huge_is_null ? 1 : 0;
    batch.validity = huge_is_null ? &validity : nullptr;
    batch.values = seconds.data();
    std::vector<uint64_t> hashes;
    const Status status = hash->ForEachHashBlock(batch, [&](uint64_t* block, size_t n) {
      hashes.insert(hashes.end(), block, block + n);
    });
    if (huge_is_null) {
      ASSERT_TRUE(status.ok()) << status.ToString();
      EXPECT_EQ(hashes, (std::vector<uint64_t>{Wang64(1000), Wang64(2000)}));
    } else {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
      EXPECT_NE(status.message().find(std::to_string(huge)), std::string::npos)
          << status.message();
    }
  }
}

TEST(FastHashTest, Wang64ManyEqualsWang64) {
  std::mt19937_64 rng(12);
  for (size_t n = 0; n < 40; ++n) {
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = rng();
      if (i % 7 == 1) keys[i] = static_cast<uint64_t>(static_cast<int64_t>(rng() % 2000) - 1000);
      if (i == 2) keys[i] = uint64_t{1} << 63;
      if (i == 3) keys[i] = ~(uint64_t{1} << 63);
    }
    std::vector<uint64_t> hashed = keys;
    bloom_filter::Wang64Many(hashed.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hashed[i], Wang64(static_cast<int64_t>(keys[i]))) << "n " << n << " i " << i;
    }
  }
}

// ---- data set B and the Java-written golden sidecars --------------------------------------

struct DataSetB {
  std::unique_ptr<TestColumn> f0 = Strings(
      "STRING", {"Alice", "Bob", "Emily", "Tony", "Lucy", "Bob", "Tony", "Alice"});
  std::unique_ptr<TestColumn> f1 =
      Fixed("INT", Physical::kInt32, &TestColumn::i32,
            std::vector<int32_t>{100, 200, 300, 50, 500, 100, 0, 20},
            {false, false, false, false, false, false, true, false});
  std::unique_ptr<TestColumn> f2 =
      Fixed("INT", Physical::kInt32, &TestColumn::i32,
            std::vector<int32_t>{-2, -3, 1, 1, -1, 2, -2, 0},
            {false, false, false, false, false, false, false, true});
  std::unique_ptr<TestColumn> f3 =
      Fixed("DOUBLE", Physical::kDouble, &TestColumn::f64,
            std::vector<double>{11.1, 12.1, 13.1, 14.1, 15.1, 16.1, 17.1, 18.1});
  std::unique_ptr<TestColumn> f4 = Timestamps(
      "TIMESTAMP(9)", TimeUnit::kNano,
      {1745542802000123000LL, 1745542902000123000LL, 1745542602000123000LL, -1744877000LL,
       -1764877000LL, 0, 1745542802000123001LL, -1724877000LL},
      {false, false, false, false, false, true, false, false});

  const TestColumn& column(const std::string& name) const {
    if (name == "f0") return *f0;
    if (name == "f1") return *f1;
    if (name == "f2") return *f2;
    if (name == "f3") return *f3;
    return *f4;
  }
};

// The payload Java wrote for (column, index type) in a golden table's only sidecar.
std::vector<uint8_t> GoldenPayload(const std::string& table_dir, const std::string& column,
                                   const std::string& index_type) {
  const std::string dir = SharedDir() + "/golden/paimon-java-tables/" + table_dir;
  // Each of these tables has exactly one data file, named in the sidecar's file name.
  static const std::pair<const char*, const char*> kSidecars[] = {
      {"append_with_bloomfilter.db",
       "append_with_bloomfilter/bucket-0/data-79a27bc0-bcec-4062-9915-83ec8eb1622d-0.parquet.index"},
      {"append_with_bsi.db",
       "append_with_bsi/bucket-0/data-af9e31b7-b44d-4a0e-85ae-5877d224ec9f-0.parquet.index"},
      {"append_with_bsi_bitmap_bloomfilter.db",
       "append_with_bsi_bitmap_bloomfilter/bucket-0/"
       "data-15f89029-c10f-437f-b819-338c3e8ab2ee-0.parquet.index"},
  };
  std::string path;
  for (const auto& sidecar : kSidecars) {
    if (table_dir == sidecar.first) path = dir + "/" + sidecar.second;
  }
  return IndexPayload(path, column, index_type);
}

class BloomGoldenTablesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BloomGoldenTablesTest, RebuiltPayloadsEqualJavaBytes) {
  const DataSetB data;
  for (const char* column : {"f0", "f1", "f2", "f3", "f4"}) {
    const std::vector<uint8_t> golden = GoldenPayload(GetParam(), column, "bloom-filter");
    ASSERT_EQ(golden.size(), 599071u) << column;
    auto rebuilt = BuildBloom(data.column(column).batch);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
    EXPECT_TRUE(*rebuilt == golden) << column << ": rebuilt bytes differ from Java's";
    // Row by row gives the same bytes as all at once.
    auto row_by_row = BuildBloom(data.column(column).batch, Options(), 1);
    ASSERT_TRUE(row_by_row.ok());
    EXPECT_TRUE(*row_by_row == golden) << column;
  }
}

INSTANTIATE_TEST_SUITE_P(JavaTables, BloomGoldenTablesTest,
                         ::testing::Values("append_with_bloomfilter.db",
                                           "append_with_bsi_bitmap_bloomfilter.db"));

TEST(BloomGoldenTest, SetBitCountsAndAddressing) {
  // Spec 8.1: f0 has 15 set bits, f1 18, f2 15, f3 24, f4 18 (rows 0 and 6 share one micros).
  const std::pair<const char*, int> expected[] = {
      {"f0", 15}, {"f1", 18}, {"f2", 15}, {"f3", 24}, {"f4", 18}};
  for (const auto& [column, bits] : expected) {
    const std::vector<uint8_t> golden =
        GoldenPayload("append_with_bloomfilter.db", column, "bloom-filter");
    ASSERT_GT(golden.size(), 4u);
    int set = 0;
    for (size_t i = 4; i < golden.size(); ++i) set += __builtin_popcount(golden[i]);
    EXPECT_EQ(set, bits) << column;
  }
  // "Alice" probes bit 2769508 -> bit-set byte 346188, bit 4 (LSB first).
  const std::vector<uint8_t> f0 = GoldenPayload("append_with_bloomfilter.db", "f0", "bloom-filter");
  ASSERT_EQ(f0.size(), 599071u);
  EXPECT_EQ(f0[4 + 346188], 0x10);
}

TEST(BloomGoldenTest, JavaWrittenFiltersAnswerEqualityAndIn) {
  const char* table = "append_with_bloomfilter.db";
  const DataSetB data;
  std::deque<std::vector<uint8_t>> payloads;  // readers borrow their payload's bytes
  auto reader_for = [&](const char* column) {
    payloads.push_back(GoldenPayload(table, column, "bloom-filter"));
    return OpenBloom(data.column(column).type, payloads.back());
  };
  auto f0 = reader_for("f0");
  auto f1 = reader_for("f1");
  auto f2 = reader_for("f2");
  auto f3 = reader_for("f3");
  auto f4 = reader_for("f4");
  ASSERT_TRUE(f0 && f1 && f2 && f3 && f4);

  for (const char* name : {"Alice", "Bob", "Emily", "Tony", "Lucy"}) {
    EXPECT_EQ(Answer(*f0, PredicateOp::kEqual, {Literal::String(name)}), kRemain) << name;
  }
  EXPECT_EQ(Answer(*f0, PredicateOp::kEqual, {Literal::String("Zed")}), kSkip);
  EXPECT_EQ(Answer(*f0, PredicateOp::kIn, {Literal::String("Zed"), Literal::String("Bob")}),
            kRemain);
  EXPECT_EQ(Answer(*f0, PredicateOp::kIn, {Literal::String("Zed"), Literal::String("Ann")}),
            kSkip);
  for (int64_t v : {100, 200, 300, 50, 500, 20}) {
    EXPECT_EQ(Answer(*f1, PredicateOp::kEqual, {Literal::Int(v)}), kRemain) << v;
  }
  EXPECT_EQ(Answer(*f1, PredicateOp::kEqual, {Literal::Int(999)}), kSkip);
  for (int64_t v : {-3, -2, -1, 1, 2}) {
    EXPECT_EQ(Answer(*f2, PredicateOp::kEqual, {Literal::Int(v)}), kRemain) << v;
  }
  EXPECT_EQ(Answer(*f2, PredicateOp::kEqual, {Literal::Int(7)}), kSkip);
  EXPECT_EQ(Answer(*f3, PredicateOp::kEqual, {Literal::Double(16.1)}), kRemain);
  EXPECT_EQ(Answer(*f3, PredicateOp::kEqual, {Literal::Double(1.5)}), kSkip);
  // f4 is TIMESTAMP(9): row 0 is 1745542802000 ms + 123000 ns; row 6 differs by 1 ns only.
  EXPECT_EQ(Answer(*f4, PredicateOp::kEqual, {Literal::Timestamp(1745542802000LL, 123000)}),
            kRemain);
  EXPECT_EQ(Answer(*f4, PredicateOp::kEqual, {Literal::Timestamp(1745542802000LL, 123001)}),
            kRemain);
  // -1744877000 ns = -1745 ms + 123000 ns.
  EXPECT_EQ(Answer(*f4, PredicateOp::kEqual, {Literal::Timestamp(-1745, 123000)}), kRemain);
  EXPECT_EQ(Answer(*f4, PredicateOp::kEqual, {Literal::Timestamp(0, 0)}), kSkip);

  // Everything else the filter cannot decide.
  EXPECT_EQ(Answer(*f1, PredicateOp::kNotEqual, {Literal::Int(999)}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kLessThan, {Literal::Int(-5)}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kGreaterOrEqual, {Literal::Int(5000)}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kBetween, {Literal::Int(1), Literal::Int(2)}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kNotIn, {Literal::Int(1)}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kIsNull, {}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kIsNotNull, {}), kRemain);
  // A NULL literal: Java answers REMAIN.
  EXPECT_EQ(Answer(*f1, PredicateOp::kEqual, {Literal::Null()}), kRemain);
  EXPECT_EQ(Answer(*f1, PredicateOp::kIn, {Literal::Int(999), Literal::Null()}), kRemain);
  // An empty IN list matches nothing.
  EXPECT_EQ(Answer(*f1, PredicateOp::kIn, {}), kSkip);
}

TEST(BloomReaderTest, WrongLiteralKindsAreInvalidArguments) {
  const DataSetB data;
  auto payload = BuildBloom(data.f1->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBloom(data.f1->type, *payload);
  ASSERT_TRUE(reader);
  Status status = AnswerStatus(*reader, PredicateOp::kEqual, {Literal::String("100")});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("INT"), std::string::npos) << status.message();
  EXPECT_EQ(AnswerStatus(*reader, PredicateOp::kEqual, {Literal::Double(100)}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(AnswerStatus(*reader, PredicateOp::kIn, {Literal::Int(100), Literal::Bool(true)})
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(AnswerStatus(*reader, PredicateOp::kLessThan, {Literal::String("x")}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(AnswerStatus(*reader, PredicateOp::kAnd, {}).code(), StatusCode::kInvalidArgument);

  auto ts_payload = BuildBloom(data.f4->batch);
  ASSERT_TRUE(ts_payload.ok());
  auto ts_reader = OpenBloom(data.f4->type, *ts_payload);
  ASSERT_TRUE(ts_reader);
  EXPECT_EQ(AnswerStatus(*ts_reader, PredicateOp::kEqual, {Literal::Timestamp(0, 1000000)}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(AnswerStatus(*ts_reader, PredicateOp::kEqual, {Literal::Int(0)}).code(),
            StatusCode::kInvalidArgument);
}

TEST(BloomReaderTest, IntegerLiteralsOutsideTheColumnRangeAreNeverNarrowed) {
  // 300 would narrow to the TINYINT 44; the file holds 44, but no TINYINT equals 300.
  auto column = Fixed("TINYINT", Physical::kInt8, &TestColumn::i8, std::vector<int8_t>{44, -128});
  auto payload = BuildBloom(column->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBloom(column->type, *payload);
  ASSERT_TRUE(reader);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Int(44)}), kRemain);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Int(-128)}), kRemain);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Int(300)}), kSkip);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Int(-129)}), kSkip);
  EXPECT_EQ(Answer(*reader, PredicateOp::kLessThan, {Literal::Int(1000)}), kRemain);

  auto ints = Fixed("INT", Physical::kInt32, &TestColumn::i32, std::vector<int32_t>{-1});
  auto int_payload = BuildBloom(ints->batch);
  ASSERT_TRUE(int_payload.ok());
  auto int_reader = OpenBloom(ints->type, *int_payload);
  ASSERT_TRUE(int_reader);
  EXPECT_EQ(Answer(*int_reader, PredicateOp::kEqual, {Literal::Int(-1)}), kRemain);
  EXPECT_EQ(Answer(*int_reader, PredicateOp::kEqual, {Literal::Int(0xFFFFFFFFLL)}), kSkip);
}

// ---- every type against brute force on random data ----------------------------------------

// Builds a filter over `column` in uneven batches and checks: every stored value answers
// REMAIN, every probe answers exactly what Java's own probe arithmetic predicts, and the bytes do
// not depend on how the rows were split into batches.
void CheckAgainstJavaModel(const TestColumn& column, const std::vector<Literal>& stored,
                           const std::vector<uint64_t>& stored_hashes,
                           const std::vector<Literal>& probes,
                           const std::vector<uint64_t>& probe_hashes) {
  Options options;
  options.Set("items", "500");
  options.Set("fpp", "0.05");
  auto payload = BuildBloom(column.batch, options, 37);
  ASSERT_TRUE(payload.ok()) << payload.status().ToString();
  auto whole = BuildBloom(column.batch, options);
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(*payload == *whole);

  // Java's model: the same filter built with JavaProbePositions from the expected hashes.
  const BloomShape shape = *ComputeBloomShape(500, 0.05);
  const std::vector<uint8_t> model = JavaModelFilter(shape, stored_hashes);
  ASSERT_TRUE(*payload == model) << column.type.ToString();

  auto reader = OpenBloom(column.type, *payload);
  ASSERT_TRUE(reader);
  for (const Literal& literal : stored) {
    EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {literal}), kRemain) << literal.ToString();
  }
  int skipped = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    bool all_set = true;
    for (uint32_t p :
         JavaProbePositions(probe_hashes[i], shape.num_hash_functions, shape.num_bits)) {
      all_set = all_set && ((model[4 + (p >> 3)] >> (p & 7)) & 1);
    }
    EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {probes[i]}), all_set ? kRemain : kSkip)
        << probes[i].ToString();
    skipped += all_set ? 0 : 1;
  }
  EXPECT_GT(skipped, 0) << "the filter skips nothing: it is not discriminating";
}

// ---- skipping repeated hashes --------------------------------------------------------------

TEST(BloomRecentHashesTest, KeepsNewHashesInOrderAndPausesWhenMostAreNew) {
  RecentHashes recent;
  std::vector<uint64_t> hashes = {5, 7, 5, 5, 9, 7, 5, 7};
  EXPECT_EQ(recent.KeepNew(hashes.data(), hashes.size()), 3u);
  EXPECT_EQ(std::vector<uint64_t>(hashes.begin(), hashes.begin() + 3),
            std::vector<uint64_t>({5, 7, 9}));
  // Slot collisions evict: 5 + 1024 shares 5's slot, so 5 counts as new after it.
  std::vector<uint64_t> evicting = {5, 5 + 1024, 5, 7, 7, 7, 7, 7, 7, 7};
  EXPECT_EQ(recent.KeepNew(evicting.data(), evicting.size()), 2u);
  EXPECT_EQ(std::vector<uint64_t>(evicting.begin(), evicting.begin() + 2),
            std::vector<uint64_t>({5 + 1024, 5}));

  // A block of mostly new hashes pauses the table: the next kRecentHashesPauseBlocks blocks pass as they
  // are, then it filters again (and still knows the hashes it saw).
  std::vector<uint64_t> fresh(16);
  for (size_t i = 0; i < fresh.size(); ++i) fresh[i] = 100 + i;
  EXPECT_EQ(recent.KeepNew(fresh.data(), fresh.size()), fresh.size());
  for (uint32_t b = 0; b < tuning::kRecentHashesPauseBlocks; ++b) {
    std::vector<uint64_t> repeated = {5, 5, 5, 5};
    ASSERT_EQ(recent.KeepNew(repeated.data(), repeated.size()), 4u) << b;
  }
  std::vector<uint64_t> repeated = {100, 101, 100, 7};
  EXPECT_EQ(recent.KeepNew(repeated.data(), repeated.size()), 0u);
}

TEST(BloomRecentHashesTest, PhasesOfRepeatedAndDistinctValuesGiveThePlainFilter) {
  // Few values, then distinct ones (the table pauses), few again (it resumes), then a middle
  // cardinality: in every split into batches the bytes equal a filter that sets every row's
  // bits.
  std::mt19937_64 rng(3);
  std::vector<int64_t> values;
  std::vector<bool> nulls;
  for (int i = 0; i < 200000; ++i) {
    const int phase = i / 50000;
    const int64_t v = phase == 1   ? static_cast<int64_t>(rng())
                      : phase == 3 ? static_cast<int64_t>(rng() % 700)
                                   : static_cast<int64_t>(rng() % 20) + 1000 * phase;
    values.push_back(v);
    nulls.push_back(rng() % 7 == 0);
  }
  auto column = Fixed("BIGINT", Physical::kInt64, &TestColumn::i64, values, nulls);
  std::vector<uint64_t> hashes;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!nulls[i]) hashes.push_back(Wang64(values[i]));
  }
  const std::vector<uint8_t> model =
      JavaModelFilter(*ComputeBloomShape(1000000, 0.1), hashes);  // the default shape
  for (int64_t batch_rows : {int64_t{0}, int64_t{37}, int64_t{4096}}) {
    auto payload = BuildBloom(column->batch, Options(), batch_rows);
    ASSERT_TRUE(payload.ok()) << payload.status().ToString();
    ASSERT_TRUE(*payload == model) << "batches of " << batch_rows;
  }
}

// ---- skipping repeated byte values -------------------------------------------------------

// RecentValues over `values`, as the writer calls it.
std::vector<std::string> KeepNewValues(RecentValues& recent, const std::vector<std::string>& values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  std::vector<std::string_view> out(values.size());
  const size_t kept = recent.KeepNew(views.data(), views.size(), out.data());
  return std::vector<std::string>(out.begin(), out.begin() + kept);
}

TEST(BloomRecentValuesTest, KeepsNewValuesInOrderAndLongOnesAlways) {
  RecentValues recent(tuning::kRecentValuesMaxSlotBits);
  const std::string long_value(tuning::kRecentValueMaxBytes + 1, 'x');
  const std::string longest_kept(tuning::kRecentValueMaxBytes, 'x');
  EXPECT_EQ(KeepNewValues(recent, {"b", "a", "b", "", "", long_value, "a", long_value,
                                   longest_kept, longest_kept}),
            (std::vector<std::string>{"b", "a", "", long_value, long_value, longest_kept}));
  // Recorded across calls; a value of up to kRecentValueMaxBytes is never dropped unless seen.
  EXPECT_EQ(KeepNewValues(recent, {"a", "b", "c", "", longest_kept, "c"}),
            (std::vector<std::string>{"c"}));
}

TEST(BloomRecentValuesTest, ValuesDifferingInOneByteOrInLengthAreNeverTakenForEachOther) {
  // For every size the key covers, a value one byte away from a recorded one (at every
  // position), or a prefix of it, is new: the key must read every byte and the size.
  std::mt19937_64 rng(5);
  for (size_t size = 0; size <= tuning::kRecentValueMaxBytes; ++size) {
    std::string base(size, '\0');
    for (char& c : base) c = static_cast<char>(rng());
    for (size_t at = 0; at < size; ++at) {
      RecentValues recent(tuning::kRecentValuesMaxSlotBits);
      std::string changed = base;
      changed[at] = static_cast<char>(changed[at] ^ 0x01);
      ASSERT_EQ(KeepNewValues(recent, {base, base}).size(), 1u) << size;
      ASSERT_EQ(KeepNewValues(recent, {changed}).size(), 1u) << "size " << size << " byte " << at;
    }
    if (size > 0) {
      RecentValues recent(tuning::kRecentValuesMaxSlotBits);
      KeepNewValues(recent, {base});
      const std::string shorter = base.substr(0, size - 1);
      ASSERT_EQ(KeepNewValues(recent, {shorter}).size(), 1u) << size;
      ASSERT_EQ(KeepNewValues(recent, {base + '\0'}).size(), 1u) << size;
    }
  }
}

TEST(BloomRecentValuesTest, PausesWhenMostValuesAreNew) {
  RecentValues recent(tuning::kRecentValuesMaxSlotBits);
  ASSERT_TRUE(recent.Consult());
  std::vector<std::string> fresh;
  for (int i = 0; i < 16; ++i) fresh.push_back("value-" + std::to_string(i));
  EXPECT_EQ(KeepNewValues(recent, fresh).size(), fresh.size());
  for (uint32_t b = 0; b < tuning::kRecentValuesPauseBlocks; ++b) {
    ASSERT_FALSE(recent.Consult()) << b;
  }
  ASSERT_TRUE(recent.Consult());
  EXPECT_EQ(KeepNewValues(recent, {"value-3", "value-3", "value-7", "new"}),
            (std::vector<std::string>{"new"}));
}

TEST(BloomRecentValuesTest, PausesLongerWhileNearlyEveryValueIsNew) {
  // Each block of all-new values doubles the pause, up to kRecentValuesMaxPauseBlocks; a block that pays
  // brings the checks back to every kRecentValuesPauseBlocks + 1 blocks.
  RecentValues recent(tuning::kRecentValuesMaxSlotBits);
  int next = 0;
  auto fresh_block = [&next]() {
    std::vector<std::string> block;
    for (int i = 0; i < 64; ++i) block.push_back("fresh-" + std::to_string(next++));
    return block;
  };
  auto paused_blocks = [&recent]() {
    uint32_t paused = 0;
    while (!recent.Consult()) ++paused;
    return paused;
  };
  uint32_t expected = tuning::kRecentValuesPauseBlocks;
  for (int round = 0; round < 8; ++round) {
    ASSERT_EQ(KeepNewValues(recent, fresh_block()).size(), 64u);
    ASSERT_EQ(paused_blocks(), expected) << round;
    expected = std::min(2 * expected, tuning::kRecentValuesMaxPauseBlocks);
  }
  EXPECT_EQ(expected, tuning::kRecentValuesMaxPauseBlocks);
  // A block of repeats pays: no pause at all, and the next all-new block pauses briefly again.
  const std::vector<std::string> repeats(64, "repeated");
  EXPECT_EQ(KeepNewValues(recent, repeats).size(), 1u);
  EXPECT_TRUE(recent.Consult());
  ASSERT_EQ(KeepNewValues(recent, fresh_block()).size(), 64u);
  EXPECT_EQ(paused_blocks(), tuning::kRecentValuesPauseBlocks);
}

TEST(BloomRecentValuesTest, ThrashedTablePausesBriefly) {
  // Half the values new: the table may still grow, so its checks are not spaced out.
  RecentValues recent(tuning::kRecentValuesMaxSlotBits);
  std::vector<std::string> block;
  for (int i = 0; i < 32; ++i) block.push_back("kept-" + std::to_string(i));
  KeepNewValues(recent, block);  // all new: a first pause of kRecentValuesPauseBlocks
  while (!recent.Consult()) {
  }
  for (int round = 0; round < 4; ++round) {
    std::vector<std::string> half = block;
    for (int i = 0; i < 32; ++i) {
      half.push_back("new-" + std::to_string(round) + "-" + std::to_string(i));
    }
    const size_t kept = KeepNewValues(recent, half).size();
    ASSERT_GE(kept, 32u);  // the new ones, and any earlier value a collision evicted
    ASSERT_LE(kept, 48u);
    uint32_t paused = 0;
    while (!recent.Consult()) ++paused;
    // The first pause is the one the all-new block before set (doubled); then no growth.
    EXPECT_EQ(paused, round == 0 ? 2 * tuning::kRecentValuesPauseBlocks
                                 : tuning::kRecentValuesPauseBlocks)
        << round;
  }
}

TEST(BloomRecentValuesTest, TableSizeFollowsTheFilter) {
  // At most a third of the bit set: Paimon's default filter (599,071 bytes) gets the largest
  // table, smaller filters smaller ones, tiny filters none.
  const auto bytes_of = [](int bits) { return (size_t{1} << bits) * 40; };
  EXPECT_EQ(RecentValues::MaxSlotBitsFor(599071), tuning::kRecentValuesMaxSlotBits);
  EXPECT_EQ(RecentValues::MaxSlotBitsFor(3 * bytes_of(9)), 9);
  EXPECT_EQ(RecentValues::MaxSlotBitsFor(3 * bytes_of(9) - 1), 8);
  EXPECT_EQ(RecentValues::MaxSlotBitsFor(3 * bytes_of(tuning::kRecentValuesMinSlotBits) - 1), 0);
  for (size_t bytes : {size_t{600}, size_t{12000}, size_t{100000}, size_t{599071}}) {
    const int bits = RecentValues::MaxSlotBitsFor(bytes);
    if (bits > 0) {
      EXPECT_LE(3 * bytes_of(bits), bytes) << bytes;
    }
  }
}

TEST(BloomRecentValuesTest, GrowsOnceWhenALargeFileKeepsMissing) {
  // Few values: every block hits, the table stays small however many rows pass.
  RecentValues few(tuning::kRecentValuesMaxSlotBits);
  const std::vector<std::string> repeats(1000, "status-ok");
  for (int b = 0; b < 100; ++b) KeepNewValues(few, repeats);
  EXPECT_EQ(few.slot_count(), size_t{1} << (tuning::kRecentValuesMaxSlotBits - 2));

  // 1500 values thrash 1024 slots: past kRecentValuesGrowAfterRows rows it grows, forgetting what it saw,
  // then finds nearly all of them.
  RecentValues many(tuning::kRecentValuesMaxSlotBits);
  std::vector<std::string> block;
  for (int i = 0; i < 1000; ++i) block.push_back("v" + std::to_string((i * 7919) % 1500));
  uint64_t rows = 0;
  while (many.slot_count() == (size_t{1} << (tuning::kRecentValuesMaxSlotBits - 2))) {
    ASSERT_LT(rows, 2 * tuning::kRecentValuesGrowAfterRows) << "never grew";
    if (many.Consult()) {
      KeepNewValues(many, block);
      rows += block.size();
    }
  }
  EXPECT_EQ(many.slot_count(), size_t{1} << tuning::kRecentValuesMaxSlotBits);
  EXPECT_GE(rows, tuning::kRecentValuesGrowAfterRows);
  while (!many.Consult()) {
  }
  KeepNewValues(many, block);  // records the block again
  while (!many.Consult()) {
  }
  EXPECT_LT(KeepNewValues(many, block).size(), block.size() / 4);
}

// A STRING column in each layout the writer reads: views, or Arrow's offsets (32 or 64 bit),
// with or without nulls. Owns its buffers.
struct StringLayout {
  DataType type = Type("STRING");
  std::vector<std::string_view> views;
  std::string data;
  std::vector<int32_t> offsets32;
  std::vector<int64_t> offsets64;
  std::vector<uint8_t> validity;
  ColumnBatch batch;

  StringLayout(const std::vector<std::string>& values, const std::vector<bool>& nulls,
               int layout) {
    offsets64.push_back(0);
    for (const std::string& v : values) {
      data += v;
      offsets64.push_back(static_cast<int64_t>(data.size()));
    }
    for (int64_t o : offsets64) offsets32.push_back(static_cast<int32_t>(o));
    for (size_t i = 0; i < values.size(); ++i) {
      views.emplace_back(data.data() + offsets64[i], values[i].size());
    }
    batch.type = &type;
    batch.physical = Physical::kBytes;
    batch.length = static_cast<int64_t>(values.size());
    batch.string_data = data.data();
    if (layout == 0) batch.strings = views.data();
    if (layout == 1) batch.offsets32 = offsets32.data();
    if (layout == 2) batch.offsets64 = offsets64.data();
    int64_t null_count = 0;
    validity.assign((values.size() + 7) / 8, 0);
    for (size_t i = 0; i < nulls.size(); ++i) {
      if (nulls[i]) ++null_count;
      else validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
    if (null_count > 0) {
      batch.validity = validity.data();
      batch.null_count = null_count;
    }
  }

  ColumnBatch Rows(int64_t begin, int64_t length) const {
    ColumnBatch part = batch;
    part.length = length;
    part.validity_offset = batch.validity_offset + begin;
    if (part.strings != nullptr) part.strings += begin;
    if (part.offsets32 != nullptr) part.offsets32 += begin;
    if (part.offsets64 != nullptr) part.offsets64 += begin;
    return part;
  }
};

TEST(BloomRecentValuesTest, StringPhasesGiveThePlainFilterInEveryLayout) {
  // Few values of every length 0..40 (the table drops their repeats), distinct ones (it
  // pauses), few again (it resumes), values one byte apart, and a middle cardinality: in
  // every layout and split into batches the bytes equal a filter that sets every row's bits.
  std::mt19937_64 rng(9);
  std::vector<std::string> few;
  for (int i = 0; i < 24; ++i) {
    std::string v(rng() % 41, 'a');
    for (char& c : v) c = static_cast<char>('a' + rng() % 3);
    few.push_back(v);
  }
  std::vector<std::string> values;
  std::vector<bool> nulls;
  for (int i = 0; i < 120000; ++i) {
    const int phase = i / 24000;
    std::string v;
    if (phase == 0 || phase == 2) {
      v = few[rng() % few.size()];
    } else if (phase == 1) {
      v = "distinct-" + std::to_string(rng());
    } else if (phase == 3) {
      v = few[rng() % few.size()];
      if (!v.empty()) v[rng() % v.size()] ^= 0x20;  // one byte apart from a recorded value
    } else {
      v = "mid-" + std::to_string(rng() % 1500);
    }
    values.push_back(v);
    nulls.push_back(rng() % 9 == 0);
  }
  for (bool with_nulls : {false, true}) {
    std::vector<uint64_t> hashes;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!with_nulls || !nulls[i]) hashes.push_back(hash::Xxh64(values[i]));
    }
    const std::vector<uint8_t> model = JavaModelFilter(*ComputeBloomShape(1000000, 0.1), hashes);
    for (int layout = 0; layout < 3; ++layout) {
      const StringLayout column(values, with_nulls ? nulls : std::vector<bool>{}, layout);
      for (int64_t batch_rows : {int64_t{0}, int64_t{37}, int64_t{4096}}) {
        auto writer = BloomFilterIndexType().MakeWriter(column.type, Options());
        ASSERT_TRUE(writer.ok()) << writer.status().ToString();
        const int64_t step = batch_rows > 0 ? batch_rows : column.batch.length;
        for (int64_t begin = 0; begin < column.batch.length; begin += step) {
          const int64_t n = std::min(step, column.batch.length - begin);
          ASSERT_TRUE((*writer)->Write(column.Rows(begin, n)).ok());
        }
        auto payload = (*writer)->Serialize();
        ASSERT_TRUE(payload.ok()) << payload.status().ToString();
        ASSERT_TRUE(*payload == model)
            << "layout " << layout << ", nulls " << with_nulls << ", batches of " << batch_rows;
      }
    }
  }
}

TEST(BloomWriterTest, NullRowsOffsetsThatPointAnywhereAreNeverRead) {
  // Distinct strings (the recent-values table pauses, so blocks are hashed from the offsets),
  // a tenth of them null in pairs whose shared offset points far outside the data, or
  // backwards: the filter is that of the valid rows, and no null row's bytes are read. With
  // every offset in order, null rows are hashed and dropped: the same filter.
  std::vector<std::string> values;
  std::vector<bool> nulls;
  for (int i = 0; i < 60000; ++i) {
    values.push_back("distinct-" + std::to_string(i * 7919));
    nulls.push_back(i % 20 == 10 || i % 20 == 11);
  }
  std::vector<uint64_t> hashes;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!nulls[i]) hashes.push_back(hash::Xxh64(values[i]));
  }
  const std::vector<uint8_t> model = JavaModelFilter(*ComputeBloomShape(1000000, 0.1), hashes);
  auto expect_model = [&model](const StringLayout& column, const std::string& what) {
    auto writer = BloomFilterIndexType().MakeWriter(column.type, Options());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->Write(column.batch).ok()) << what;
    auto payload = (*writer)->Serialize();
    ASSERT_TRUE(payload.ok()) << payload.status().ToString();
    EXPECT_TRUE(*payload == model) << what;
  };
  for (int garbage = 0; garbage < 3; ++garbage) {
    for (int layout = 1; layout < 3; ++layout) {
      StringLayout column(values, nulls, layout);
      for (size_t i = 11; i < values.size(); i += 20) {  // between null rows i - 1 and i
        const int64_t bad = garbage == 0 ? int64_t{1} << 30 : garbage == 1 ? 0 : -5;
        column.offsets32[i] = static_cast<int32_t>(bad);
        column.offsets64[i] = bad;
      }
      ASSERT_FALSE(column.batch.NullRowsSpanValidBytes());
      expect_model(column, "garbage " + std::to_string(garbage) + ", layout " +
                               std::to_string(layout));
    }
  }
  for (int layout = 1; layout < 3; ++layout) {
    const StringLayout column(values, nulls, layout);
    ASSERT_TRUE(column.batch.NullRowsSpanValidBytes());
    expect_model(column, "in order, layout " + std::to_string(layout));
  }
}

TEST(BloomRandomTest, IntegralTypesIncludingExtremes) {
  std::mt19937_64 rng(11);
  const int n = 300;
  std::vector<int64_t> values;
  std::vector<bool> nulls;
  for (int i = 0; i < n; ++i) {
    int64_t v = static_cast<int64_t>(rng());
    if (i % 10 == 0) v = std::numeric_limits<int64_t>::min();
    if (i % 10 == 1) v = std::numeric_limits<int64_t>::max();
    if (i % 10 == 2) v = 0;
    values.push_back(v);
    nulls.push_back(rng() % 5 == 0);
  }
  auto hashes_of = [&](auto narrow) {
    std::vector<Literal> stored;
    std::vector<uint64_t> hashes;
    for (int i = 0; i < n; ++i) {
      if (nulls[i]) continue;
      const int64_t v = narrow(values[i]);
      stored.push_back(Literal::Int(v));
      hashes.push_back(Wang64(v));
    }
    return std::make_pair(stored, hashes);
  };
  std::vector<Literal> probes;
  for (int i = 0; i < 200; ++i) probes.push_back(Literal::Int(static_cast<int8_t>(rng())));

  {  // BIGINT
    auto column = Fixed("BIGINT", Physical::kInt64, &TestColumn::i64, values, nulls);
    auto [stored, hashes] = hashes_of([](int64_t v) { return v; });
    std::vector<Literal> big_probes;
    std::vector<uint64_t> big_hashes;
    for (int i = 0; i < 200; ++i) {
      const int64_t v = static_cast<int64_t>(rng());
      big_probes.push_back(Literal::Int(v));
      big_hashes.push_back(Wang64(v));
    }
    CheckAgainstJavaModel(*column, stored, hashes, big_probes, big_hashes);
  }
  {  // INT, DATE and TIME share the layout
    for (const char* type : {"INT", "DATE", "TIME"}) {
      std::vector<int32_t> narrow_values;
      for (int64_t v : values) narrow_values.push_back(static_cast<int32_t>(v));
      auto column = Fixed(type, Physical::kInt32, &TestColumn::i32, narrow_values, nulls);
      auto [stored, hashes] = hashes_of([](int64_t v) { return int64_t{static_cast<int32_t>(v)}; });
      std::vector<uint64_t> probe_hashes;
      for (const Literal& l : probes) probe_hashes.push_back(Wang64(l.int_value()));
      CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
    }
  }
  {  // SMALLINT
    std::vector<int16_t> narrow_values;
    for (int64_t v : values) narrow_values.push_back(static_cast<int16_t>(v));
    auto column = Fixed("SMALLINT", Physical::kInt16, &TestColumn::i16, narrow_values, nulls);
    auto [stored, hashes] = hashes_of([](int64_t v) { return int64_t{static_cast<int16_t>(v)}; });
    std::vector<uint64_t> probe_hashes;
    for (const Literal& l : probes) probe_hashes.push_back(Wang64(l.int_value()));
    CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
  }
  {  // TINYINT
    std::vector<int8_t> narrow_values;
    for (int64_t v : values) narrow_values.push_back(static_cast<int8_t>(v));
    auto column = Fixed("TINYINT", Physical::kInt8, &TestColumn::i8, narrow_values, nulls);
    auto [stored, hashes] = hashes_of([](int64_t v) { return int64_t{static_cast<int8_t>(v)}; });
    std::vector<Literal> small_probes;
    std::vector<uint64_t> probe_hashes;
    for (int v = -128; v <= 127; ++v) {
      small_probes.push_back(Literal::Int(v));
      probe_hashes.push_back(Wang64(v));
    }
    Options options;
    CheckAgainstJavaModel(*column, stored, hashes, small_probes, probe_hashes);
  }
}

TEST(BloomRandomTest, FloatingPointStringsAndBinary) {
  std::mt19937_64 rng(12);
  const int n = 250;
  std::vector<double> doubles;
  std::vector<float> floats;
  std::vector<std::string> texts;
  std::vector<bool> nulls;
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(), 1e-310};
  for (int i = 0; i < n; ++i) {
    double d = std::ldexp(static_cast<double>(rng() % 1000000) - 500000.0,
                          static_cast<int>(rng() % 40) - 20);
    if (i < 6) d = specials[i];
    doubles.push_back(d);
    floats.push_back(static_cast<float>(d));
    std::string s;
    const size_t len = rng() % 70;  // covers XXH64's short and 32-byte-stripe paths
    for (size_t j = 0; j < len; ++j) s.push_back(static_cast<char>(rng()));
    texts.push_back(s);
    nulls.push_back(rng() % 6 == 0);
  }
  {
    auto column = Fixed("DOUBLE", Physical::kDouble, &TestColumn::f64, doubles, nulls);
    std::vector<Literal> stored, probes;
    std::vector<uint64_t> hashes, probe_hashes;
    for (int i = 0; i < n; ++i) {
      if (nulls[i]) continue;
      stored.push_back(Literal::Double(doubles[i]));
      hashes.push_back(Wang64(java::DoubleToLongBits(doubles[i])));
    }
    for (int i = 0; i < 200; ++i) {
      const double d = static_cast<double>(rng() % 100000) / 7.0;
      probes.push_back(Literal::Double(d));
      probe_hashes.push_back(Wang64(java::DoubleToLongBits(d)));
    }
    CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
  }
  {
    auto column = Fixed("FLOAT", Physical::kFloat, &TestColumn::f32, floats, nulls);
    std::vector<Literal> stored, probes;
    std::vector<uint64_t> hashes, probe_hashes;
    for (int i = 0; i < n; ++i) {
      if (nulls[i]) continue;
      stored.push_back(Literal::Double(static_cast<double>(floats[i])));
      hashes.push_back(Wang64(java::FloatToIntBits(floats[i])));
    }
    for (int i = 0; i < 200; ++i) {
      const float f = static_cast<float>(rng() % 100000) / 7.0f;
      probes.push_back(Literal::Double(f));
      probe_hashes.push_back(Wang64(java::FloatToIntBits(f)));
    }
    CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
  }
  for (const char* type : {"STRING", "VARBINARY(100)"}) {
    auto column = Strings(type, texts, nulls);
    std::vector<Literal> stored, probes;
    std::vector<uint64_t> hashes, probe_hashes;
    for (int i = 0; i < n; ++i) {
      if (nulls[i]) continue;
      stored.push_back(Literal::String(texts[i]));
      hashes.push_back(hash::Xxh64(texts[i]));
    }
    for (int i = 0; i < 200; ++i) {
      const std::string s = "probe-" + std::to_string(i);
      probes.push_back(Literal::String(s));
      probe_hashes.push_back(hash::Xxh64(s));
    }
    CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
  }
}

TEST(BloomRandomTest, FloatColumnWithDoubleLiterals) {
  // Paimon converts a literal to the column type (nearest float); values it cannot reach are
  // handled without undefined casts.
  auto column = Fixed("FLOAT", Physical::kFloat, &TestColumn::f32,
                      std::vector<float>{0.1f, std::numeric_limits<float>::max(),
                                         -std::numeric_limits<float>::infinity()});
  auto payload = BuildBloom(column->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBloom(column->type, *payload);
  ASSERT_TRUE(reader);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Double(0.1)}), kRemain);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Double(3.4028235e38)}), kRemain);
  // Just above FLT_MAX (below the rounding midpoint) still rounds to FLT_MAX.
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Double(3.40282356e38)}), kRemain);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Double(-1e300)}), kRemain);  // -inf
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Double(1e300)}), kSkip);    // +inf
}

TEST(BloomRandomTest, TimestampsOfEveryPrecisionAndUnit) {
  // Values before and after 1970 in nanoseconds; each precision hashes millis (p <= 3) or
  // micros (p >= 4), floor-divided, whatever unit the batch carries.
  std::mt19937_64 rng(13);
  std::vector<int64_t> nanos;
  for (int i = 0; i < 200; ++i) {
    int64_t v = static_cast<int64_t>(rng() % 4000000000000000000ULL) - 2000000000000000000LL;
    if (i == 0) v = -1;
    if (i == 1) v = 0;
    if (i == 2) v = -999;
    if (i == 3) v = -1000001;
    nanos.push_back(v);
  }
  auto floor_div = [](int64_t a, int64_t b) { return column::FloorDiv(a, b); };
  for (int precision : {0, 3, 6, 9}) {
    const std::string type = "TIMESTAMP(" + std::to_string(precision) + ")";
    for (TimeUnit unit : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
      const int64_t per_unit = unit == TimeUnit::kSecond  ? 1000000000
                               : unit == TimeUnit::kMilli ? 1000000
                               : unit == TimeUnit::kMicro ? 1000
                                                          : 1;
      std::vector<int64_t> raw;
      std::vector<Literal> stored;
      std::vector<uint64_t> hashes;
      for (int64_t v : nanos) {
        const int64_t r = floor_div(v, per_unit);
        raw.push_back(r);
        const int64_t exact_nanos = r * per_unit;  // fits: |v| < 2.1e18
        const int64_t millis = floor_div(exact_nanos, 1000000);
        const int32_t nano_of_milli = static_cast<int32_t>(exact_nanos - millis * 1000000);
        stored.push_back(Literal::Timestamp(millis, nano_of_milli));
        hashes.push_back(Wang64(precision <= 3 ? millis : floor_div(exact_nanos, 1000)));
      }
      auto column = Timestamps(type, unit, raw);
      std::vector<Literal> probes;
      std::vector<uint64_t> probe_hashes;
      for (int i = 0; i < 100; ++i) {
        const int64_t millis = static_cast<int64_t>(rng() % 2000000000) - 1000000000;
        const int32_t nano_of_milli = static_cast<int32_t>(rng() % 1000000);
        probes.push_back(Literal::Timestamp(millis, nano_of_milli));
        probe_hashes.push_back(Wang64(precision <= 3 ? millis : millis * 1000 + nano_of_milli / 1000));
      }
      SCOPED_TRACE(type + " unit " + std::to_string(static_cast<int>(unit)));
      CheckAgainstJavaModel(*column, stored, hashes, probes, probe_hashes);
    }
  }
}

TEST(BloomWriterTest, TimestampOverflowAndWrongLayoutsFail) {
  // Seconds that overflow a long of micros: Java's Math.multiplyExact throws too.
  auto column = Timestamps("TIMESTAMP(6)", TimeUnit::kSecond,
                           {std::numeric_limits<int64_t>::max() / 1000});
  auto payload = BuildBloom(column->batch);
  EXPECT_EQ(payload.status().code(), StatusCode::kInvalidArgument);
  // The same value as a NULL row is ignored.
  auto null_column = Timestamps("TIMESTAMP(6)", TimeUnit::kSecond,
                                {std::numeric_limits<int64_t>::max() / 1000}, {true});
  EXPECT_TRUE(BuildBloom(null_column->batch).ok());
  // A batch whose layout does not carry the column type.
  auto wrong = Fixed("STRING", Physical::kInt32, &TestColumn::i32, std::vector<int32_t>{1});
  EXPECT_EQ(BuildBloom(wrong->batch).status().code(), StatusCode::kInvalidArgument);
}

TEST(BloomWriterTest, NullsAndEmptyColumnsSetNoBits) {
  auto all_null = Fixed("INT", Physical::kInt32, &TestColumn::i32, std::vector<int32_t>{5, 6, 7},
                        {true, true, true});
  auto payload = BuildBloom(all_null->batch);
  ASSERT_TRUE(payload.ok());
  ASSERT_EQ(payload->size(), 599071u);
  EXPECT_EQ((std::vector<uint8_t>(payload->begin(), payload->begin() + 4)),
            (std::vector<uint8_t>{0, 0, 0, 3}));
  for (size_t i = 4; i < payload->size(); ++i) ASSERT_EQ((*payload)[i], 0) << i;
  auto reader = OpenBloom(all_null->type, *payload);
  ASSERT_TRUE(reader);
  EXPECT_EQ(Answer(*reader, PredicateOp::kEqual, {Literal::Int(5)}), kSkip);
  // The value 0 hashes to 0: all probes land on bit 0.
  auto zero = Fixed("INT", Physical::kInt32, &TestColumn::i32, std::vector<int32_t>{0});
  auto zero_payload = BuildBloom(zero->batch);
  ASSERT_TRUE(zero_payload.ok());
  EXPECT_EQ((*zero_payload)[4], 0x01);
}

// ---- robustness ---------------------------------------------------------------------------

TEST(BloomRobustnessTest, ShortAndImpossibleHeadersAreCorrupt) {
  const DataType type = Type("INT");
  for (size_t size = 0; size <= 4; ++size) {
    std::vector<uint8_t> bytes(size, 0);
    if (size >= 4) bytes[3] = 1;
    EXPECT_EQ(BloomFilterIndexType().OpenReader(type, ByteSpan(bytes)).status().code(),
              StatusCode::kCorrupt)
        << size;
  }
  EXPECT_EQ(BloomFilterIndexType().OpenReader(type, ByteSpan()).status().code(),
            StatusCode::kCorrupt);
  // k = 0, k negative, k larger than the bit count.
  for (std::vector<uint8_t> header : {std::vector<uint8_t>{0, 0, 0, 0},
                                      std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff},
                                      std::vector<uint8_t>{0, 0, 0, 9}}) {
    header.push_back(0xff);
    EXPECT_EQ(BloomFilterIndexType().OpenReader(type, ByteSpan(header)).status().code(),
              StatusCode::kCorrupt);
  }
  std::vector<uint8_t> tiny = {0, 0, 0, 8, 0xff};
  EXPECT_TRUE(BloomFilterIndexType().OpenReader(type, ByteSpan(tiny)).ok());
}

TEST(BloomRobustnessTest, RandomFlipsNeverCrash) {
  const DataSetB data;
  Options options;
  options.Set("items", "20");
  auto payload = BuildBloom(data.f0->batch, options);
  ASSERT_TRUE(payload.ok());
  std::mt19937_64 rng(99);
  int opened = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bytes = *payload;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    bytes.resize(rng() % 3 == 0 ? rng() % (bytes.size() + 1) : bytes.size());
    auto reader = BloomFilterIndexType().OpenReader(data.f0->type, ByteSpan(bytes));
    if (!reader.ok()) {
      EXPECT_EQ(reader.status().code(), StatusCode::kCorrupt);
      continue;
    }
    ++opened;
    Predicate leaf;
    leaf.op = PredicateOp::kIn;
    leaf.literals = {Literal::String("Alice"), Literal::String("nobody")};
    EXPECT_TRUE((*reader)->Visit(leaf).ok());
    EXPECT_TRUE((*reader)->Describe().ok());
  }
  EXPECT_GT(opened, 0);
}

TEST(BloomReaderTest, DescribeReportsTheFilterShape) {
  const DataSetB data;
  auto payload = BuildBloom(data.f1->batch);
  ASSERT_TRUE(payload.ok());
  auto reader = OpenBloom(data.f1->type, *payload);
  ASSERT_TRUE(reader);
  auto facts = reader->Describe();
  ASSERT_TRUE(facts.ok());
  std::map<std::string, std::string> by_name(facts->begin(), facts->end());
  EXPECT_EQ(by_name["num_hash_functions"], "3");
  EXPECT_EQ(by_name["num_bits"], "4792536");
  EXPECT_EQ(by_name["bits_set"], "18");
}

// A dictionary-encoded batch: the writer hashes each dictionary value some valid row uses,
// once; the filter must be the one the decoded rows give. Dictionaries with unused, repeated
// and empty values; null rows whose indices are garbage; batches cut mid-way.
TEST(BloomDictionaryTest, DictionaryBatchesGiveTheFilterOfTheirDecodedRows) {
  ASSERT_TRUE(BloomFilterIndexType().MakeWriter(Type("STRING"), Options()).ValueOrDie()
                  ->TakesDictionaries());
  EXPECT_FALSE(BloomFilterIndexType().MakeWriter(Type("INT"), Options()).ValueOrDie()
                   ->TakesDictionaries());
  Options options;
  options.Set("items", "2000");
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 40; ++round) {
    const int32_t dictionary_size = static_cast<int32_t>(rng() % 400);
    std::vector<std::string> dictionary;
    for (int32_t d = 0; d < dictionary_size; ++d) {
      const bool repeat = d > 0 && rng() % 10 == 0;
      dictionary.push_back(repeat ? dictionary[rng() % d]
                                  : std::string(rng() % 40, static_cast<char>('a' + rng() % 26)) +
                                        std::to_string(rng() % 100000));
    }
    const size_t rows = rng() % 6000;
    const int null_one_in = round % 3 == 0 ? 0 : 2 + static_cast<int>(rng() % 8);
    std::vector<int32_t> codes(rows);
    std::vector<bool> is_null(rows, false);
    std::vector<std::string> decoded(rows);
    for (size_t i = 0; i < rows; ++i) {
      is_null[i] = dictionary_size == 0 || (null_one_in > 0 && rng() % null_one_in == 0);
      if (is_null[i]) {
        codes[i] = static_cast<int32_t>(rng());  // anything: a null row's index is never read
      } else {
        // Skewed: a few values take most rows, some are never used.
        const int32_t bound = rng() % 2 == 0 ? std::min<int32_t>(dictionary_size, 5)
                                             : dictionary_size;
        codes[i] = static_cast<int32_t>(rng() % static_cast<uint64_t>(bound));
        decoded[i] = dictionary[codes[i]];
      }
    }
    const bool any_null = std::find(is_null.begin(), is_null.end(), true) != is_null.end();
    auto plain = Strings("STRING", decoded, any_null ? is_null : std::vector<bool>{});
    auto values = Strings("STRING", dictionary);
    // Every other round the dictionary's values come as Arrow offsets, not views.
    std::string value_bytes;
    std::vector<int32_t> value_offsets{0};
    if (round % 2 == 1) {
      for (const std::string& v : dictionary) {
        value_bytes += v;
        value_offsets.push_back(static_cast<int32_t>(value_bytes.size()));
      }
      values->batch.strings = nullptr;
      values->batch.string_data = value_bytes.data();
      values->batch.offsets32 = value_offsets.data();
    }
    auto encoded = DictionaryEncoded(*values, codes, any_null ? is_null : std::vector<bool>{});

    const int64_t batch_rows = 1 + static_cast<int64_t>(rng() % 3000);
    auto from_rows = BuildBloom(plain->batch, options, batch_rows);
    auto from_dictionary = BuildBloom(encoded->batch, options, batch_rows);
    ASSERT_TRUE(from_rows.ok()) << from_rows.status().ToString();
    ASSERT_TRUE(from_dictionary.ok()) << from_dictionary.status().ToString();
    EXPECT_EQ(*from_dictionary, *from_rows)
        << "round " << round << ": " << dictionary_size << " values, " << rows << " rows";
  }
}

TEST(BloomIndexTypeTest, RegisteredUnderItsJavaName) {
  EXPECT_EQ(BloomFilterIndexType().name(), "bloom-filter");
  EXPECT_EQ(FindIndexType("bloom-filter"), &BloomFilterIndexType());
}

}  // namespace
}  // namespace pyfileindex::index
