// Bitmap file index (identifier "bitmap"), versions 1 and 2: bytes against Java-written payloads
// and the format spec's worked examples, HashMap-order vectors checked on a JDK, reader answers
// against brute force, and robustness against truncated / corrupted payloads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "column/column_batch.h"
#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/bitmap_reader.h"
#include "index/bitmap/container_rows.h"
#include "index/bitmap/row_sets.h"
#include "index/bitmap/java_roaring_encoder.h"
#include "index/bitmap/key_dictionary.h"
#include "index/bitmap/meta_writer.h"
#include "index/index_type.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/file_index_result.h"
#include "pyfileindex/options.h"
#include "pyfileindex/predicate.h"
#include "pyfileindex/row_bitmap.h"
#include "roaring/bitmap32.h"
#include "test_support.h"

namespace pyfileindex::index::bitmap {
namespace {

using column::ColumnBatch;
using column::Physical;
using column::TimeUnit;
using test_support::FromHex;
using test_support::ReadFileBytes;
using test_support::SharedDir;
using test_support::ToHex;
using test_support::Type;

// ---- helpers --------------------------------------------------------------------------------

std::vector<uint8_t> Slice(const std::vector<uint8_t>& bytes, size_t start, size_t length) {
  EXPECT_LE(start + length, bytes.size());
  if (start + length > bytes.size()) return {};
  return std::vector<uint8_t>(bytes.begin() + start, bytes.begin() + start + length);
}

// One column's rows in the in-memory layout a ColumnBatch points to.
struct TestColumn {
  DataType type;
  Physical physical = Physical::kInt32;
  TimeUnit unit = TimeUnit::kMicro;
  int64_t length = 0;
  std::vector<uint8_t> valid;  // one flag per row
  std::vector<uint8_t> raw;    // fixed-width values, back to back
  size_t width = 0;
  std::vector<std::string> strings;

  // Rows [offset, offset + n) as a batch; the validity bitmap is rebuilt with a bit offset so
  // the batch reads it at validity_offset != 0.
  struct Owned {
    std::vector<uint8_t> validity;
    std::vector<std::string_view> views;
    ColumnBatch batch;
  };
  Owned Batch(int64_t offset, int64_t n) const {
    Owned o;
    const int64_t shift = offset % 8 + 3;
    int64_t nulls = 0;
    o.validity.assign(static_cast<size_t>((n + shift) / 8 + 1), 0);
    for (int64_t i = 0; i < n; ++i) {
      if (valid[offset + i]) {
        o.validity[(i + shift) >> 3] |= static_cast<uint8_t>(1u << ((i + shift) & 7));
      } else {
        ++nulls;
      }
    }
    ColumnBatch& b = o.batch;
    b.type = &type;
    b.physical = physical;
    b.timestamp_unit = unit;
    b.length = n;
    b.null_count = nulls;
    b.validity = nulls == 0 ? nullptr : o.validity.data();
    b.validity_offset = shift;
    if (physical == Physical::kBytes) {
      for (int64_t i = 0; i < n; ++i) o.views.emplace_back(strings[offset + i]);
      b.strings = o.views.data();
    } else {
      b.values = raw.data() + offset * width;
    }
    return o;
  }
};

template <typename T>
TestColumn FixedColumn(const std::string& type, Physical physical,
                       const std::vector<std::optional<T>>& rows,
                       TimeUnit unit = TimeUnit::kMicro) {
  TestColumn c;
  c.type = Type(type);
  c.physical = physical;
  c.unit = unit;
  c.length = static_cast<int64_t>(rows.size());
  c.width = sizeof(T);
  c.raw.resize(rows.size() * sizeof(T) + 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    c.valid.push_back(rows[i].has_value());
    T v = rows[i].value_or(T{});
    std::memcpy(c.raw.data() + i * sizeof(T), &v, sizeof(T));
  }
  return c;
}

TestColumn StringColumn(const std::string& type, const std::vector<std::optional<std::string>>& rows) {
  TestColumn c;
  c.type = Type(type);
  c.physical = Physical::kBytes;
  c.length = static_cast<int64_t>(rows.size());
  for (const auto& r : rows) {
    c.valid.push_back(r.has_value());
    c.strings.push_back(r.value_or(""));
  }
  return c;
}

const IndexType& Bitmap() {
  const IndexType* type = FindIndexType("bitmap");
  EXPECT_NE(type, nullptr);
  return *type;
}

Options Opts(std::map<std::string, std::string> entries) { return Options(std::move(entries)); }

// Writes the column through the registry's "bitmap" writer, `batch_rows` rows per batch.
Result<std::vector<uint8_t>> WriteIndex(const TestColumn& column, const Options& options,
                                        int64_t batch_rows = 1 << 30) {
  PFI_ASSIGN_OR_RETURN(std::unique_ptr<ColumnIndexWriter> writer,
                       Bitmap().MakeWriter(column.type, options));
  for (int64_t begin = 0; begin < column.length; begin += batch_rows) {
    const int64_t n = std::min(batch_rows, column.length - begin);
    TestColumn::Owned batch = column.Batch(begin, n);
    PFI_RETURN_NOT_OK(writer->Write(batch.batch));
  }
  return writer->Serialize();
}

std::vector<uint8_t> MustWrite(const TestColumn& column, const Options& options = Options(),
                               int64_t batch_rows = 1 << 30) {
  Result<std::vector<uint8_t>> bytes = WriteIndex(column, options, batch_rows);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::vector<uint8_t>();
}

std::unique_ptr<ColumnIndexReader> MustOpen(const DataType& type,
                                            const std::vector<uint8_t>& payload) {
  Result<std::unique_ptr<ColumnIndexReader>> reader = Bitmap().OpenReader(type, io::ByteSpan(payload));
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(reader).ValueOrDie() : nullptr;
}

Result<FileIndexResult> Ask(const ColumnIndexReader& reader, PredicateOp op,
                            std::vector<Literal> literals = {}) {
  return reader.Visit(*Predicate::Leaf(op, "c", std::move(literals)));
}

// The rows of a kRows answer (checks the kind).
std::vector<uint32_t> RowsOf(const Result<FileIndexResult>& result) {
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {};
  EXPECT_TRUE(result->is_rows());
  if (!result->is_rows()) return {};
  return result->rows().ToVector();
}

std::vector<uint32_t> Rows(std::initializer_list<uint32_t> rows) { return rows; }

int32_t BE32(const std::vector<uint8_t>& bytes, size_t pos) {
  return static_cast<int32_t>(io::LoadU32BE(bytes.data() + pos));
}

// Keys of a V1 payload's entries, in file order (INT keys or string keys).
std::vector<int64_t> V1IntKeys(const std::vector<uint8_t>& p, size_t key_size) {
  size_t pos = 1 + 4;
  const int32_t count = BE32(p, pos);
  pos += 4;
  const bool has_null = p[pos++] != 0;
  if (has_null) pos += 4;
  std::vector<int64_t> keys;
  for (int32_t i = 0; i < count; ++i) {
    keys.push_back(key_size == 4 ? BE32(p, pos)
                                 : static_cast<int64_t>(io::LoadU64BE(p.data() + pos)));
    pos += key_size + 4;
  }
  return keys;
}

std::vector<std::string> V1StringKeys(const std::vector<uint8_t>& p) {
  size_t pos = 1 + 4;
  const int32_t count = BE32(p, pos);
  pos += 4;
  const bool has_null = p[pos++] != 0;
  if (has_null) pos += 4;
  std::vector<std::string> keys;
  for (int32_t i = 0; i < count; ++i) {
    const int32_t len = BE32(p, pos);
    keys.emplace_back(reinterpret_cast<const char*>(p.data() + pos + 4), len);
    pos += 4 + len + 4;
  }
  return keys;
}

// ---- data sets of the golden tables --------------------------------------------------------

TestColumn SetA_F0() {
  return StringColumn("STRING", {"Alice", "Bob", "Emily", "Tony", "Lucy", "Bob", "Tony", "Alice"});
}
TestColumn SetA_F1() {
  return FixedColumn<int32_t>("INT", Physical::kInt32, {10, 10, 10, 10, 20, 10, 20, 20});
}
TestColumn SetA_F2() {
  return FixedColumn<int32_t>("INT", Physical::kInt32, {1, 1, 0, 0, 1, 1, 0, std::nullopt});
}

std::string GoldenTable(const std::string& name) {
  return SharedDir() + "/golden/paimon-java-tables/" + name + ".db/" + name + "/bucket-0/";
}

std::vector<uint8_t> SetAContainerV2() {
  return ReadFileBytes(GoldenTable("append_with_bitmap_no_embedding") +
                       "data-783929b2-49d4-4006-a898-194a62e3278d-0.parquet.index");
}

// The embedded container of append_with_bitmap_v1.db (its manifest's _EMBEDDED_FILE_INDEX):
// bitmap V1 on f0 (96, 131), f1 (227, 74), f2 (301, 76).
const char* kSetAContainerV1Hex =
    "00054e4ed01a35ae000000010000006000000003000266300000000100066269746d61700000006000000083"
    "000266310000000100066269746d6170000000e30000004a000266320000000100066269746d61700000012d"
    "0000004c000000000100000008000000050000000005416c69636500000000000000044c756379fffffffb00"
    "000003426f620000001400000005456d696c79fffffffd00000004546f6e79000000283a3000000100000000"
    "00010010000000000007003a300000010000000000010010000000010005003a300000010000000000010010"
    "000000030006000100000008000000020000000014000000000000000a000000163a30000001000000000002"
    "00100000000400060007003a3000000100000000000400100000000000010002000300050001000000080000"
    "000201fffffff8000000000000000000000001000000163a3000000100000000000200100000000200030006"
    "003a3000000100000000000300100000000000010004000500";

// ---- bytes: data set A (spec 8.1) -----------------------------------------------------------

TEST(BitmapIndexBytes, DataSetAV2MatchesJavaSidecar) {
  const std::vector<uint8_t> container = SetAContainerV2();
  ASSERT_EQ(container.size(), 482u);
  EXPECT_EQ(ToHex(MustWrite(SetA_F0())), ToHex(Slice(container, 96, 176)));
  EXPECT_EQ(ToHex(MustWrite(SetA_F1())), ToHex(Slice(container, 272, 102)));
  EXPECT_EQ(ToHex(MustWrite(SetA_F2())), ToHex(Slice(container, 374, 108)));
  // Batch boundaries do not change the bytes.
  EXPECT_EQ(ToHex(MustWrite(SetA_F0(), Options(), 3)), ToHex(Slice(container, 96, 176)));
  EXPECT_EQ(ToHex(MustWrite(SetA_F2(), Options(), 1)), ToHex(Slice(container, 374, 108)));
}

TEST(BitmapIndexBytes, DataSetAV2F0MatchesSpecTable) {
  const std::vector<uint8_t> expected = FromHex(
      "02 00000008 00000005 00 00000001 00000005416c696365 00000000 00000055"
      "00000005"
      "00000005416c696365 00000000 00000014"
      "00000003426f62 00000014 00000014"
      "00000005456d696c79 fffffffd ffffffff"
      "000000044c756379 fffffffb ffffffff"
      "00000004546f6e79 00000028 00000014"
      "3a300000010000000000010010000000 0000 0700"
      "3a300000010000000000010010000000 0100 0500"
      "3a300000010000000000010010000000 0300 0600");
  EXPECT_EQ(ToHex(MustWrite(SetA_F0(), Opts({{"version", "2"}}))), ToHex(expected));
}

TEST(BitmapIndexBytes, DataSetAV1MatchesJavaEmbeddedIndex) {
  const std::vector<uint8_t> container = FromHex(kSetAContainerV1Hex);
  ASSERT_EQ(container.size(), 377u);
  const Options v1 = Opts({{"version", "1"}});
  const std::vector<uint8_t> f0 = MustWrite(SetA_F0(), v1);
  EXPECT_EQ(ToHex(f0), ToHex(Slice(container, 96, 131)));
  EXPECT_EQ(ToHex(MustWrite(SetA_F1(), v1)), ToHex(Slice(container, 227, 74)));
  EXPECT_EQ(ToHex(MustWrite(SetA_F2(), v1)), ToHex(Slice(container, 301, 76)));
  // HashMap order: Alice (slot 4), Lucy and Bob (slot 7, newest first), Emily (8), Tony (14).
  EXPECT_EQ(V1StringKeys(f0),
            (std::vector<std::string>{"Alice", "Lucy", "Bob", "Emily", "Tony"}));
}

// ---- bytes: data set B (spec 8.2), from the bloom-filter + bitmap + bsi sidecar -------------

TEST(BitmapIndexBytes, DataSetBMatchesJavaSidecar) {
  const std::vector<uint8_t> container =
      ReadFileBytes(GoldenTable("append_with_bsi_bitmap_bloomfilter") +
                    "data-15f89029-c10f-437f-b819-338c3e8ab2ee-0.parquet.index");
  ASSERT_EQ(container.size(), 2998077u);

  EXPECT_EQ(ToHex(MustWrite(SetA_F0())), ToHex(Slice(container, 599348, 176)));

  const TestColumn f1 = FixedColumn<int32_t>("INT", Physical::kInt32,
                                             {100, 200, 300, 50, 500, 100, std::nullopt, 20});
  const std::vector<uint8_t> f1_bytes = MustWrite(f1);
  EXPECT_EQ(ToHex(f1_bytes), ToHex(Slice(container, 1198595, 130)));
  // Facts of spec 8.2: single null at row 6, nullLength 18, one block keyed 20, size 76.
  EXPECT_EQ(ToHex(Slice(f1_bytes, 0, 38)),
            "02" "00000008" "00000006" "01" "fffffff9" "00000012" "00000001" "00000014" "00000000"
            "0000004c" "00000006");

  const TestColumn f2 = FixedColumn<int32_t>("INT", Physical::kInt32,
                                             {-2, -3, 1, 1, -1, 2, -2, std::nullopt});
  EXPECT_EQ(ToHex(MustWrite(f2)), ToHex(Slice(container, 1798027, 138)));

  // f4 TIMESTAMP(9) given in nanoseconds: keys are floor(ns / 1000) micros.
  const TestColumn f4 = FixedColumn<int64_t>(
      "TIMESTAMP(9)", Physical::kTimestamp,
      {1745542802000123000LL, 1745542902000123000LL, 1745542602000123000LL, -1744877000LL,
       -1764877000LL, std::nullopt, 1745542802000123001LL, -1724877000LL},
      TimeUnit::kNano);
  const std::vector<uint8_t> f4_bytes = MustWrite(f4);
  EXPECT_EQ(ToHex(f4_bytes), ToHex(Slice(container, 2996482, 158)));
  // null at row 5 -> nullOffset -6; 6 distinct micros keys.
  EXPECT_EQ(BE32(f4_bytes, 5), 6);
  EXPECT_EQ(BE32(f4_bytes, 10), -6);

  // The same instants given in micros and in millis+nanos-free units map to the same keys.
  std::vector<std::optional<int64_t>> micros;
  for (int64_t i = 0; i < f4.length; ++i) {
    int64_t ns;
    std::memcpy(&ns, f4.raw.data() + i * 8, 8);
    micros.push_back(f4.valid[i] ? std::optional<int64_t>(column::FloorDiv(ns, 1000))
                                 : std::nullopt);
  }
  const TestColumn f4_micros =
      FixedColumn<int64_t>("TIMESTAMP(9)", Physical::kTimestamp, micros, TimeUnit::kMicro);
  EXPECT_EQ(ToHex(MustWrite(f4_micros)), ToHex(f4_bytes));
}

// ---- bytes: edge cases of spec 4.7 ----------------------------------------------------------

TEST(BitmapIndexBytes, ZeroRows) {
  const TestColumn empty = FixedColumn<int32_t>("INT", Physical::kInt32, {});
  EXPECT_EQ(ToHex(MustWrite(empty, Opts({{"version", "1"}}))), "01" "00000000" "00000000" "00");
  EXPECT_EQ(ToHex(MustWrite(empty)), "02" "00000000" "00000000" "00" "00000000" "00000000");
  const TestColumn empty_strings = StringColumn("STRING", {});
  EXPECT_EQ(ToHex(MustWrite(empty_strings)), "02" "00000000" "00000000" "00" "00000000" "00000000");
}

TEST(BitmapIndexBytes, AllNull) {
  const TestColumn nulls = StringColumn("STRING", {std::nullopt, std::nullopt, std::nullopt});
  const std::string null_bitmap = "3a300000" "01000000" "0000" "0200" "10000000" "0000" "0100" "0200";
  EXPECT_EQ(ToHex(MustWrite(nulls)),
            "02" "00000003" "00000000" "01" "00000000" "00000016" "00000000" "00000000" + null_bitmap);
  EXPECT_EQ(ToHex(MustWrite(nulls, Opts({{"version", "1"}}))),
            "01" "00000003" "00000000" "01" "00000000" + null_bitmap);
  // A single null row is inlined (-1-row); V2 still records the 18-byte null bitmap length.
  const TestColumn one_null = FixedColumn<int16_t>("SMALLINT", Physical::kInt16, {std::nullopt});
  EXPECT_EQ(ToHex(MustWrite(one_null)),
            "02" "00000001" "00000000" "01" "ffffffff" "00000012" "00000000" "00000000");
}

TEST(BitmapIndexBytes, NullBitmapPrecedesValueBitmaps) {
  // Two nulls: the null bitmap is first in the body and value offsets start after it.
  const TestColumn c = FixedColumn<int8_t>("TINYINT", Physical::kInt8,
                                           {std::nullopt, 7, std::nullopt, 7});
  const std::vector<uint8_t> v1 = MustWrite(c, Opts({{"version", "1"}}));
  // 01 | rows 4 | 1 key | has null | nullOffset 0 | key 07 offset 20 (null bitmap {0,2} = 20 B)
  EXPECT_EQ(ToHex(Slice(v1, 0, 19)), "01" "00000004" "00000001" "01" "00000000" "07" "00000014");
  EXPECT_EQ(v1.size(), 19u + 20 + 20);
}

TEST(BitmapIndexBytes, KeyEncodingsPerType) {
  // One row each: V1 entry = encoded key + offset -1 (row 0).
  auto entry = [](const TestColumn& c) {
    const std::vector<uint8_t> p = MustWrite(c, Opts({{"version", "1"}}));
    return ToHex(Slice(p, 10, p.size() - 10));
  };
  EXPECT_EQ(entry(FixedColumn<int8_t>("TINYINT", Physical::kInt8, {-2})), "fe" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int16_t>("SMALLINT", Physical::kInt16, {-2})), "fffe" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int32_t>("DATE", Physical::kInt32, {19000})), "00004a38" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int32_t>("TIME", Physical::kInt32, {1000})), "000003e8" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int64_t>("BIGINT", Physical::kInt64, {-2})),
            "fffffffffffffffe" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<uint8_t>("BOOLEAN", Physical::kBool, {1})), "01" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<float>("FLOAT", Physical::kFloat, {1.5f})), "3fc00000" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<float>("FLOAT", Physical::kFloat,
                                     {java::IntBitsToFloat(0x7f800001)})),  // any NaN
            "7fc00000" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<double>("DOUBLE", Physical::kDouble, {-0.0})),
            "8000000000000000" "ffffffff");
  EXPECT_EQ(entry(StringColumn("CHAR(3)", {"\xc3\xa9"})), "00000002c3a9" "ffffffff");
  // TIMESTAMP(3): epoch millis (floor) from micros input; TIMESTAMP(6): micros from millis.
  EXPECT_EQ(entry(FixedColumn<int64_t>("TIMESTAMP(3)", Physical::kTimestamp, {-1500},
                                       TimeUnit::kMicro)),
            "fffffffffffffffe" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int64_t>("TIMESTAMP(6) WITH LOCAL TIME ZONE", Physical::kTimestamp,
                                       {-2}, TimeUnit::kMilli)),
            "fffffffffffff830" "ffffffff");
  EXPECT_EQ(entry(FixedColumn<int64_t>("TIMESTAMP(0)", Physical::kTimestamp, {3},
                                       TimeUnit::kSecond)),
            "0000000000000bb8" "ffffffff");
}

