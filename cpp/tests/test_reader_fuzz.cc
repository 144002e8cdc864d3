// Damaged containers through the public reader: thousands of seeded mutations (bytes
// overwritten, bits flipped, lengths and counts set to edge values in either byte order,
// spans copied over others, truncation) of containers holding every index type. Whatever the
// damage, each call returns OK or an error naming it (Corrupt; NotSupported for a version
// from the future; NotFound for an index type name no reader has), and each answer of rows is
// a consistent set; under the sanitizer build (./dev test) no read leaves the buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "keyed_container.h"
#include "pyfileindex/file_index_result.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

using O = PredicateOp;

std::vector<Field> Fields() { return test_arrow::KeyedFields(); }

// `rows` rows of keys drawn from `cardinality` values (ascending when `sorted`), nulls every
// `null_every` rows (0: none), indexed as `options` say.
std::vector<uint8_t> Container(int64_t rows, uint64_t cardinality, bool sorted,
                               int64_t null_every, const Options& options) {
  std::mt19937_64 rng(static_cast<uint64_t>(rows) * 31 + cardinality);
  std::vector<uint64_t> keys(static_cast<size_t>(rows));
  for (auto& key : keys) key = rng() % cardinality;
  if (sorted) std::sort(keys.begin(), keys.end());
  auto container = test_arrow::KeyedContainer(keys, null_every, options);
  EXPECT_TRUE(container.ok()) << container.status().ToString();
  return container.ok() ? *container : std::vector<uint8_t>{};
}

Options EveryIndexType() {
  return Options(std::map<std::string, std::string>{
      {"file-index.bitmap.columns", "score,name"},
      {"file-index.bitmap.score.version", "1"},
      {"file-index.bitmap.name.index-block-size", "128b"},
      {"file-index.bloom-filter.columns", "name,id"},
      {"file-index.bloom-filter.name.items", "200"},
      {"file-index.bsi.columns", "id,score"},
      {"file-index.range-bitmap.columns", "id,score,name,price"},
      {"file-index.range-bitmap.name.chunk-size", "256b"},
      {"file-index.range-bitmap.price.chunk-size", "128b"},
  });
}

Options BitmapsWithSmallBlocks() {
  return Options(std::map<std::string, std::string>{
      {"file-index.bitmap.columns", "id,score,name,price"},
      {"file-index.bitmap.id.index-block-size", "64b"},
      {"file-index.bitmap.name.index-block-size", "32b"},
  });
}

std::vector<PredicatePtr> Questions() {
  using P = Predicate;
  using L = Literal;
  return {
      P::Leaf(O::kEqual, "name", {L::String("name-5")}),
      P::Leaf(O::kIn, "name", {L::String("name-1"), L::String("name-2"), L::String("zz")}),
      P::Leaf(O::kNotEqual, "name", {L::String("name-3")}),
      P::Leaf(O::kIsNull, "name"),
      P::Leaf(O::kLessThan, "name", {L::String("name-2")}),
      P::Leaf(O::kEqual, "score", {L::Int(2)}),
      P::Leaf(O::kNotIn, "score", {L::Int(1), L::Int(2)}),
      // Unions read in place: the null rows among them, keys stored as single rows.
      P::Leaf(O::kIn, "score", {L::Int(3), L::Null(), L::Int(5), L::Int(7), L::Int(9)}),
      P::Leaf(O::kIn, "id", {L::Int(2 * 1000003 - 77), L::Int(3 * 1000003 - 77), L::Int(5)}),
      P::Leaf(O::kBetween, "score", {L::Int(1), L::Int(30)}),
      P::Leaf(O::kIsNotNull, "score"),
      P::Leaf(O::kEqual, "id", {L::Int(2 * 1000003 - 77)}),
      P::Leaf(O::kGreaterThan, "id", {L::Int(0)}),
      P::Leaf(O::kLessOrEqual, "price", {L::Double(0.5)}),
      P::And({P::Leaf(O::kGreaterOrEqual, "score", {L::Int(1)}),
              P::Leaf(O::kEqual, "name", {L::String("name-2")})}),
      P::Or({P::Leaf(O::kLessThan, "id", {L::Int(0)}), P::Leaf(O::kIsNull, "price")}),
      // String patterns: a prefix run, a dictionary scan, its complement.
      P::Leaf(O::kStartsWith, "name", {L::String("name-1")}),
      P::Leaf(O::kLike, "name", {L::String("%e-_")}),
      P::Leaf(O::kNotLike, "name", {L::String("n!%%"), L::String("!")}),
  };
}

std::vector<TopN> TopNs() {
  std::vector<TopN> tops;
  for (const char* column : {"score", "name", "price", "id"}) {
    TopN top;
    top.column = column;
    top.limit = 5;
    tops.push_back(top);
    top.descending = top.nulls_first = top.with_ties = true;
    tops.push_back(top);
  }
  return tops;
}