TEST(BitmapIndexBytes, FloatZeroesAreDistinctKeysSortedByFloatCompare) {
  const TestColumn c = FixedColumn<float>(
      "FLOAT", Physical::kFloat,
      {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), -1.0f,
       std::numeric_limits<float>::infinity(), java::IntBitsToFloat(0x7fc00001)});
  const std::vector<uint8_t> p = MustWrite(c);
  EXPECT_EQ(BE32(p, 5), 5);  // 0.0, -0.0, NaN (both NaNs), -1, +inf
  // Sorted entries start after head (10) + block count (4) + block key (4) + offset (4) + size (4)
  // + entry count (4).
  size_t pos = 10 + 4 + 4 + 4 + 4 + 4;
  std::vector<std::string> keys;
  for (int i = 0; i < 5; ++i, pos += 12) keys.push_back(ToHex(Slice(p, pos, 4)));
  EXPECT_EQ(keys, (std::vector<std::string>{"bf800000", "80000000", "00000000", "7f800000",
                                            "7fc00000"}));
}

// ---- Java roaring bytes from sorted rows -----------------------------------------------------

std::string EncodeHex(const std::vector<uint32_t>& rows) {
  std::vector<uint8_t> out = {0xAB};  // appends after existing bytes
  AppendJavaRoaring(rows.data(), rows.size(), &out);
  EXPECT_EQ(out[0], 0xAB);
  return ToHex(std::vector<uint8_t>(out.begin() + 1, out.end()));
}

std::vector<uint32_t> Range(uint32_t begin, uint32_t end, uint32_t step = 1) {
  std::vector<uint32_t> v;
  for (uint64_t x = begin; x < end; x += step) v.push_back(static_cast<uint32_t>(x));
  return v;
}

TEST(JavaRoaringEncoder, VerifiedJavaVectors) {
  // Java RoaringBitmap 1.2.1 bytes for bitmaps built by add() (VERIFIED-roaring-hashmap.md).
  EXPECT_EQ(EncodeHex({}), "3a30000000000000");
  EXPECT_EQ(EncodeHex({0}), "3a3000000100000000000000100000000000");
  EXPECT_EQ(EncodeHex({4294967295u}), "3a30000001000000ffff000010000000ffff");
  EXPECT_EQ(EncodeHex({2147483647u, 2147483648u}),
            "3a30000002000000ff7f000000800000180000001a000000ffff0000");
  EXPECT_EQ(EncodeHex({0, 1, 2}), "3a300000010000000000020010000000000001000200");
  EXPECT_EQ(EncodeHex({0, 1, 2, 3}), "3b3000000100000300010000000300");
  EXPECT_EQ(EncodeHex({0, 1, 3, 4}), "3a3000000100000000000300100000000000010003000400");
  EXPECT_EQ(EncodeHex({0, 1, 2, 4, 5}), "3a30000001000000000004001000000000000100020004000500");
  EXPECT_EQ(EncodeHex({0, 1, 2, 4, 5, 6}), "3b300000010000050002000000020004000200");
  EXPECT_EQ(EncodeHex(Range(0, 65536)), "3b300000010000ffff01000000ffff");
  EXPECT_EQ(EncodeHex({0, 65536, 65537, 65538}),
            "3a300000020000000000000001000200180000001a0000000000000001000200");
  std::vector<uint32_t> four_runs, three_runs;
  for (uint32_t k = 0; k < 4; ++k) {
    for (uint32_t v = 0; v < 10; ++v) {
      four_runs.push_back(k * 65536 + v);
      if (k < 3) three_runs.push_back(k * 65536 + v);
    }
  }
  EXPECT_EQ(EncodeHex(four_runs),
            "3b3003000f00000900010009000200090003000900250000002b0000003100000037000000010000000900"
            "010000000900010000000900010000000900");
  EXPECT_EQ(EncodeHex(three_runs),
            "3b30020007000009000100090002000900010000000900010000000900010000000900");
  // Boundaries: 2047 runs of 3 -> run (8199 bytes); 2048 -> bitmap; 4096 evens -> array;
  // 4097 evens -> bitmap.
  std::vector<uint32_t> runs2047, runs2048;
  for (uint32_t r = 0; r < 2048; ++r) {
    for (uint32_t v = 0; v < 3; ++v) {
      if (r < 2047) runs2047.push_back(r * 4 + v);
      runs2048.push_back(r * 4 + v);
    }
  }
  const std::string h2047 = EncodeHex(runs2047);
  EXPECT_EQ(h2047.size(), 2u * 8199);
  EXPECT_EQ(h2047.substr(0, 22), "3b300000010000fc17ff07");
  const std::string h2048 = EncodeHex(runs2048);
  EXPECT_EQ(h2048.size(), 2u * 8208);
  EXPECT_EQ(h2048.substr(0, 32), "3a300000010000000000ff1710000000");
  const std::string evens4096 = EncodeHex(Range(0, 8191, 2));
  EXPECT_EQ(evens4096.size(), 2u * 8208);
  EXPECT_EQ(evens4096.substr(0, 32), "3a300000010000000000ff0f10000000");
  const std::string evens4097 = EncodeHex(Range(0, 8193, 2));
  EXPECT_EQ(evens4097.size(), 2u * 8208);
  EXPECT_EQ(evens4097.substr(0, 34), "3a30000001000000000000101000000055");
}

TEST(JavaRoaringEncoder, MatchesCanonicalBitmap32OnRandomSets) {
  std::mt19937_64 rng(4242);
  for (int round = 0; round < 400; ++round) {
    std::set<uint32_t> set;
    const int pattern = round % 5;
    const uint32_t chunks = 1 + static_cast<uint32_t>(rng() % 6);
    for (uint32_t c = 0; c < chunks; ++c) {
      const uint32_t base = static_cast<uint32_t>(rng() % 70000) * 65536u;
      if (pattern == 0) {  // sparse
        for (int k = 0; k < 1 + static_cast<int>(rng() % 50); ++k) set.insert(base + rng() % 65536);
      } else if (pattern == 1) {  // dense random
        const double p = (rng() % 1000) / 1000.0;
        for (uint32_t v = 0; v < 65536; ++v) {
          if (std::uniform_real_distribution<double>(0, 1)(rng) < p) set.insert(base + v);
        }
      } else if (pattern == 2) {  // runs around the tie c = 2r, 2r+1, 2r+2
        const uint32_t runs = 1 + static_cast<uint32_t>(rng() % 6);
        uint32_t v = static_cast<uint32_t>(rng() % 100);
        for (uint32_t r = 0; r < runs; ++r) {
          const uint32_t len = 1 + static_cast<uint32_t>(rng() % 4);
          for (uint32_t k = 0; k < len; ++k) set.insert(base + v + k);
          v += len + 1 + static_cast<uint32_t>(rng() % 3);
        }
      } else if (pattern == 3) {  // around 4096 values / 2047 runs
        const uint32_t count = 4090 + static_cast<uint32_t>(rng() % 12);
        const uint32_t step = 1 + static_cast<uint32_t>(rng() % 3);
        for (uint32_t k = 0; k < count && k * step < 65536; ++k) set.insert(base + k * step);
      } else {  // long runs
        const uint32_t a = static_cast<uint32_t>(rng() % 65536);
        const uint32_t b = a + static_cast<uint32_t>(rng() % (65536 - a));
        for (uint32_t v = a; v <= b; ++v) set.insert(base + v);
      }
    }
    const std::vector<uint32_t> rows(set.begin(), set.end());
    roaring::Bitmap32 bitmap;
    for (uint32_t v : rows) bitmap.Add(v);
    EXPECT_EQ(EncodeHex(rows), ToHex(bitmap.Serialize())) << "round " << round;
  }
}

TEST(JavaRoaringEncoder, ScatteredRowsAroundTheArrayOnlyShape) {
  // Up to 4096 rows with no two consecutive are written in one pass (array containers only);
  // one row more, or one consecutive pair, takes the per-chunk path. Same bytes either way.
  auto scattered = [](uint32_t count, uint32_t step, uint32_t first) {
    std::vector<uint32_t> rows;
    for (uint32_t k = 0; k < count; ++k) rows.push_back(first + k * step);
    return rows;
  };
  std::vector<std::vector<uint32_t>> sets = {
      {7},
      {65535, 65537},                    // neighbours across a chunk edge, not consecutive
      {65535, 65536},                    // consecutive across the edge
      scattered(4096, 2, 65536 - 4096),  // the limit, in two chunks
      scattered(4097, 2, 1),             // one over
      scattered(4096, 65536 + 3, 5),     // one row per chunk, 4096 chunks
      scattered(300, 977, 0x7FF00000u),  // near the top of the row range
  };
  std::vector<uint32_t> with_pair = scattered(100, 1000, 10);
  with_pair.insert(with_pair.begin() + 50, with_pair[49] + 1);
  sets.push_back(with_pair);
  for (const std::vector<uint32_t>& rows : sets) {
    roaring::Bitmap32 bitmap;
    for (uint32_t v : rows) bitmap.Add(v);
    EXPECT_EQ(JavaRoaringSize(rows.data(), rows.size()), bitmap.SerializedSize());
    EXPECT_EQ(EncodeHex(rows), ToHex(bitmap.Serialize())) << rows.size() << " rows";
  }
}

TEST(JavaRoaringEncoder, FrequentKeysTakeTheBitmapPathWithTheSameBytes) {
  // More rows per key than tuning::kRowListFlushEntries: part of the rows pass through a
  // CRoaring bitmap.
  std::vector<std::optional<uint8_t>> values;
  std::vector<uint32_t> trues, falses;
  for (uint32_t i = 0; i < 100000; ++i) {
    const bool v = (i % 7 == 0) || (i > 50000 && i < 70000);
    values.push_back(static_cast<uint8_t>(v));
    (v ? trues : falses).push_back(i);
  }
  const TestColumn c = FixedColumn<uint8_t>("BOOLEAN", Physical::kBool, values);
  const std::vector<uint8_t> p = MustWrite(c, Options(), 30000);
  // 10 head | 4 block count | key 1 + offset 4 | size 4 | count 4 | 2 x (1 + 4 + 4) = 45
  ASSERT_EQ(BE32(p, 10), 1);
  const size_t body = 45;
  ASSERT_EQ(p[27], 0);  // false sorts first
  const int32_t false_offset = BE32(p, 28), false_length = BE32(p, 32);
  const int32_t true_offset = BE32(p, 37), true_length = BE32(p, 41);
  roaring::Bitmap32 t, f;
  for (uint32_t v : trues) t.Add(v);
  for (uint32_t v : falses) f.Add(v);
  EXPECT_EQ(ToHex(Slice(p, body + true_offset, true_length)), ToHex(t.Serialize()));
  EXPECT_EQ(ToHex(Slice(p, body + false_offset, false_length)), ToHex(f.Serialize()));
  EXPECT_EQ(p.size(), body + true_length + false_length);
}

TEST(ContainerRows, SameBytesAsTheRowListEncoderHoweverRowsArrive) {
  // Rows reach ContainerRows either as per-chunk groups (Reserve/Commit) or one by one, a
  // chunk's rows may come in several pieces, and a chunk may be closed early (CloseBefore a
  // later chunk): the bytes must equal the row-list encoder's.
  std::mt19937_64 rng(777);
  for (int round = 0; round < 300; ++round) {
    std::set<uint32_t> set;
    const uint32_t chunks = 1 + static_cast<uint32_t>(rng() % 5);
    uint32_t base = static_cast<uint32_t>(rng() % 3) * 65536u;
    for (uint32_t c = 0; c < chunks; ++c) {
      const int pattern = static_cast<int>(rng() % 4);
      if (pattern == 0) {  // sparse
        for (int k = 0; k < 1 + static_cast<int>(rng() % 40); ++k) set.insert(base + rng() % 65536);
      } else if (pattern == 1) {  // dense: a bitmap container
        for (uint32_t v = 0; v < 65536; ++v) {
          if (rng() % 3 == 0) set.insert(base + v);
        }
      } else if (pattern == 2) {  // a few long runs
        for (int r = 0; r < 1 + static_cast<int>(rng() % 4); ++r) {
          const uint32_t a = static_cast<uint32_t>(rng() % 60000);
          for (uint32_t v = a; v < a + 1 + rng() % 5000; ++v) set.insert(base + v);
        }
      } else {  // near the array/run tie
        uint32_t v = static_cast<uint32_t>(rng() % 100);
        for (int r = 0; r < 1 + static_cast<int>(rng() % 6); ++r) {
          const uint32_t len = 1 + static_cast<uint32_t>(rng() % 3);
          for (uint32_t k = 0; k < len; ++k) set.insert(base + v + k);
          v += len + 1 + static_cast<uint32_t>(rng() % 2);
        }
      }
      base += (1 + static_cast<uint32_t>(rng() % 3)) * 65536u;
    }
    const std::vector<uint32_t> rows(set.begin(), set.end());
    ContainerRows kept;
    for (size_t i = 0; i < rows.size();) {
      if (rng() % 4 == 0) kept.CloseBefore(static_cast<uint16_t>(rows[i] >> 16));
      if (rng() % 2 == 0) {
        kept.Append(rows[i++]);
        continue;
      }
      // A piece of this chunk's rows, added as one group.
      size_t j = i;
      const size_t limit = i + 1 + rng() % 3000;
      while (j < rows.size() && j < limit && (rows[j] >> 16) == (rows[i] >> 16)) ++j;
      uint16_t* out = kept.Reserve(static_cast<uint16_t>(rows[i] >> 16),
                                   static_cast<uint32_t>(j - i));
      for (size_t k = i; k < j; ++k) *out++ = static_cast<uint16_t>(rows[k]);
      kept.Commit(static_cast<uint32_t>(j - i));
      i = j;
    }
    ASSERT_EQ(kept.Count(), rows.size());
    ASSERT_EQ(kept.FirstRow(), rows[0]);
    std::vector<uint8_t> expected;
    AppendJavaRoaring(rows.data(), rows.size(), &expected);
    std::vector<uint8_t> actual(kept.SerializedSize());
    kept.SerializeTo(actual.data());
    EXPECT_EQ(ToHex(actual), ToHex(expected)) << "round " << round;
  }
}

TEST(RowList, RunsAndFlushesKeepTheRowListEncodersBytes) {
  // Isolated rows, pairs, long runs (kept as two entries), and more than
  // tuning::kRowListFlushEntries pending entries (moved into a bitmap mid-way, possibly
  // between a run's start and its next row).
  std::mt19937_64 rng(31337);
  for (int round = 0; round < 100; ++round) {
    std::vector<uint32_t> rows;
    RowList by_runs;  // the same rows, a piece (one run) at a time
    uint32_t next = static_cast<uint32_t>(rng() % 1000);
    const bool many = round % 10 == 0;  // past kRowListFlushEntries entries, no long runs
    const int pieces = many ? 20000 : 1 + static_cast<int>(rng() % 60);
    for (int p = 0; p < pieces; ++p) {
      const int shape = static_cast<int>(rng() % (many ? 3 : 4));
      const uint32_t length = shape == 0 ? 1 : shape == 1 ? 2 : shape == 2 ? 3 + rng() % 20
                                                                           : 1 + rng() % 70000;
      for (uint32_t k = 0; k < length; ++k) rows.push_back(next + k);
      by_runs.AppendRun(next, length);
      next += length + 1 + static_cast<uint32_t>(rng() % (shape == 3 ? 100000 : 5));
    }
    RowList list;
    for (uint32_t row : rows) list.Append(row);
    ASSERT_EQ(list.Count(), rows.size()) << "round " << round;
    ASSERT_EQ(list.FirstRow(), rows[0]);
    ASSERT_EQ(list.IsSingle(), rows.size() == 1);
    std::vector<uint8_t> expected;
    AppendJavaRoaring(rows.data(), rows.size(), &expected);
    std::vector<uint8_t> actual(list.SerializedSize());
    list.SerializeTo(actual.data());
    ASSERT_EQ(ToHex(actual), ToHex(expected)) << "round " << round;
    ASSERT_EQ(by_runs.Count(), rows.size()) << "round " << round;
    std::vector<uint8_t> from_runs(by_runs.SerializedSize());
    by_runs.SerializeTo(from_runs.data());
    ASSERT_EQ(ToHex(from_runs), ToHex(expected)) << "round " << round << ", by runs";
  }
}

TEST(RowSets, ListsKeepTheirRowsAsKeysArrive) {
  // New keys come by Append (one at a time) and by Resize (many at once, without rows); the
  // lists already there keep their rows through every growth of the array that holds them.
  RowSets sets;
  constexpr uint32_t kKeys = 20000;
  uint32_t row = 0;
  for (uint32_t id = 0; id < kKeys / 2; ++id) sets.Append(id, row++);
  sets.Resize(kKeys - 5);  // ids up to kKeys - 6 valid, without rows
  for (uint32_t id = kKeys - 5; id < kKeys; ++id) sets.Append(id, row++);
  ASSERT_EQ(sets.size(), kKeys);
  // Every key gets a second and a third row, in row order over all keys.
  for (int round = 0; round < 2; ++round) {
    for (uint32_t id = 0; id < kKeys; ++id) sets.Append(id, row++);
  }
  for (uint32_t id = 0; id < kKeys; ++id) {
    const bool first_rows = id < kKeys / 2 || id >= kKeys - 5;
    ASSERT_EQ(sets[id].Count(), first_rows ? 3u : 2u) << "key " << id;
  }
  EXPECT_EQ(sets[17].FirstRow(), 17u);
  EXPECT_EQ(sets[kKeys - 1].FirstRow(), kKeys / 2 + 4);
  EXPECT_EQ(sets[kKeys / 2].FirstRow(), kKeys / 2 + 5 + kKeys / 2);  // first row: round one
}

// Keys with 1..40 rows (and runs), interleaved: past two entries a list takes a block of
// the sets' ListBlocks (or, without blocks, a malloc'd array), past the block a malloc'd
// array. The sets are moved and their first lists dropped on the way; every list then
// serializes as the encoder does its rows.
void ExpectListsOutgrowingTheirFirstArraysKeepTheirRows(bool use_blocks) {
  std::mt19937_64 rng(4605);
  constexpr uint32_t kKeys = 30000;
  std::vector<std::vector<uint32_t>> rows(kKeys);
  RowSets sets;
  sets.UseBlocks(use_blocks);
  sets.Resize(kKeys);
  uint32_t row = 0;
  for (int round = 0; round < 40; ++round) {
    for (uint32_t id = 0; id < kKeys; ++id) {
      if (rng() % 40 > id % 41) continue;  // keys with more or fewer rows
      if (rng() % 8 == 0) {
        const uint32_t count = 1 + static_cast<uint32_t>(rng() % 5);
        sets.AppendRun(id, row, count);
        for (uint32_t k = 0; k < count; ++k) rows[id].push_back(row + k);
        row += count + 1;
      } else {
        sets.Append(id, row);
        rows[id].push_back(row);
        row += 2;
      }
    }
  }
  RowSets moved(std::move(sets));
  RowSets kept;
  kept = std::move(moved);
  constexpr uint32_t kDropped = 100;
  kept.DropFront(kDropped);
  size_t in_blocks = 0;
  for (uint32_t id = kDropped; id < kKeys; ++id) {
    RowList& list = kept[id - kDropped];
    const std::vector<uint32_t>& want = rows[id];
    ASSERT_EQ(list.Count(), want.size()) << "key " << id;
    if (want.empty()) continue;
    in_blocks += list.PendingEntries() > 2 && list.PendingEntries() <= 6;
    std::vector<uint8_t> expected;
    AppendJavaRoaring(want.data(), want.size(), &expected);
    std::vector<uint8_t> actual(list.SerializedSize());
    list.SerializeTo(actual.data());
    ASSERT_EQ(ToHex(actual), ToHex(expected)) << "key " << id;
  }
  EXPECT_GT(in_blocks, 1000u);  // many lists still in their first arrays, many past them
}

TEST(RowSets, ListsOutgrowTheirBlocksKeepingTheirRows) {
  ExpectListsOutgrowingTheirFirstArraysKeepTheirRows(/*use_blocks=*/true);
  ExpectListsOutgrowingTheirFirstArraysKeepTheirRows(/*use_blocks=*/false);
}

TEST(RowList, ShortListsSurviveMovesAndGrowingPastTheInlineEntries) {
  // Lists of up to two entries live inside the RowList (no heap array); a third entry moves
  // them to the heap. Each shape is appended, moved twice (the writer's vector of lists moves
  // them when it grows), then checked and serialized.
  const std::vector<std::vector<uint32_t>> shapes = {
      {7},                      // one row
      {7, 8},                   // a run of two: two entries
      {7, 9},                   // two rows apart
      {7, 8, 9, 10, 11},        // one run, still two entries
      {7, 8, 9, 20},            // a run, then a row: three entries
      {3, 20, 21, 22},          // a row, then a run
      {3, 5, 9},                // three rows apart
      {0, 1, 2, 100000, 100001, 200000},
  };
  for (const std::vector<uint32_t>& rows : shapes) {
    RowList appended;
    for (uint32_t row : rows) appended.Append(row);
    RowList moved(std::move(appended));
    RowList list;
    list = std::move(moved);
    EXPECT_EQ(appended.PendingEntries(), 0u);
    EXPECT_EQ(moved.PendingEntries(), 0u);
    ASSERT_EQ(list.Count(), rows.size());
    ASSERT_EQ(list.FirstRow(), rows[0]);
    ASSERT_EQ(list.IsSingle(), rows.size() == 1);
    if (list.IsSingle()) {
      EXPECT_EQ(list.OnlyRow(), rows[0]);
    }
    const bool one_run = rows.back() - rows.front() + 1 == rows.size();
    if (one_run && rows.size() > 1) {
      EXPECT_EQ(list.PendingEntries(), 2u);
    }
    std::vector<uint8_t> expected;
    AppendJavaRoaring(rows.data(), rows.size(), &expected);
    std::vector<uint8_t> actual(list.SerializedSize());
    list.SerializeTo(actual.data());
    EXPECT_EQ(ToHex(actual), ToHex(expected)) << "first row " << rows[0];

    RowList again;
    for (uint32_t row : rows) again.Append(row);
    std::vector<uint32_t> entries(again.PendingEntries());
    again.MoveEntriesTo(entries.data());
    std::vector<uint8_t> from_entries(
        RowList::SerializedSizeOfEntries(entries.data(), entries.size()));
    RowList::SerializeEntries(entries.data(), entries.size(), from_entries.data());
    EXPECT_EQ(ToHex(from_entries), ToHex(expected)) << "first row " << rows[0];
  }
}