// Edge values for 4-byte lengths, counts and offsets.
constexpr uint32_t kEdgeValues[] = {0,   1,     2,      3,      4,          7,          8,
                                    255, 256,   0x7fff, 0x8000, 0xffff,     0x10000,    0x7fffffff,
                                    100, 65535, 65537,  1000,   0x80000000, 0xfffffffe, 0xffffffff};

std::vector<uint8_t> Damaged(const std::vector<uint8_t>& intact, std::mt19937_64& rng) {
  std::vector<uint8_t> bytes = intact;
  const int kind = static_cast<int>(rng() % 6);
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !bytes.empty(); ++e) {
    const size_t at = rng() % bytes.size();
    const uint32_t edge = kEdgeValues[rng() % (sizeof(kEdgeValues) / sizeof(kEdgeValues[0]))];
    switch (kind) {
      case 0: bytes[at] = static_cast<uint8_t>(rng()); break;
      case 1: bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      case 2:  // big-endian (the container and Paimon's own fields)
        for (size_t q = 0; q < 4 && at + q < bytes.size(); ++q) {
          bytes[at + q] = static_cast<uint8_t>(edge >> (24 - 8 * q));
        }
        break;
      case 3:  // little-endian (roaring's portable format)
        for (size_t q = 0; q < 4 && at + q < bytes.size(); ++q) {
          bytes[at + q] = static_cast<uint8_t>(edge >> (8 * q));
        }
        break;
      case 4: bytes.resize(at); break;
      default: {  // a span copied over another
        const size_t from = rng() % bytes.size();
        const size_t length = 1 + rng() % 64;
        for (size_t q = 0; q < length && from + q < bytes.size() && at + q < bytes.size(); ++q) {
          bytes[at + q] = bytes[from + q];
        }
      }
    }
  }
  return bytes;
}

struct Tally {
  int answered = 0;
  int refused = 0;
};

// Every question of the reader over exactly `bytes` (a heap block of that size, so a read
// past its end is one the sanitizer sees). Fails the test on any other error (an
// InvalidArgument would blame the caller, an Internal a bug).
void AskEverything(const std::vector<uint8_t>& bytes, Tally* tally) {
  std::vector<uint8_t> exact(bytes);
  exact.shrink_to_fit();
  const std::string what = "damaged container of " + std::to_string(bytes.size()) + " bytes";
  auto check = [&](const Status& status) {
    if (status.ok()) {
      ++tally->answered;
      return;
    }
    ++tally->refused;
    const StatusCode code = status.code();
    EXPECT_TRUE(code == StatusCode::kCorrupt || code == StatusCode::kNotSupported ||
                code == StatusCode::kNotFound)
        << what << ": " << status.ToString();
    EXPECT_FALSE(status.message().empty()) << what;
  };
  auto check_rows = [&](const Result<FileIndexResult>& result) {
    check(result.status());
    if (!result.ok() || !result->is_rows()) return;
    uint64_t in_ranges = 0;
    for (const auto& [begin, end] : result->rows().ToRanges()) in_ranges += end - begin;
    EXPECT_EQ(in_ranges, result->rows().Cardinality()) << what;
  };
  auto reader = FileIndexReader::Open(exact.data(), exact.size(), Fields());
  check(reader.status());
  if (!reader.ok()) return;
  for (const PredicatePtr& question : Questions()) check_rows((*reader)->Evaluate(*question));
  for (const TopN& top : TopNs()) check_rows((*reader)->EvaluateTopN(top, nullptr));
  for (const IndexEntry& entry : (*reader)->entries()) check((*reader)->Describe(entry).status());
}

TEST(ReaderFuzz, DamagedContainersAnswerOrNameTheDamage) {
  const std::vector<std::vector<uint8_t>> containers = {
      Container(3000, 40, false, 17, EveryIndexType()),
      Container(5000, 3, true, 0, EveryIndexType()),
      Container(70000, 4, false, 11, BitmapsWithSmallBlocks()),
      Container(800, 800, false, 0, BitmapsWithSmallBlocks()),
  };
  for (const auto& intact : containers) {
    ASSERT_FALSE(intact.empty());
    Tally tally;
    AskEverything(intact, &tally);
    EXPECT_EQ(tally.refused, 0) << "the intact container answers everything";
  }
  constexpr int kCasesPerContainer = 800;
  std::mt19937_64 rng(20261127);
  Tally tally;
  for (const auto& intact : containers) {
    for (int c = 0; c < kCasesPerContainer; ++c) AskEverything(Damaged(intact, rng), &tally);
  }
  // The damage reaches both outcomes: some copies still answer, many are refused.
  EXPECT_GT(tally.answered, 1000);
  EXPECT_GT(tally.refused, 1000);
}

}  // namespace
}  // namespace pyfileindex