TEST(JavaRoaringEncoder, RunMarkedEntriesGiveTheSameBytesAsRows) {
  // Array, run and bitmap containers (many short runs in a dense chunk), runs across chunks.
  std::mt19937_64 rng(2718);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> rows, entries;
    uint32_t next = static_cast<uint32_t>(rng() % 70000);
    const bool dense = round % 3 == 0;  // short runs close together: bitmap containers
    const int pieces = 1 + static_cast<int>(rng() % (dense ? 12000 : 50));
    const uint32_t max_gap = dense ? 3 : 90000;
    for (int p = 0; p < pieces; ++p) {
      const uint32_t length = !dense && rng() % 4 == 0
                                  ? 1 + static_cast<uint32_t>(rng() % 140000)
                                  : 1 + static_cast<uint32_t>(rng() % 3);
      for (uint32_t k = 0; k < length; ++k) rows.push_back(next + k);
      entries.push_back(next);
      if (length > 1) entries.push_back((next + length - 1) | kRunEndMark);
      next += length + 1 + static_cast<uint32_t>(rng() % max_gap);
    }
    std::vector<uint8_t> expected;
    AppendJavaRoaring(rows.data(), rows.size(), &expected);
    std::vector<uint8_t> actual(JavaRoaringSizeOfRuns(entries.data(), entries.size()));
    WriteJavaRoaringOfRuns(entries.data(), entries.size(), actual.data());
    ASSERT_EQ(ToHex(actual), ToHex(expected)) << "round " << round;
  }
}

TEST(BitmapIndexBytes, KeysPastTheContainerLimitMidFileKeepEveryRow) {
  // 300 frequent keys from the start; from row 150,000 on, 6,000 more keys appear, so the
  // writer switches from grouped containers to per-row adds (old keys keep containers, new
  // ones row lists). Batches of odd sizes cross the 65,536-row chunks anywhere.
  std::vector<std::optional<int32_t>> values;
  const int32_t n = 400000;
  for (int32_t i = 0; i < n; ++i) {
    if (i % 89 == 0) {
      values.push_back(std::nullopt);
    } else if (i >= 150000 && i % 2 == 0) {
      values.push_back(100000 + (i / 2) % 6000);
    } else {
      values.push_back((i * 7) % 300);
    }
  }
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
  for (const char* version : {"1", "2"}) {
    const std::vector<uint8_t> whole = MustWrite(c, Opts({{"version", version}}));
    EXPECT_EQ(MustWrite(c, Opts({{"version", version}}), 9973), whole);
    auto reader = MustOpen(c.type, whole);
    ASSERT_TRUE(reader);
    for (int32_t key : {0, 299, 100000, 105999}) {
      std::vector<uint32_t> expected;
      for (int32_t i = 0; i < n; ++i) {
        if (values[i] == key) expected.push_back(static_cast<uint32_t>(i));
      }
      ASSERT_FALSE(expected.empty());
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)})), expected) << key;
    }
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNull)).size(),
              static_cast<size_t>((n + 88) / 89));
  }
}

TEST(BitmapIndexBytes, KeysCrossTheContainerLimitInsideAPiece) {
  // Rows go to their keys' rooms in row order. Here the direct window is open (3,000 keys,
  // all near 0) when, in the middle of a piece, keys 3,000-8,999 start to come: the keys pass
  // 4,096 inside the piece, later rows of the piece hit those new keys in the window, and
  // their rows go to row lists from then on. Nulls throughout; every key and the nulls must
  // keep exactly their rows, whatever the batches.
  std::vector<std::optional<int32_t>> values;
  const int32_t n = 300000;
  const int32_t wider_from = 4 * 65536 + 5000;  // inside a piece
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t mixed = static_cast<uint32_t>(i) * 2654435761u;
    if (mixed % 13 == 0) {
      values.push_back(std::nullopt);
    } else {
      values.push_back(static_cast<int32_t>((mixed >> 8) % (i < wider_from ? 3000 : 9000)));
    }
  }
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
  const std::vector<uint8_t> whole = MustWrite(c, Options());
  EXPECT_EQ(MustWrite(c, Options(), 7919), whole);
  auto reader = MustOpen(c.type, whole);
  ASSERT_TRUE(reader);
  for (int32_t key : {0, 2999, 3000, 4095, 4096, 8999}) {
    std::vector<uint32_t> expected;
    for (int32_t i = 0; i < n; ++i) {
      if (values[i] == key) expected.push_back(static_cast<uint32_t>(i));
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)})), expected) << key;
  }
  std::vector<uint32_t> nulls;
  for (int32_t i = 0; i < n; ++i) {
    if (!values[i]) nulls.push_back(static_cast<uint32_t>(i));
  }
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNull)), nulls);
}

TEST(BitmapIndexBytes, KeysOnACommonStepKeepTheirRows) {
  // Minute timestamps in millis: the direct window steps by 60,000 and covers them all. Later
  // rows bring keys off the step (between two minutes) and minutes beyond the window's
  // reach: no key may take another's entry, every key keeps exactly its rows.
  const int64_t n = 200000;
  const int64_t start = int64_t{1767225600000};
  std::mt19937_64 rng(60000);
  std::vector<std::optional<int64_t>> values;
  for (int64_t i = 0; i < n; ++i) {
    int64_t minute = start + 60000 * static_cast<int64_t>(rng() % 800);
    if (i > n / 2) {
      const uint64_t pick = rng() % 16;
      if (pick == 0) minute += 1 + static_cast<int64_t>(rng() % 59999);  // off the step
      if (pick == 1) minute += 60000 * int64_t{70000};  // past the window
    }
    values.push_back(rng() % 50 == 0 ? std::nullopt : std::optional<int64_t>(minute));
  }
  const TestColumn c = FixedColumn<int64_t>("BIGINT", Physical::kInt64, values);
  const std::vector<uint8_t> whole = MustWrite(c, Options());
  EXPECT_EQ(MustWrite(c, Options(), 40), whole);  // the same bytes in batches of 40 rows
  auto reader = MustOpen(c.type, whole);
  ASSERT_TRUE(reader);
  std::map<int64_t, std::vector<uint32_t>> rows_of;
  for (int64_t i = 0; i < n; ++i) {
    if (values[i]) rows_of[*values[i]].push_back(static_cast<uint32_t>(i));
  }
  ASSERT_GT(rows_of.size(), 2000u);
  for (const auto& [key, rows] : rows_of) {
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)})), rows) << key;
  }
  EXPECT_TRUE(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(start + 30000)})).empty());
}

TEST(BitmapIndexBytes, RoomsKeepTheirRowsWhateverWayEachPieceGoesIn) {
  // A chunk's scattered pieces store rows straight into their keys' rooms, which stay open
  // from piece to piece; a piece of long runs (INT) or of repeats (STRING), a piece with
  // nulls, a batch ending mid-piece and a new chunk each meet rooms left open. Pieces of
  // 16,384 rows cycle through: scattered keys, runs of the same keys, scattered keys with nulls, and stretches of one key; batches of
  // several sizes split them anywhere. Every key's rows and the nulls are checked against the
  // column, and the bytes against a writer fed 40 rows at a time (no piece long enough for
  // runs).
  const int32_t n = 9 * 16384 + 4321;
  std::mt19937_64 rng(2026);
  std::vector<std::optional<int32_t>> values(n);
  for (int32_t i = 0; i < n; ++i) {
    switch ((i / 16384) % 4) {
      case 0: values[i] = static_cast<int32_t>(rng() % 60); break;
      case 1: values[i] = (i / 500) % 60; break;
      case 2:
        values[i] = rng() % 9 == 0 ? std::nullopt : std::optional<int32_t>(rng() % 60);
        break;
      default: values[i] = rng() % 64 == 0 ? 59 : 7; break;
    }
  }
  std::vector<std::optional<std::string>> strings;
  for (const auto& v : values) {
    strings.push_back(v ? std::optional<std::string>("key-" + std::to_string(*v)) : std::nullopt);
  }
  std::vector<uint32_t> nulls;
  for (int32_t i = 0; i < n; ++i) {
    if (!values[i]) nulls.push_back(static_cast<uint32_t>(i));
  }
  for (const bool as_strings : {false, true}) {
    SCOPED_TRACE(as_strings ? "STRING" : "INT");
    const TestColumn c = as_strings ? StringColumn("STRING", strings)
                                    : FixedColumn<int32_t>("INT", Physical::kInt32, values);
    const std::vector<uint8_t> small_batches = MustWrite(c, Options(), 40);
    for (int64_t batch_rows : {int64_t{1} << 30, int64_t{16384}, int64_t{10007}, int64_t{65539}}) {
      EXPECT_EQ(MustWrite(c, Options(), batch_rows), small_batches) << batch_rows;
    }
    auto reader = MustOpen(c.type, small_batches);
    ASSERT_TRUE(reader);
    for (int32_t key = 0; key < 60; ++key) {
      std::vector<uint32_t> expected;
      for (int32_t i = 0; i < n; ++i) {
        if (values[i] == key) expected.push_back(static_cast<uint32_t>(i));
      }
      const Literal literal = as_strings ? Literal::String("key-" + std::to_string(key))
                                         : Literal::Int(key);
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {literal})), expected) << key;
    }
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNull)), nulls);
  }
}

TEST(BitmapIndexBytes, ReservingFromTheFirstChunksKeepsTheBytes) {
  // 20 chunks of rows. A writer told how many rows come (ExpectRows, or one whole batch)
  // reserves each frequent key's room after 4 chunks; its bytes must equal those of a writer
  // that only grows, for keys that are uniform, clustered in the first chunks (the reservation
  // cap), sorted runs, late, rare at first and frequent later (outgrowing their room), and the
  // nulls.
  const int32_t n = 20 * 65536 + 123;
  std::vector<std::vector<std::optional<int32_t>>> shapes(4);
  for (int32_t i = 0; i < n; ++i) {
    const bool early = i < 4 * 65536;
    const int32_t scattered = static_cast<int32_t>(int64_t{i} * 7919 % 500);  // > 2^31 first
    const int32_t later = static_cast<int32_t>(10 + int64_t{i} * 31 % 2000);
    shapes[0].push_back(i % 53 == 0 ? std::nullopt : std::optional<int32_t>(scattered));
    shapes[1].push_back(early ? std::optional<int32_t>(i % 3) : std::optional<int32_t>(later));
    shapes[2].push_back(i % 97 == 0 ? std::nullopt : std::optional<int32_t>(i / 70000));
    const bool rare_key = early ? i % 50 == 0 : i % 2 == 0;  // key 7: 25x its early rate
    shapes[3].push_back(i % 41 == 0 ? std::nullopt
                                    : std::optional<int32_t>(rare_key ? 7 : 100 + i % 20));
  }
  for (const auto& values : shapes) {
    const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
    const std::vector<uint8_t> growing = MustWrite(c, Options(), 9973);
    EXPECT_EQ(MustWrite(c, Options()), growing);  // one batch: reserves
    auto writer = Bitmap().MakeWriter(c.type, Options());
    ASSERT_TRUE(writer.ok());
    (*writer)->ExpectRows(n);
    for (int64_t begin = 0; begin < n; begin += 65536) {
      TestColumn::Owned batch = c.Batch(begin, std::min<int64_t>(65536, n - begin));
      ASSERT_TRUE((*writer)->Write(batch.batch).ok());
    }
    auto hinted = (*writer)->Serialize();
    ASSERT_TRUE(hinted.ok());
    EXPECT_EQ(*hinted, growing);
  }
}

TEST(BitmapIndexBytes, ExpectingKeysFromASampleKeepsTheBytes) {
  // One batch lets the writer sample its rows and size the per-key arrays for the keys it
  // projects (DistinctSample); batches of 997 rows are too short to sample, so that writer
  // only grows. Their bytes must be equal, V1 and V2, for a key per row, repeats, a
  // projection far too high (all keys come in the first rows, then repeat), far too low
  // (runs, then new keys every row), nulls, and keys that stop ascending past the sample.
  const int32_t n = 150000;
  std::vector<std::vector<std::optional<int64_t>>> shapes(5);
  for (int32_t i = 0; i < n; ++i) {
    const int64_t shuffled = int64_t{i} * 7919 % n;
    shapes[0].push_back(shuffled);
    shapes[1].push_back(shuffled % 60000);
    shapes[2].push_back(i < n / 3 ? shuffled : shuffled % 1500);
    shapes[3].push_back(i < 40000 ? std::optional<int64_t>(i / 16) : std::optional<int64_t>(shuffled));
    shapes[4].push_back(i % 5 == 0 ? std::nullopt : std::optional<int64_t>(i < 90000 ? i : shuffled));
  }
  for (const char* version : {"1", "2"}) {
    const Options options = Opts({{"version", version}});
    for (const auto& values : shapes) {
      const TestColumn ints = FixedColumn<int64_t>("BIGINT", Physical::kInt64, values);
      EXPECT_EQ(MustWrite(ints, options), MustWrite(ints, options, 997));
      std::vector<std::optional<std::string>> strings;
      for (const auto& v : values) {
        strings.push_back(v ? std::optional<std::string>("key-" + std::to_string(*v)) : std::nullopt);
      }
      const TestColumn text = StringColumn("STRING", strings);
      EXPECT_EQ(MustWrite(text, options), MustWrite(text, options, 997));
    }
  }
}

TEST(BitmapIndexWriterTest, WriteAfterSerializeAndASecondSerializeAreRefused) {
  // Serializing hands the keys to the meta and frees the dictionary: nothing may use it after.
  for (const char* type : {"INT", "STRING"}) {
    SCOPED_TRACE(type);
    std::vector<std::optional<int32_t>> values = {1, 2, std::nullopt, 2};
    const TestColumn c = std::string(type) == "INT"
                             ? FixedColumn<int32_t>("INT", Physical::kInt32, values)
                             : StringColumn("STRING", {"a", "b", std::nullopt, "b"});
    auto writer = Bitmap().MakeWriter(c.type, Options());
    ASSERT_TRUE(writer.ok());
    TestColumn::Owned batch = c.Batch(0, 4);
    ASSERT_TRUE((*writer)->Write(batch.batch).ok());
    ASSERT_TRUE((*writer)->Serialize().ok());
    EXPECT_EQ((*writer)->Write(batch.batch).code(), StatusCode::kInvalidArgument);
    EXPECT_EQ((*writer)->Serialize().status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(BitmapIndexBytes, ReservingAHugePageBlockKeepsTheBytes) {
  // 2.6M rows of 1,000 scattered keys: the reservations add up to more than the size above
  // which their block is backed by huge pages. One key turns frequent after the projection and
  // leaves its room for the heap. The bytes equal a growing writer's, and every row is found.
  const int32_t n = 40 * 65536;
  std::vector<std::optional<int32_t>> values(n);
  for (int32_t i = 0; i < n; ++i) {
    const bool late_burst = i >= 8 * 65536 && i % 3 == 0;
    values[i] = i % 211 == 0 ? std::nullopt
                             : std::optional<int32_t>(late_burst ? 5 : int64_t{i} * 7919 % 1000);
  }
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
  const std::vector<uint8_t> growing = MustWrite(c, Options(), 65536);
  const std::vector<uint8_t> reserved = MustWrite(c, Options());
  ASSERT_EQ(reserved, growing);
  auto reader = MustOpen(c.type, reserved);
  ASSERT_TRUE(reader);
  for (int32_t key : {5, 6, 999}) {
    std::vector<uint32_t> expected;
    for (int32_t i = 0; i < n; ++i) {
      if (values[i] == key) expected.push_back(static_cast<uint32_t>(i));
    }
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)})), expected) << key;
  }
}

// ---- HashMap order (vectors from VERIFIED-roaring-hashmap.md, checked on JDK 17) ------------

TEST(BitmapIndexOrder, ResizeHappensOnTheCallAfterTheThresholdIsPassed) {
  std::vector<std::optional<int32_t>> rows = {16};
  for (int32_t v = 1; v <= 12; ++v) rows.push_back(v);
  const Options v1 = Opts({{"version", "1"}});
  std::vector<int64_t> expected = {16};
  for (int v = 1; v <= 12; ++v) expected.push_back(v);
  EXPECT_EQ(V1IntKeys(MustWrite(FixedColumn<int32_t>("INT", Physical::kInt32, rows), v1), 4),
            expected);
  // One more call on an existing key resizes to 32 slots: 16 moves behind 12.
  rows.push_back(5);
  expected.erase(expected.begin());
  expected.push_back(16);
  EXPECT_EQ(V1IntKeys(MustWrite(FixedColumn<int32_t>("INT", Physical::kInt32, rows), v1), 4),
            expected);
  // A null row is no HashMap call: no resize.
  rows.back() = std::nullopt;
  EXPECT_EQ(V1IntKeys(MustWrite(FixedColumn<int32_t>("INT", Physical::kInt32, rows), v1), 4)[0],
            16);
}

TEST(BitmapIndexOrder, TreeBins) {
  std::vector<std::optional<int32_t>> rows;
  for (int32_t v : {69, 133, 197, 261, 325, 389, 453, 517, 581, 645, 709}) rows.push_back(v);
  EXPECT_EQ(V1IntKeys(MustWrite(FixedColumn<int32_t>("INT", Physical::kInt32, rows),
                                Opts({{"version", "1"}})),
                      4),
            (std::vector<int64_t>{453, 645, 709, 581, 517, 389, 325, 261, 197, 133, 69}));
}

TEST(BitmapIndexOrder, LongKeysWithEqualHashCodes) {
  std::vector<std::optional<int64_t>> rows;
  for (int64_t x = 1; x <= 10; ++x) rows.push_back((x << 32) | x);
  std::vector<int64_t> expected;
  for (int64_t x : {7, 10, 9, 8, 6, 5, 4, 3, 2, 1}) expected.push_back((x << 32) | x);
  EXPECT_EQ(V1IntKeys(MustWrite(FixedColumn<int64_t>("BIGINT", Physical::kInt64, rows),
                                Opts({{"version", "1"}})),
                      8),
            expected);
}

TEST(BitmapIndexOrder, BinaryStrings) {
  std::vector<std::optional<std::string>> rows;
  for (char c = 'a'; c <= 'n'; ++c) rows.push_back(std::string(1, c));
  const std::vector<std::string> keys =
      V1StringKeys(MustWrite(StringColumn("STRING", rows), Opts({{"version", "1"}})));
  EXPECT_EQ(keys, (std::vector<std::string>{"j", "n", "m", "h", "d", "l", "k", "b", "i", "a", "e",
                                            "f", "c", "g"}));
}

// ---- V2 block packing -----------------------------------------------------------------------

TEST(BitmapIndexBytes, ClusteredStringsTakeTheRepeatPathWithTheSameBytes) {
  // Runs of equal strings (a sorted or clustered column) skip hashing for a row equal to the
  // one before; written 40 rows a batch, every piece is too short for that path. Both must
  // give the same bytes, HashMap order included: the 13 keys of the first column pass
  // HashMap's first resize threshold on the last key, and only the calls of its repeated
  // rows make Java resize (V1 lists keys in that order).
  std::vector<std::optional<std::string>> thirteen;
  for (int k = 0; k < 13; ++k) {
    for (int r = 0; r < 100; ++r) thirteen.push_back("key-" + std::to_string(k * 7919));
  }
  std::mt19937_64 rng(4242);
  std::vector<std::optional<std::string>> clustered;
  while (clustered.size() < 200000) {
    std::string key(rng() % 40, 'x');
    for (char& ch : key) ch = static_cast<char>('a' + rng() % 3);
    const size_t run = 1 + rng() % 150;
    for (size_t r = 0; r < run; ++r) {
      if (rng() % 20 == 0) clustered.push_back(std::nullopt);
      clustered.push_back(key);
    }
  }
  for (const auto* rows : {&thirteen, &clustered}) {
    const TestColumn column = StringColumn("STRING", *rows);
    for (const char* version : {"1", "2"}) {
      const Options options = Opts({{"version", version}});
      EXPECT_EQ(ToHex(MustWrite(column, options)), ToHex(MustWrite(column, options, 40)))
          << rows->size() << " rows, version " << version;
    }
  }
}

TEST(BitmapIndexBytes, SortedNumbersTakeTheRunPathWithTheSameBytes) {
  // A piece whose rows come in long runs goes in run by run (one lookup and one append per
  // run; a chunk holding one run of a key stores no values). Written 40 rows a batch, every
  // piece is too short for that path: both must give the same bytes.
  using Rows = std::vector<std::optional<int64_t>>;
  std::mt19937_64 rng(99);
  Rows thirteen;  // the last key crosses HashMap's threshold: only its repeats make Java resize
  for (int64_t k = 0; k < 13; ++k) thirteen.insert(thirteen.end(), 100, k * 7919);
  Rows sorted;  // runs of 1..300 rows, across piece and chunk boundaries
  for (int64_t k = 0; sorted.size() < 300000; ++k) sorted.insert(sorted.end(), 1 + rng() % 300, k);
  Rows many;  // past the 4096 container keys: rare keys' rows as runs too
  for (int64_t k = 0; many.size() < 350000; ++k) many.insert(many.end(), 40 + rng() % 60, -k);
  Rows recurring;  // keys come back in the same chunk, runs and single rows mixed
  while (recurring.size() < 200000) {
    recurring.insert(recurring.end(), rng() % 4 == 0 ? 1 : 1 + rng() % 500,
                     static_cast<int64_t>(rng() % 50));
  }
  Rows half_sorted = sorted;  // the second half shuffled: values after runs, same chunks
  std::shuffle(half_sorted.begin() + 150000, half_sorted.end(), rng);
  // Keys in run lists until a piece does not come in runs, then moved to containers: keys
  // with more runs than a list keeps pending (in a bitmap by then), a run across chunks, and
  // more keys than get containers.
  Rows runs_then_rows(100000, 5);  // one run over two chunks
  for (int64_t r = 0; r < 2 * 17000; ++r) runs_then_rows.insert(runs_then_rows.end(), 13, r % 2);
  for (int r = 0; r < 60000; ++r) runs_then_rows.push_back(static_cast<int64_t>(rng() % 9));
  Rows many_then_rows = many;
  for (int r = 0; r < 60000; ++r) many_then_rows.push_back(-static_cast<int64_t>(rng() % 6000));
  Rows some_nulls = sorted;  // scattered nulls break runs; a stretch of nulls is a run
  for (size_t i = 70000; i < 90000; i += 7) some_nulls[i] = std::nullopt;
  for (size_t i = 0; i < 1000; ++i) some_nulls[i] = std::nullopt;  // sorted nulls first
  for (size_t i = 130000; i < 200000; ++i) some_nulls[i] = std::nullopt;  // whole chunks

  auto as_int = [](const Rows& rows) {
    std::vector<std::optional<int32_t>> out;
    for (const auto& r : rows) {
      out.push_back(r ? std::optional<int32_t>(static_cast<int32_t>(*r)) : std::nullopt);
    }
    return FixedColumn<int32_t>("INT", Physical::kInt32, out);
  };
  auto as_double = [](const Rows& rows) {
    std::vector<std::optional<double>> out;
    for (const auto& r : rows) out.push_back(r ? std::optional<double>(*r * 0.5) : std::nullopt);
    return FixedColumn<double>("DOUBLE", Physical::kDouble, out);
  };
  const std::vector<std::pair<const char*, TestColumn>> columns = {
      {"thirteen", as_int(thirteen)},
      {"sorted", as_int(sorted)},
      {"sorted bigint", FixedColumn<int64_t>("BIGINT", Physical::kInt64, sorted)},
      {"many", as_int(many)},
      {"recurring double", as_double(recurring)},
      {"half sorted", as_int(half_sorted)},
      {"runs then rows", as_int(runs_then_rows)},
      {"many then rows", as_int(many_then_rows)},
      {"some nulls", as_int(some_nulls)},
  };
  for (const auto& [name, column] : columns) {
    for (const char* version : {"1", "2"}) {
      const Options options = Opts({{"version", version}});
      const std::string per_row = ToHex(MustWrite(column, options, 40));
      EXPECT_EQ(ToHex(MustWrite(column, options)), per_row) << name << ", version " << version;
      EXPECT_EQ(ToHex(MustWrite(column, options, 20000)), per_row)
          << name << ", version " << version << ", 20000-row batches";
    }
  }
}

TEST(BitmapIndexReader, InOfEveryKeyIsTheRowsThatAreNotNull) {
  // IN naming every key of the column answers the not-null rows without a union; each list
  // below must answer exactly as the rows equal to one of its literals.
  std::vector<std::optional<int32_t>> rows;
  for (int32_t i = 0; i < 70000; ++i) {
    rows.push_back(i % 9 == 4 ? std::nullopt : std::optional<int32_t>(i % 5 * 10));
  }
  rows.push_back(77);  // a key of one row (inlined in the meta)
  const TestColumn column = FixedColumn<int32_t>("INT", Physical::kInt32, rows);
  const std::vector<std::vector<std::optional<int32_t>>> lists = {
      {0, 10, 20, 30, 40, 77},           // every key
      {77, 40, 40, 30, 20, 10, 0, 0},    // every key, unordered, twice over
      {0, 10, 20, 30, 40, 77, std::nullopt},  // and the null literal
      {0, 10, 20, 30, 40},               // all but one
      {0, 10, 20, 30, 40, 5},            // all but one, and an absent value
  };
  for (const char* version : {"1", "2"}) {
    const std::vector<uint8_t> payload = MustWrite(column, Opts({{"version", version}}));
    auto reader = MustOpen(column.type, payload);
    ASSERT_NE(reader, nullptr);
    for (const auto& list : lists) {
      std::vector<Literal> literals;
      for (const auto& v : list) literals.push_back(v ? Literal::Int(*v) : Literal::Null());
      std::vector<uint32_t> in, not_in;
      for (uint32_t r = 0; r < rows.size(); ++r) {
        const bool listed = std::find(list.begin(), list.end(), rows[r]) != list.end();
        (listed ? in : not_in).push_back(r);
      }
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIn, literals)), in)
          << "version " << version << ", " << list.size() << " literals";
      // NOT IN flips IN over all rows (nulls stay in, as in Java).
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kNotIn, literals)), not_in)
          << "version " << version << ", " << list.size() << " literals";
    }
    // A row count damaged to 2^31 - 1: NOT IN of every key is still just the null rows (no
    // flip over the 32768 chunks the count claims), IN every row the count claims but those.
    std::vector<uint8_t> damaged = payload;
    io::StoreU32BE(damaged.data() + 1, 0x7FFFFFFFu);
    auto claimed = MustOpen(column.type, damaged);
    ASSERT_NE(claimed, nullptr);
    std::vector<Literal> every_key;
    for (const auto& v : lists[0]) every_key.push_back(Literal::Int(*v));
    std::vector<uint32_t> nulls;
    for (uint32_t r = 0; r < rows.size(); ++r) {
      if (!rows[r]) nulls.push_back(r);
    }
    EXPECT_EQ(RowsOf(Ask(*claimed, PredicateOp::kNotIn, every_key)), nulls) << version;
    auto in = Ask(*claimed, PredicateOp::kIn, every_key);
    ASSERT_TRUE(in.ok() && in->is_rows());
    EXPECT_EQ(in->rows().Cardinality(), uint64_t{0x7FFFFFFF} - nulls.size()) << version;
  }
}

TEST(BitmapIndexReader, AKeyAskedAgainAnswersTheSame) {
  // A key's bitmap is handed over as read the first time, cached from the second request on
  // and copied out of the cache after that: every answer must be the same, whichever
  // operator asks and however the requests interleave.
  std::vector<std::optional<int32_t>> rows;
  for (int32_t i = 0; i < 200000; ++i) {
    rows.push_back(i % 11 == 3 ? std::nullopt : std::optional<int32_t>(i % 3));
  }
  const TestColumn column = FixedColumn<int32_t>("INT", Physical::kInt32, rows);
  for (const char* version : {"1", "2"}) {
    const std::vector<uint8_t> payload = MustWrite(column, Opts({{"version", version}}));
    auto reader = MustOpen(column.type, payload);
    ASSERT_NE(reader, nullptr);
    for (int32_t key : {1, 2, 1, 1, 2, 0}) {
      std::vector<uint32_t> equal, not_equal;
      for (uint32_t r = 0; r < rows.size(); ++r) {
        (rows[r] == key ? equal : not_equal).push_back(r);
      }
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)})), equal)
          << "version " << version << ", key " << key;
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIn, {Literal::Int(key), Literal::Int(9)})),
                equal)
          << "version " << version << ", key " << key;
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kNotEqual, {Literal::Int(key)})), not_equal)
          << "version " << version << ", key " << key;
    }
  }
}

TEST(BitmapIndexBlocks, PackingBoundaries) {
  // INT entries are 4 + 8 = 12 bytes; a block also holds its 4-byte entry count.
  const std::vector<size_t> three(3, 12);
  EXPECT_EQ(*PackBlocks(three, 28), (std::vector<size_t>{0, 2}));     // 4+12+12 = 28 fits
  EXPECT_EQ(*PackBlocks(three, 27), (std::vector<size_t>{0, 1, 2}));  // one over
  EXPECT_EQ(*PackBlocks(three, 16), (std::vector<size_t>{0, 1, 2}));  // exactly one entry
  EXPECT_FALSE(PackBlocks(three, 15).ok());                           // entry larger than limit
  EXPECT_TRUE(PackBlocks({}, 0)->empty());
  EXPECT_EQ(*PackBlocks(three, 16384), (std::vector<size_t>{0}));
}

TEST(BitmapIndexBlocks, MetaPlanWritesExactlyItsSizeInPlace) {
  // The meta is sized first and written later, straight into the container: a plan that
  // miscounts would leave a gap or overwrite the body after it. Keys interned in ascending
  // order are listed by id (no id list), and must read as the explicit list does.
  StringKeyDictionary dictionary;
  std::vector<std::string> keys;
  for (int k = 0; k < 3000; ++k) keys.push_back("key-" + std::to_string(100000 + k * 7));
  for (const std::string& key : keys) dictionary.Intern(key);
  ASSERT_TRUE(dictionary.IdsAreSorted());
  std::vector<uint32_t> ids(keys.size());
  std::vector<KeyBody> bodies(keys.size());
  for (uint32_t id = 0; id < ids.size(); ++id) {
    ids[id] = id;
    bodies[id].offset =
        id % 5 == 0 ? static_cast<uint32_t>(-1 - static_cast<int32_t>(id)) : id * 40;
    bodies[id].bytes = id % 5 == 0 ? 0 : 40;
  }
  MetaHead head;
  head.row_count = 123456;
  head.has_null = true;
  head.null_offset = -8;
  head.null_length = 22;
  for (const int version : {1, 2}) {
    for (const uint32_t* meta_ids : {static_cast<const uint32_t*>(nullptr),
                                     static_cast<const uint32_t*>(ids.data())}) {
      const MetaKeys meta_keys = MetaKeys::OfDictionary(dictionary, meta_ids, keys.size());
      Result<MetaPlan> plan = version == 2
                                  ? MetaPlan::V2(head, KeyKind::kString, meta_keys, 1024)
                                  : Result<MetaPlan>(MetaPlan::V1(head, KeyKind::kString, meta_keys));
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      constexpr uint8_t kGuard = 0xA5;
      std::vector<uint8_t> out(plan->bytes() + 64, kGuard);
      plan->WriteTo(meta_keys, MetaEntries(meta_ids, bodies.data()), out.data());
      for (size_t i = plan->bytes(); i < out.size(); ++i) ASSERT_EQ(out[i], kGuard) << i;
      // The last entry (V1: key, offset; V2: key, offset, length) ends exactly at bytes().
      const size_t end = plan->bytes();
      const uint32_t last = static_cast<uint32_t>(keys.size() - 1);
      const size_t key_at = end - (version == 2 ? 8 : 4) - keys.back().size();
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()) + key_at,
                            keys.back().size()),
                keys.back()) << "version " << version;
      EXPECT_EQ(io::LoadU32BE(out.data() + key_at + keys.back().size()), bodies[last].offset);
      if (version == 2) {
        EXPECT_EQ(io::LoadU32BE(out.data() + end - 4), bodies[last].bytes);
      }
      EXPECT_EQ(out[0], version);
    }
  }
}

TEST(BitmapIndexBlocks, WriterSplitsBlocksAtTheLimit) {
  // Keys 1, 2, 3 with two rows each.
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, {3, 1, 2, 3, 1, 2});
  const std::vector<uint8_t> p = MustWrite(c, Opts({{"index-block-size", "28 b"}}));
  // head 10 | 2 blocks | key 1 off 0 | key 3 off 28 | size 28 + 16 = 44
  EXPECT_EQ(ToHex(Slice(p, 10, 24)),
            "00000002" "00000001" "00000000" "00000003" "0000001c" "0000002c");
  EXPECT_EQ(BE32(p, 34), 2);       // block 0: 2 entries
  EXPECT_EQ(BE32(p, 34 + 28), 1);  // block 1: 1 entry
  const std::vector<uint8_t> q = MustWrite(c, Opts({{"index-block-size", "27"}}));
  EXPECT_EQ(BE32(q, 10), 3);

  Result<std::vector<uint8_t>> too_small = WriteIndex(c, Opts({{"index-block-size", "15"}}));
  ASSERT_FALSE(too_small.ok());
  EXPECT_EQ(too_small.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_small.status().message().find("index fail"), std::string::npos);
  // The block size is a V2 option only: Java never parses it for V1.
  EXPECT_TRUE(WriteIndex(c, Opts({{"version", "1"}, {"index-block-size", "15"}})).ok());
  EXPECT_TRUE(WriteIndex(c, Opts({{"version", "1"}, {"index-block-size", "x"}})).ok());
  EXPECT_FALSE(WriteIndex(c, Opts({{"index-block-size", "x"}})).ok());
  // No entries, no blocks: any limit works.
  EXPECT_TRUE(WriteIndex(FixedColumn<int32_t>("INT", Physical::kInt32, {std::nullopt}),
                         Opts({{"index-block-size", "0"}}))
                  .ok());
}

TEST(BitmapIndexBlocks, StringEntrySizeCountsTheLengthPrefix) {
  // "abc": 4 + 3 + 8 = 15 bytes per entry; 4 + 15 = 19 fits a 19-byte block, not an 18-byte one.
  const TestColumn c = StringColumn("STRING", {"abc", "abd"});
  EXPECT_EQ(BE32(MustWrite(c, Opts({{"index-block-size", "19"}})), 10), 2);
  EXPECT_EQ(BE32(MustWrite(c, Opts({{"index-block-size", "34"}})), 10), 1);
  EXPECT_EQ(BE32(MustWrite(c, Opts({{"index-block-size", "33"}})), 10), 2);
  EXPECT_FALSE(WriteIndex(c, Opts({{"index-block-size", "18"}})).ok());
}

// Where V2's records lie in a payload without nulls: each block index record (key, offset)
// and the start of each index block (its entry count, then (key, offset, length) records).
struct V2Layout {
  std::vector<size_t> listed;  // block index records
  std::vector<size_t> blocks;  // index blocks
};

V2Layout LayoutOfV2(const std::vector<uint8_t>& p, size_t key_size /* 0: strings */) {
  auto key_bytes = [&](size_t pos) { return key_size != 0 ? key_size : 4 + BE32(p, pos); };
  V2Layout layout;
  size_t pos = 10;  // version, row count, key count, has-null flag (no nulls)
  const int32_t count = BE32(p, pos);
  pos += 4;
  for (int32_t b = 0; b < count; ++b) {
    layout.listed.push_back(pos);
    pos += key_bytes(pos) + 4;
  }
  const size_t blocks_start = pos + 4;
  for (size_t listed : layout.listed) {
    layout.blocks.push_back(blocks_start + BE32(p, listed + key_bytes(listed)));
  }
  return layout;
}

void ExpectCorrupt(const Result<FileIndexResult>& result, const std::string& words) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(result.status().message().find(words), std::string::npos)
      << result.status().ToString();
}

TEST(BitmapIndexBlocks, KeysOutOfOrderAreCorruptNotMissed) {
  // Lookups binary-search the records in place, so a reader must refuse keys that do not
  // ascend instead of answering from them. Four INT keys, two per block: 10 20 | 30 40.
  const TestColumn ints = FixedColumn<int32_t>("INT", Physical::kInt32, {40, 10, 30, 20});
  const std::vector<uint8_t> good = MustWrite(ints, Opts({{"index-block-size", "28"}}));
  const V2Layout layout = LayoutOfV2(good, 4);
  ASSERT_EQ(layout.blocks.size(), 2u);
  ASSERT_EQ(BE32(good, layout.listed[1]), 30);
  EXPECT_EQ(RowsOf(Ask(*MustOpen(ints.type, good), PredicateOp::kEqual, {Literal::Int(20)})),
            Rows({3}));

  // The block index lists 30 before 10: opening fails.
  std::vector<uint8_t> bad = good;
  std::copy_n(good.begin() + layout.listed[0], 4, bad.begin() + layout.listed[1]);
  Result<std::unique_ptr<ColumnIndexReader>> opened =
      Bitmap().OpenReader(ints.type, io::ByteSpan(bad));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("the index block list do not ascend at record 1"),
            std::string::npos)
      << opened.status().ToString();

  // Block 0 holds 20 before 10: the block is refused when first searched.
  bad = good;
  const size_t entry0 = layout.blocks[0] + 4;
  const size_t entry1 = entry0 + 12;
  std::swap_ranges(bad.begin() + entry0, bad.begin() + entry0 + 4, bad.begin() + entry1);
  std::copy_n(good.begin() + entry1, 4, bad.begin() + layout.listed[0]);  // listed key 20
  auto reader = MustOpen(ints.type, bad);
  ASSERT_TRUE(reader);
  ExpectCorrupt(Ask(*reader, PredicateOp::kEqual, {Literal::Int(20)}), "an index block do not");
  // The other block still answers.
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(40)})), Rows({0}));

  // Block 1 starts with 35 where the block index lists 30.
  bad = good;
  io::StoreU32BE(bad.data() + layout.blocks[1] + 4, 35);
  reader = MustOpen(ints.type, bad);
  ASSERT_TRUE(reader);
  ExpectCorrupt(Ask(*reader, PredicateOp::kEqual, {Literal::Int(40)}),
                "does not start with its listed key");

  // The same for string keys (records found one after another): "b" before "a" in block 0.
  const TestColumn strings = StringColumn("STRING", {"a", "b", "c", "d"});
  const std::vector<uint8_t> good_strings =
      MustWrite(strings, Opts({{"index-block-size", "30"}}));
  const V2Layout string_layout = LayoutOfV2(good_strings, 0);
  ASSERT_EQ(string_layout.blocks.size(), 2u);
  bad = good_strings;
  const size_t first = string_layout.blocks[0] + 4 + 4;  // the byte of block 0's first key
  std::swap(bad[first], bad[first + 13]);                // 4 + 1 + 8 bytes per record
  bad[string_layout.listed[0] + 4] = bad[first];  // listed key "b"
  reader = MustOpen(strings.type, bad);
  ASSERT_TRUE(reader);
  ExpectCorrupt(Ask(*reader, PredicateOp::kEqual, {Literal::String("b")}),
                "an index block do not");
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::String("d")})), Rows({3}));
}

TEST(BitmapIndexReader, InListsReadInPlaceRefuseDamagedBitmaps) {
  // IN of several keys unites their bitmaps where they lie in the payload, so the content
  // rules a deserialized bitmap is held to must hold there too. 3,000 rows, keys 0..29 of
  // 100 rows each: each key's bitmap is one array container (a 16-byte head, then its rows).
  std::vector<std::optional<int32_t>> rows;
  for (int32_t i = 0; i < 3000; ++i) rows.push_back(i % 30);
  const TestColumn column = FixedColumn<int32_t>("INT", Physical::kInt32, rows);
  for (const char* version : {"1", "2"}) {
    const std::vector<uint8_t> good = MustWrite(column, Opts({{"version", version}}));
    const std::vector<Literal> list = {Literal::Int(7), Literal::Int(3), Literal::Int(12)};
    std::vector<uint32_t> in;
    for (uint32_t r = 0; r < rows.size(); ++r) {
      if (*rows[r] == 3 || *rows[r] == 7 || *rows[r] == 12) in.push_back(r);
    }
    EXPECT_EQ(RowsOf(Ask(*MustOpen(column.type, good), PredicateOp::kIn, list)), in) << version;

    // Key 7's bitmap, found by its bytes.
    roaring::Bitmap32 seven;
    for (uint32_t r = 7; r < 3000; r += 30) seven.Add(r);
    const std::vector<uint8_t> seven_bytes = seven.Serialize();
    const auto found = std::search(good.begin(), good.end(), seven_bytes.begin(),
                                   seven_bytes.end());
    ASSERT_NE(found, good.end()) << version;
    const size_t values = static_cast<size_t>(found - good.begin()) + 16;

    std::vector<uint8_t> bad = good;  // rows 7 and 37 swapped: the array does not ascend
    std::swap_ranges(bad.begin() + values, bad.begin() + values + 2, bad.begin() + values + 2);
    ExpectCorrupt(Ask(*MustOpen(column.type, bad), PredicateOp::kIn, list), "bitmap at payload");
    ExpectCorrupt(Ask(*MustOpen(column.type, bad), PredicateOp::kNotIn, list),
                  "bitmap at payload");

    bad = good;  // the last row 65535, past the 3,000 rows (the array still ascends)
    io::StoreU16LE(bad.data() + values + 2 * 99, 0xFFFF);
    ExpectCorrupt(Ask(*MustOpen(column.type, bad), PredicateOp::kIn, list),
                  "beyond the row count");

    // The other keys' bitmaps are untouched: a list without key 7 still answers.
    std::vector<uint32_t> without_seven;
    for (uint32_t r : in) {
      if (*rows[r] != 7) without_seven.push_back(r);
    }
    EXPECT_EQ(RowsOf(Ask(*MustOpen(column.type, bad), PredicateOp::kIn,
                         {Literal::Int(3), Literal::Int(12)})),
              without_seven)
        << version;
  }
}

// ---- options and types ---------------------------------------------------------------------

TEST(BitmapIndexType, OptionsAndTypes) {
  const IndexType& bitmap = Bitmap();
  EXPECT_EQ(bitmap.name(), "bitmap");
  for (const char* ok : {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
                         "DATE", "TIME", "TIME(3)", "TIMESTAMP(0)", "TIMESTAMP(3)", "TIMESTAMP(9)",
                         "TIMESTAMP_LTZ(6)", "CHAR(5)", "VARCHAR(10)", "STRING"}) {
    EXPECT_TRUE(bitmap.CheckType(Type(ok)).ok()) << ok;
  }
  for (const char* bad : {"DECIMAL(10, 2)", "BINARY(4)", "BYTES", "ARRAY<INT>",
                          "MAP<STRING, INT>"}) {
    const Status status = bitmap.CheckType(Type(bad));
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find(Type(bad).ToString()), std::string::npos)
        << status.message();
    EXPECT_FALSE(bitmap.MakeWriter(Type(bad), Options()).ok());
  }
  EXPECT_FALSE(bitmap.MakeWriter(Type("INT"), Opts({{"version", "3"}})).ok());
  EXPECT_FALSE(bitmap.MakeWriter(Type("INT"), Opts({{"version", "0"}})).ok());
  EXPECT_FALSE(bitmap.MakeWriter(Type("INT"), Opts({{"version", "two"}})).ok());
  EXPECT_TRUE(bitmap.MakeWriter(Type("INT"), Opts({{"version", "1"}, {"other", "x"}})).ok());
}

TEST(BitmapIndexType, WrongPhysicalKindIsRejected) {
  const TestColumn c = FixedColumn<int64_t>("BIGINT", Physical::kInt64, {1});
  TestColumn as_int = c;
  as_int.type = Type("INT");
  EXPECT_EQ(WriteIndex(as_int, Options()).status().code(), StatusCode::kInvalidArgument);
}

TEST(BitmapIndexType, TimestampOverflowIsAnError) {
  const TestColumn c = FixedColumn<int64_t>("TIMESTAMP(6)", Physical::kTimestamp,
                                            {std::numeric_limits<int64_t>::max()},
                                            TimeUnit::kSecond);
  EXPECT_FALSE(WriteIndex(c, Options()).ok());
  // A writer whose Write failed gives no result.
  auto writer = Bitmap().MakeWriter(c.type, Options());
  ASSERT_TRUE(writer.ok());
  TestColumn::Owned batch = c.Batch(0, 1);
  EXPECT_FALSE((*writer)->Write(batch.batch).ok());
  EXPECT_FALSE((*writer)->Serialize().ok());
  // ... unless the row is null.
  TestColumn null_row = c;
  null_row.valid[0] = 0;
  EXPECT_TRUE(WriteIndex(null_row, Options()).ok());
}

// ---- reader: Java payloads ------------------------------------------------------------------

TEST(BitmapIndexReader, AnswersOnJavaPayloads) {
  const std::vector<uint8_t> v2 = SetAContainerV2();
  const std::vector<uint8_t> v1 = FromHex(kSetAContainerV1Hex);
  struct Payload {
    std::vector<uint8_t> f0, f1, f2;
  };
  for (const Payload& p : {Payload{Slice(v2, 96, 176), Slice(v2, 272, 102), Slice(v2, 374, 108)},
                           Payload{Slice(v1, 96, 131), Slice(v1, 227, 74), Slice(v1, 301, 76)}}) {
    auto f0 = MustOpen(Type("STRING"), p.f0);
    auto f1 = MustOpen(Type("INT"), p.f1);
    auto f2 = MustOpen(Type("INT"), p.f2);
    ASSERT_TRUE(f0 && f1 && f2);
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kEqual, {Literal::String("Bob")})), Rows({1, 5}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kEqual, {Literal::String("Lucy")})), Rows({4}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kEqual, {Literal::String("Tony")})), Rows({3, 6}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kEqual, {Literal::String("Zed")})), Rows({}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kIn,
                         {Literal::String("Alice"), Literal::String("Emily")})),
              Rows({0, 2, 7}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kNotIn,
                         {Literal::String("Alice"), Literal::String("Emily")})),
              Rows({1, 3, 4, 5, 6}));
    EXPECT_EQ(RowsOf(Ask(*f0, PredicateOp::kIsNull)), Rows({}));
    EXPECT_EQ(RowsOf(Ask(*f1, PredicateOp::kEqual, {Literal::Int(10)})), Rows({0, 1, 2, 3, 5}));
    EXPECT_EQ(RowsOf(Ask(*f1, PredicateOp::kNotEqual, {Literal::Int(10)})), Rows({4, 6, 7}));
    EXPECT_EQ(RowsOf(Ask(*f2, PredicateOp::kEqual, {Literal::Int(0)})), Rows({2, 3, 6}));
    // <> keeps null rows (Java flips the union over [0, rowCount)).
    EXPECT_EQ(RowsOf(Ask(*f2, PredicateOp::kNotEqual, {Literal::Int(1)})), Rows({2, 3, 6, 7}));
    EXPECT_EQ(RowsOf(Ask(*f2, PredicateOp::kIsNull)), Rows({7}));
    EXPECT_EQ(RowsOf(Ask(*f2, PredicateOp::kIsNotNull)), Rows({0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(RowsOf(Ask(*f2, PredicateOp::kEqual, {Literal::Null()})), Rows({7}));
    // Not answered by a bitmap index.
    for (PredicateOp op : {PredicateOp::kLessThan, PredicateOp::kGreaterOrEqual}) {
      Result<FileIndexResult> r = Ask(*f1, op, {Literal::Int(10)});
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->kind(), FileIndexResult::Kind::kRemain);
    }
    // An empty answer is still a row set (Paimon's BitmapIndexResult), which does not remain.
    Result<FileIndexResult> none = Ask(*f1, PredicateOp::kEqual, {Literal::Int(11)});
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->is_rows());
    EXPECT_FALSE(none->remain());
  }
}

TEST(BitmapIndexReader, DescribeAndVersionErrors) {
  const std::vector<uint8_t> v2 = SetAContainerV2();
  auto f2 = MustOpen(Type("INT"), Slice(v2, 374, 108));
  ASSERT_TRUE(f2);
  auto facts = f2->Describe();
  ASSERT_TRUE(facts.ok());
  std::map<std::string, std::string> m(facts->begin(), facts->end());
  EXPECT_EQ(m["version"], "2");
  EXPECT_EQ(m["row_count"], "8");
  EXPECT_EQ(m["cardinality"], "2");
  EXPECT_EQ(m["null_count"], "1");
  EXPECT_EQ(m["index_blocks"], "1");

  std::vector<uint8_t> newer = Slice(v2, 374, 108);
  newer[0] = 3;
  Result<std::unique_ptr<ColumnIndexReader>> r = Bitmap().OpenReader(Type("INT"), io::ByteSpan(newer));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("version 3 is newer"), std::string::npos)
      << r.status().message();
  newer[0] = 0;
  EXPECT_EQ(Bitmap().OpenReader(Type("INT"), io::ByteSpan(newer)).status().code(),
            StatusCode::kCorrupt);
  const std::vector<uint8_t> nothing;
  EXPECT_EQ(Bitmap().OpenReader(Type("INT"), io::ByteSpan(nothing)).status().code(),
            StatusCode::kCorrupt);
}

TEST(BitmapIndexReader, LiteralConversion) {
  const TestColumn c = FixedColumn<int8_t>("TINYINT", Physical::kInt8, {1, -128, 127, 1});
  const std::vector<uint8_t> p = MustWrite(c);
  auto reader = MustOpen(c.type, p);
  ASSERT_TRUE(reader);
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(-128)})), Rows({1}));
  // Out of the column's range: matches nothing, not a narrowed value (300 would wrap to 44).
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(300)})), Rows({}));
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(257)})), Rows({}));
  EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kNotEqual, {Literal::Int(257)})),
            Rows({0, 1, 2, 3}));
  Result<FileIndexResult> wrong = Ask(*reader, PredicateOp::kEqual, {Literal::String("1")});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("TINYINT"), std::string::npos);

  const TestColumn f = FixedColumn<float>("FLOAT", Physical::kFloat, {0.1f, -0.0f, 0.0f});
  const std::vector<uint8_t> fp = MustWrite(f);
  auto fr = MustOpen(f.type, fp);
  ASSERT_TRUE(fr);
  EXPECT_EQ(RowsOf(Ask(*fr, PredicateOp::kEqual, {Literal::Double(static_cast<double>(0.1f))})),
            Rows({0}));
  EXPECT_EQ(RowsOf(Ask(*fr, PredicateOp::kEqual, {Literal::Double(0.1)})), Rows({}));
  EXPECT_EQ(RowsOf(Ask(*fr, PredicateOp::kEqual, {Literal::Double(-0.0)})), Rows({1}));
  EXPECT_EQ(RowsOf(Ask(*fr, PredicateOp::kEqual, {Literal::Double(1e300)})), Rows({}));
  EXPECT_FALSE(Ask(*fr, PredicateOp::kEqual, {Literal::Int(0)}).ok());

  // TIMESTAMP(6): literal (millis, nanos of milli) -> micros, floor.
  const TestColumn t = FixedColumn<int64_t>("TIMESTAMP(6)", Physical::kTimestamp,
                                            {-1500, 2500, -1500}, TimeUnit::kMicro);
  const std::vector<uint8_t> tp = MustWrite(t, Opts({{"version", "1"}}));
  auto tr = MustOpen(t.type, tp);
  ASSERT_TRUE(tr);
  EXPECT_EQ(RowsOf(Ask(*tr, PredicateOp::kEqual, {Literal::Timestamp(-2, 500000)})),
            Rows({0, 2}));
  EXPECT_EQ(RowsOf(Ask(*tr, PredicateOp::kEqual, {Literal::Timestamp(2, 500999)})), Rows({1}));
  EXPECT_EQ(RowsOf(Ask(*tr, PredicateOp::kEqual,
                       {Literal::Timestamp(std::numeric_limits<int64_t>::max(), 0)})),
            Rows({}));
  EXPECT_FALSE(Ask(*tr, PredicateOp::kEqual, {Literal::Int(-1500)}).ok());
}

// ---- reader vs brute force on random data ---------------------------------------------------

// A random column plus, per row, a comparable key (independent of the index code).
struct RandomCase {
  TestColumn column;
  std::vector<std::string> keys;       // per row: identity of the Java key ("" for null rows)
  std::vector<Literal> probe_literals;  // literals to query with
  std::vector<std::string> probe_keys;  // their key identities ("" never matches)
};

std::string KeyId(uint64_t bits) { return std::to_string(bits); }

RandomCase MakeRandomCase(std::mt19937_64& rng) {
  RandomCase rc;
  const int kind = static_cast<int>(rng() % 11);
  const int64_t rows = static_cast<int64_t>(rng() % 300);
  const int domain = 1 + static_cast<int>(rng() % 40);
  const double null_rate = (rng() % 3 == 0) ? 0.0 : (rng() % 100) / 100.0;
  auto is_null = [&] { return std::uniform_real_distribution<double>(0, 1)(rng) < null_rate; };
  auto pick = [&] { return static_cast<int64_t>(rng() % domain); };

  auto numeric = [&](auto tag, const char* type, Physical physical, auto make_value,
                     auto key_of, auto literal_of, TimeUnit unit = TimeUnit::kMicro) {
    using T = decltype(tag);
    std::vector<std::optional<T>> values;
    for (int64_t i = 0; i < rows; ++i) {
      if (is_null()) {
        values.push_back(std::nullopt);
        rc.keys.push_back("");
      } else {
        T v = make_value(pick());
        values.push_back(v);
        rc.keys.push_back(key_of(v));
      }
    }
    rc.column = FixedColumn<T>(type, physical, values, unit);
    for (int64_t j = 0; j < domain + 3; ++j) {
      T v = make_value(j);
      rc.probe_literals.push_back(literal_of(v));
      rc.probe_keys.push_back(key_of(v));
    }
  };
  const auto int_key = [](auto v) { return KeyId(static_cast<uint64_t>(static_cast<int64_t>(v))); };
  const auto int_literal = [](auto v) { return Literal::Int(static_cast<int64_t>(v)); };
  switch (kind) {
    case 0:
      numeric(int8_t{}, "TINYINT", Physical::kInt8,
              [](int64_t x) { return static_cast<int8_t>(x * 37 - 100); }, int_key, int_literal);
      break;
    case 1:
      numeric(int16_t{}, "SMALLINT", Physical::kInt16,
              [](int64_t x) { return static_cast<int16_t>(x * 1024 - 3000); }, int_key,
              int_literal);
      break;
    case 2:
      // Multiples of 1024: equal low bits force long HashMap chains and tree bins.
      numeric(int32_t{}, "INT", Physical::kInt32,
              [](int64_t x) { return static_cast<int32_t>(x * 1024); }, int_key, int_literal);
      break;
    case 3:
      numeric(int32_t{}, "DATE", Physical::kInt32,
              [](int64_t x) { return static_cast<int32_t>(x * 7 - 50); }, int_key, int_literal);
      break;
    case 4:
      numeric(int64_t{}, "BIGINT", Physical::kInt64,
              [](int64_t x) { return (x << 32) | (x * 3); }, int_key, int_literal);
      break;
    case 5: {
      const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                                std::numeric_limits<float>::infinity(), -1.5f, 1e-40f};
      numeric(float{}, "FLOAT", Physical::kFloat,
              [&](int64_t x) { return x < 6 ? specials[x] : static_cast<float>(x) * 0.25f; },
              [](float v) { return KeyId(static_cast<uint32_t>(java::FloatToIntBits(v))); },
              [](float v) { return Literal::Double(static_cast<double>(v)); });
      break;
    }
    case 6: {
      const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                                 -std::numeric_limits<double>::infinity(), 0.1};
      numeric(double{}, "DOUBLE", Physical::kDouble,
              [&](int64_t x) { return x < 5 ? specials[x] : static_cast<double>(x) / 3; },
              [](double v) { return KeyId(static_cast<uint64_t>(java::DoubleToLongBits(v))); },
              [](double v) { return Literal::Double(v); });
      break;
    }
    case 7:
      numeric(uint8_t{}, "BOOLEAN", Physical::kBool,
              [](int64_t x) { return static_cast<uint8_t>(x & 1); },
              [](uint8_t v) { return KeyId(v); },
              [](uint8_t v) { return Literal::Bool(v != 0); });
      break;
    case 8: {
      // TIMESTAMP(3) from nanos: key = floor(ns / 1e6).
      numeric(int64_t{}, "TIMESTAMP(3)", Physical::kTimestamp,
              [](int64_t x) { return (x - 5) * 400000 + 1; },
              [](int64_t ns) { return KeyId(static_cast<uint64_t>(column::FloorDiv(ns, 1000000))); },
              [](int64_t ns) {
                return Literal::Timestamp(column::FloorDiv(ns, 1000000),
                                          static_cast<int32_t>(column::FloorMod(ns, 1000000)));
              },
              TimeUnit::kNano);
      break;
    }
    case 9: {
      // TIMESTAMP(9) from nanos: key = floor(ns / 1000); neighbours share a microsecond.
      numeric(int64_t{}, "TIMESTAMP(9)", Physical::kTimestamp,
              [](int64_t x) { return (x - 5) * 700 - 1; },
              [](int64_t ns) { return KeyId(static_cast<uint64_t>(column::FloorDiv(ns, 1000))); },
              [](int64_t ns) {
                return Literal::Timestamp(column::FloorDiv(ns, 1000000),
                                          static_cast<int32_t>(column::FloorMod(ns, 1000000)));
              },
              TimeUnit::kNano);
      break;
    }
    default: {
      auto word = [](int64_t x) {
        std::string s = "k" + std::to_string(x * 7919 % 1000);
        if (x % 5 == 0) s += "\xc3\xa9";
        if (x % 7 == 0) s = s.substr(0, 1);
        if (x == 3) s.clear();
        return s;
      };
      std::vector<std::optional<std::string>> values;
      for (int64_t i = 0; i < rows; ++i) {
        if (is_null()) {
          values.push_back(std::nullopt);
          rc.keys.push_back("");
        } else {
          std::string s = word(pick());
          values.push_back(s);
          rc.keys.push_back("s:" + s);
        }
      }
      rc.column = StringColumn(rng() % 2 ? "STRING" : "CHAR(4)", values);
      for (int64_t j = 0; j < domain + 3; ++j) {
        rc.probe_literals.push_back(Literal::String(word(j)));
        rc.probe_keys.push_back("s:" + word(j));
      }
    }
  }
  return rc;
}

std::vector<uint32_t> BruteEqual(const RandomCase& rc, const std::string& key) {
  std::vector<uint32_t> rows;
  for (size_t i = 0; i < rc.keys.size(); ++i) {
    if (!rc.keys[i].empty() && rc.keys[i] == key) rows.push_back(static_cast<uint32_t>(i));
  }
  return rows;
}

std::vector<uint32_t> Complement(const std::vector<uint32_t>& rows, size_t n) {
  std::vector<uint32_t> out;
  std::set<uint32_t> in(rows.begin(), rows.end());
  for (uint32_t i = 0; i < n; ++i) {
    if (!in.count(i)) out.push_back(i);
  }
  return out;
}

// Timestamp keys may be coarser than a literal or a value: <> / NOT IN keep such keys' rows,
// so their answers are checked as supersets of the flipped equal rows.
bool NanosecondTimestamp(const DataType& type) { return type.IsTimestamp(); }

TEST(BitmapIndexReader, RandomDataAgainstBruteForce) {
  std::mt19937_64 rng(20250521);
  for (int round = 0; round < 300; ++round) {
    const RandomCase rc = MakeRandomCase(rng);
    const int version = 1 + static_cast<int>(rng() % 2);
    const int64_t block = rng() % 3 == 0 ? 16384 : 40 + static_cast<int64_t>(rng() % 80);
    const Options options = Opts({{"version", std::to_string(version)},
                                  {"index-block-size", std::to_string(block)}});
    const int64_t batch_rows = 1 + static_cast<int64_t>(rng() % 100);
    const std::vector<uint8_t> payload = MustWrite(rc.column, options, batch_rows);
    ASSERT_FALSE(payload.empty());
    SCOPED_TRACE("round " + std::to_string(round) + " type " + rc.column.type.ToString() +
                 " version " + std::to_string(version) + " block " + std::to_string(block));
    // The batch split never changes the bytes.
    EXPECT_EQ(MustWrite(rc.column, options), payload);
    auto reader = MustOpen(rc.column.type, payload);
    ASSERT_TRUE(reader);
    const size_t n = rc.keys.size();

    std::vector<uint32_t> nulls;
    for (size_t i = 0; i < n; ++i) {
      if (rc.keys[i].empty()) nulls.push_back(static_cast<uint32_t>(i));
    }
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNull)), nulls);
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNotNull)), Complement(nulls, n));

    for (size_t j = 0; j < rc.probe_literals.size(); ++j) {
      const std::vector<uint32_t> eq = BruteEqual(rc, rc.probe_keys[j]);
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {rc.probe_literals[j]})), eq)
          << rc.probe_literals[j].ToString();
      // Coarse timestamp keys: <> and NOT IN may keep more rows, never fewer.
      if (NanosecondTimestamp(rc.column.type)) {
        const std::vector<uint32_t> ne =
            RowsOf(Ask(*reader, PredicateOp::kNotEqual, {rc.probe_literals[j]}));
        const std::vector<uint32_t> flipped = Complement(eq, n);
        EXPECT_TRUE(std::includes(ne.begin(), ne.end(), flipped.begin(), flipped.end()));
      } else {
        EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kNotEqual, {rc.probe_literals[j]})),
                  Complement(eq, n));
      }
    }
    for (int k = 0; k < 5; ++k) {
      std::vector<Literal> list;
      std::set<uint32_t> expected;
      const size_t count = rng() % 4;
      for (size_t m = 0; m < count; ++m) {
        const size_t j = rng() % rc.probe_literals.size();
        list.push_back(rc.probe_literals[j]);
        for (uint32_t r : BruteEqual(rc, rc.probe_keys[j])) expected.insert(r);
      }
      const std::vector<uint32_t> in(expected.begin(), expected.end());
      EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIn, list)), in);
      if (NanosecondTimestamp(rc.column.type)) {
        const std::vector<uint32_t> not_in = RowsOf(Ask(*reader, PredicateOp::kNotIn, list));
        const std::vector<uint32_t> flipped = Complement(in, n);
        EXPECT_TRUE(std::includes(not_in.begin(), not_in.end(), flipped.begin(), flipped.end()));
      } else {
        EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kNotIn, list)), Complement(in, n));
      }
    }
  }
}

TEST(BitmapIndexReader, ManyRowsAndKeysAcrossChunks) {
  // More rows than one writer chunk, keys from unique to very frequent, some nulls.
  std::vector<std::optional<int64_t>> values;
  const int64_t n = 200000;
  for (int64_t i = 0; i < n; ++i) {
    if (i % 97 == 0) {
      values.push_back(std::nullopt);
    } else if (i % 3 == 0) {
      values.push_back(i);  // unique keys (single-row, inlined)
    } else {
      values.push_back(-(i % 1000));
    }
  }
  const TestColumn c = FixedColumn<int64_t>("BIGINT", Physical::kInt64, values);
  for (const char* version : {"1", "2"}) {
    const std::vector<uint8_t> p = MustWrite(c, Opts({{"version", version}}), 70000);
    auto reader = MustOpen(c.type, p);
    ASSERT_TRUE(reader);
    std::vector<uint32_t> expected;
    for (int64_t i = 0; i < n; ++i) {
      if (i % 97 != 0 && i % 3 != 0 && i % 1000 == 5) expected.push_back(static_cast<uint32_t>(i));
    }
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(-5)})), expected);
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kEqual, {Literal::Int(99999)})), Rows({99999}));
    EXPECT_EQ(RowsOf(Ask(*reader, PredicateOp::kIsNull)).size(), static_cast<size_t>(n / 97 + 1));
  }
}

TEST(BitmapIndexReader, ConcurrentQueriesShareTheCache) {
  std::vector<std::optional<int32_t>> values;
  for (int32_t i = 0; i < 5000; ++i) values.push_back(i % 50);
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
  const std::vector<uint8_t> p = MustWrite(c, Opts({{"index-block-size", "64"}}));
  auto reader = MustOpen(c.type, p);
  ASSERT_TRUE(reader);
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        const int32_t key = (round * 7 + t) % 50;
        Result<FileIndexResult> r = Ask(*reader, PredicateOp::kEqual, {Literal::Int(key)});
        if (!r.ok() || !r->is_rows() || r->rows().Cardinality() != 100 ||
            !r->rows().Contains(static_cast<uint32_t>(key))) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

// ---- robustness: truncation and corruption --------------------------------------------------

// Damage is reported as Corrupt, or NotSupported for a version byte from the future.
void ExpectDamageStatus(const Status& status, const char* call) {
  if (status.ok()) return;
  EXPECT_TRUE(status.code() == StatusCode::kCorrupt || status.code() == StatusCode::kNotSupported)
      << call << ": " << status.ToString();
  EXPECT_FALSE(status.message().empty()) << call;
}

// Opens and queries; every step must return a damage Status or an answer of rows inside the
// row count the payload declares (ASan watches the reads).
void Exercise(const DataType& type, const std::vector<uint8_t>& payload,
              const std::vector<Literal>& probes) {
  Result<std::unique_ptr<ColumnIndexReader>> opened =
      Bitmap().OpenReader(type, io::ByteSpan(payload));
  if (!opened.ok()) {
    ExpectDamageStatus(opened.status(), "OpenReader");
    return;
  }
  const ColumnIndexReader& reader = **opened;
  const int64_t row_count = reader.StoredRowCount();
  ASSERT_GE(row_count, 0);
  auto check = [&](const Result<FileIndexResult>& r, const char* call) {
    ExpectDamageStatus(r.status(), call);
    if (!r.ok()) return;
    ASSERT_TRUE(r->is_rows()) << call;
    if (r->rows().IsEmpty()) return;
    const auto ranges = r->rows().ToRanges();
    EXPECT_LE(ranges.back().second, static_cast<uint64_t>(row_count)) << call;
  };
  ExpectDamageStatus(reader.Describe().status(), "Describe");
  for (const Literal& literal : probes) {
    if (literal.is_null()) continue;  // only IN lists take NULL
    check(Ask(reader, PredicateOp::kEqual, {literal}), "=");
    check(Ask(reader, PredicateOp::kNotEqual, {literal}), "!=");
  }
  check(Ask(reader, PredicateOp::kIn, probes), "IN");
  check(Ask(reader, PredicateOp::kNotIn, probes), "NOT IN");
  check(Ask(reader, PredicateOp::kIsNull), "IS NULL");
  check(Ask(reader, PredicateOp::kIsNotNull), "IS NOT NULL");
}

struct CorpusItem {
  DataType type;
  std::vector<uint8_t> payload;
  std::vector<Literal> probes;
};

std::vector<CorpusItem> Corpus() {
  std::vector<CorpusItem> corpus;
  const std::vector<uint8_t> v2 = SetAContainerV2();
  const std::vector<uint8_t> v1 = FromHex(kSetAContainerV1Hex);
  const std::vector<Literal> names = {Literal::String("Alice"), Literal::String("Bob"),
                                      Literal::String("Lucy"), Literal::String("Tony"),
                                      Literal::String("x"), Literal::Null()};
  const std::vector<Literal> ints = {Literal::Int(0), Literal::Int(1), Literal::Int(10),
                                     Literal::Int(20), Literal::Int(3), Literal::Null()};
  corpus.push_back({Type("STRING"), Slice(v2, 96, 176), names});
  corpus.push_back({Type("INT"), Slice(v2, 374, 108), ints});
  corpus.push_back({Type("STRING"), Slice(v1, 96, 131), names});
  corpus.push_back({Type("INT"), Slice(v1, 301, 76), ints});
  // Multi-block V2 and a V1 with a null bitmap in the body, from the writer.
  std::vector<std::optional<int32_t>> values;
  for (int32_t i = 0; i < 300; ++i) {
    values.push_back(i % 11 == 0 ? std::nullopt : std::optional<int32_t>(i % 23 == 0 ? i : i % 9));
  }
  const TestColumn c = FixedColumn<int32_t>("INT", Physical::kInt32, values);
  corpus.push_back({c.type, MustWrite(c, Opts({{"index-block-size", "40"}})), ints});
  corpus.push_back({c.type, MustWrite(c, Opts({{"version", "1"}})), ints});
  return corpus;
}

TEST(BitmapIndexRobustness, EveryPrefixFailsCleanlyOrAnswers) {
  for (const CorpusItem& item : Corpus()) {
    for (size_t len = 0; len < item.payload.size(); ++len) {
      // A fresh heap block of exactly `len` bytes, so ASan catches any read past it.
      std::vector<uint8_t> prefix(item.payload.begin(), item.payload.begin() + len);
      prefix.shrink_to_fit();
      Exercise(item.type, prefix, item.probes);
    }
    // Opening the full payload works.
    EXPECT_TRUE(Bitmap().OpenReader(item.type, io::ByteSpan(item.payload)).ok());
  }
}

TEST(BitmapIndexRobustness, RandomByteFlips) {
  std::mt19937_64 rng(77);
  const std::vector<CorpusItem> corpus = Corpus();
  for (int round = 0; round < 6000; ++round) {
    const CorpusItem& item = corpus[round % corpus.size()];
    std::vector<uint8_t> bytes = item.payload;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t pos = rng() % bytes.size();
      if (rng() % 2) {
        bytes[pos] ^= static_cast<uint8_t>(1u << (rng() % 8));
      } else {
        bytes[pos] = static_cast<uint8_t>(rng());
      }
    }
    Exercise(item.type, bytes, item.probes);
  }
}

}  // namespace
}  // namespace pyfileindex::index::bitmap
