// One opened FileIndexReader evaluated from 8 threads at once must give every thread the answers
// a single thread gets. Uses the public API only, as an engine would. Each round opens a fresh
// reader and releases all threads together, so they race on the lazy opening of every index
// (and of the lazily read parts inside the indexes) — the code ThreadSanitizer must see run
// concurrently. Built as its own executable so the TSan tree (./dev test) builds only this.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "arrow_batch.h"
#include "pyfileindex/arrow_c_abi.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 3;  // fresh reader per round: the lazy-open race happens each time

std::string SharedDir() { return std::string(PYFILEINDEX_SOURCE_DIR) + "/../shared"; }

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
}

Field MakeField(const std::string& name, const std::string& type) {
  Result<DataType> parsed = ParseDataType(type);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  return {name, parsed.ok() ? *parsed : DataType{}};
}

// An answer as text, so answers compare (and print) easily.
std::string AnswerText(const Result<FileIndexResult>& result) {
  if (!result.ok()) return "error " + result.status().ToString();
  switch (result->kind()) {
    case FileIndexResult::Kind::kRemain: return "REMAIN";
    case FileIndexResult::Kind::kSkip: return "SKIP";
    case FileIndexResult::Kind::kRows: break;
  }
  std::string text = "rows";
  for (const auto& [begin, end] : result->rows().ToRanges()) {
    text += " " + std::to_string(begin) + "-" + std::to_string(end);
  }
  return text;
}

struct Workload {
  std::vector<PredicatePtr> predicates;
  std::vector<TopN> top_ns;
};

// Everything one thread asks of a reader, in a thread-specific order, as answer texts in a
// fixed order (so they compare with the single-threaded baseline).
std::string CountText(const Result<std::optional<uint64_t>>& counted) {
  if (!counted.ok()) return "error " + counted.status().ToString();
  return counted->has_value() ? std::to_string(**counted) : "unknown";
}

std::string MinMaxText(const Result<std::optional<std::pair<Literal, Literal>>>& found) {
  if (!found.ok()) {
    return found.status().code() == StatusCode::kNotFound ? "no range-bitmap"
                                                            : "error " + found.status().ToString();
  }
  if (!found->has_value()) return "no value";
  return (*found)->first.ToString() + " .. " + (*found)->second.ToString();
}

// Every third row: the selection MinMax is asked within (as a deletion vector would leave).
const RowBitmap& EveryThirdRow() {
  static const RowBitmap rows = [] {
    std::vector<uint32_t> kept;
    for (uint32_t row = 0; row < 40000; row += 3) kept.push_back(row);
    return RowBitmap::FromSorted(kept.data(), kept.size());
  }();
  return rows;
}

std::vector<std::string> RunWorkload(const FileIndexReader& reader, const Workload& work,
                                     size_t start) {
  const size_t n = work.predicates.size();
  const size_t entries = reader.entries().size();
  std::vector<std::string> answers(2 * n + work.top_ns.size() + 2 * entries);
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    answers[i] = work.predicates[i]->ToString() + " => " + AnswerText(reader.Evaluate(*work.predicates[i]));
  }
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    answers[n + work.top_ns.size() + entries + i] =
        "count " + work.predicates[i]->ToString() + " => " +
        CountText(reader.Count(*work.predicates[i], &EveryThirdRow()));
  }
  for (size_t k = 0; k < entries; ++k) {
    const size_t i = (start + k) % entries;
    const std::string& column = reader.entries()[i].column;
    answers[2 * n + work.top_ns.size() + entries + i] =
        "minmax " + column + " => " + MinMaxText(reader.MinMax(column)) + " / " +
        MinMaxText(reader.MinMax(column, &EveryThirdRow()));
  }
  for (size_t i = 0; i < work.top_ns.size(); ++i) {
    answers[n + i] = "topn " + work.top_ns[i].column + " => " +
                     AnswerText(reader.EvaluateTopN(work.top_ns[i], nullptr));
  }
  for (size_t i = 0; i < reader.entries().size(); ++i) {
    auto facts = reader.Describe(reader.entries()[i]);
    std::string text = "describe " + reader.entries()[i].column + "/" + reader.entries()[i].index_type;
    if (!facts.ok()) {
      text += " error " + facts.status().ToString();
    } else {
      for (const auto& [key, value] : *facts) text += " " + key + "=" + value;
    }
    answers[n + work.top_ns.size() + i] = text;
  }
  return answers;
}

// Opens `bytes` afresh kRounds times; each time kThreads threads start together on the same
// reader. Every thread's answers must equal the single-threaded baseline.
void ExpectSameAnswersFromManyThreads(const std::vector<uint8_t>& bytes,
                                      const std::vector<Field>& fields, const Workload& work) {
  auto baseline_reader = FileIndexReader::Open(bytes.data(), bytes.size(), fields);
  ASSERT_TRUE(baseline_reader.ok()) << baseline_reader.status().ToString();
  const std::vector<std::string> baseline = RunWorkload(**baseline_reader, work, 0);
  size_t row_answers = 0;
  size_t counted = 0, min_maxes = 0;
  for (const std::string& answer : baseline) {
    EXPECT_EQ(answer.find("error"), std::string::npos) << answer;
    if (answer.find("=> rows") != std::string::npos) ++row_answers;
    if (answer.rfind("count ", 0) == 0 && answer.find("unknown") == std::string::npos) ++counted;
    if (answer.rfind("minmax ", 0) == 0 && answer.find("..") != std::string::npos) ++min_maxes;
  }
  // Exact counts and range-bitmap min/max are asked too, not only their unknown answers.
  EXPECT_GE(counted, 1u);
  const auto& entries = (*baseline_reader)->entries();
  if (std::any_of(entries.begin(), entries.end(),
                  [](const IndexEntry& e) { return e.index_type == "range-bitmap"; })) {
    EXPECT_GE(min_maxes, 1u);
  }
  // The workload must exercise the indexes, not only REMAIN paths.
  EXPECT_GE(row_answers, work.predicates.size() / 2);

  for (int round = 0; round < kRounds; ++round) {
    auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), fields);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<std::vector<std::string>> answers(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (!go.load()) std::this_thread::yield();
        answers[t] = RunWorkload(**reader, work, static_cast<size_t>(t) * 7);
      });
    }
    while (ready.load() < kThreads) std::this_thread::yield();
    go.store(true);
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
      ASSERT_EQ(answers[t].size(), baseline.size());
      for (size_t i = 0; i < baseline.size(); ++i) {
        EXPECT_EQ(answers[t][i], baseline[i]) << "round " << round << ", thread " << t;
      }
    }
  }
}

PredicatePtr Leaf(PredicateOp op, const std::string& column, std::vector<Literal> literals = {}) {
  return Predicate::Leaf(op, column, std::move(literals));
}

// Java-written: bsi on f1,f2,f4; bitmap on f0,f1,f2,f4; bloom-filter on f0..f4 (data set B).
TEST(ConcurrentReader, JavaContainerWithBitmapBsiBloomFrom8Threads) {
  const std::string path = SharedDir() +
      "/golden/paimon-java-tables/append_with_bsi_bitmap_bloomfilter.db/"
      "append_with_bsi_bitmap_bloomfilter/bucket-0/"
      "data-15f89029-c10f-437f-b819-338c3e8ab2ee-0.parquet.index";
  const std::vector<uint8_t> bytes = ReadFile(path);
  ASSERT_FALSE(bytes.empty()) << "cannot read " << path;
  const std::vector<Field> fields = {MakeField("f0", "STRING"), MakeField("f1", "INT"),
                                     MakeField("f2", "INT"), MakeField("f3", "DOUBLE"),
                                     MakeField("f4", "TIMESTAMP(9)")};
  Workload work;
  auto& p = work.predicates;
  for (const char* name : {"Alice", "Bob", "Tony", "Nobody"}) {
    p.push_back(Leaf(PredicateOp::kEqual, "f0", {Literal::String(name)}));
    p.push_back(Leaf(PredicateOp::kNotEqual, "f0", {Literal::String(name)}));
  }
  for (int64_t v : {-3, -2, 1, 20, 100, 300, 999}) {
    for (const char* column : {"f1", "f2"}) {
      p.push_back(Leaf(PredicateOp::kEqual, column, {Literal::Int(v)}));
      p.push_back(Leaf(PredicateOp::kLessThan, column, {Literal::Int(v)}));
      p.push_back(Leaf(PredicateOp::kGreaterOrEqual, column, {Literal::Int(v)}));
    }
  }
  p.push_back(Leaf(PredicateOp::kIn, "f1", {Literal::Int(100), Literal::Int(500)}));
  p.push_back(Leaf(PredicateOp::kNotIn, "f2", {Literal::Int(1), Literal::Int(-2)}));
  p.push_back(Leaf(PredicateOp::kBetween, "f1", {Literal::Int(50), Literal::Int(300)}));
  p.push_back(Leaf(PredicateOp::kIsNull, "f1"));
  p.push_back(Leaf(PredicateOp::kIsNotNull, "f2"));
  p.push_back(Leaf(PredicateOp::kIsNull, "f4"));
  p.push_back(Leaf(PredicateOp::kEqual, "f4", {Literal::Timestamp(1745542802000, 123000)}));
  p.push_back(Leaf(PredicateOp::kGreaterThan, "f4", {Literal::Timestamp(0, 0)}));
  p.push_back(Leaf(PredicateOp::kEqual, "f3", {Literal::Double(12.1)}));
  p.push_back(Predicate::And({Leaf(PredicateOp::kEqual, "f0", {Literal::String("Bob")}),
                              Leaf(PredicateOp::kGreaterThan, "f1", {Literal::Int(150)})}));
  p.push_back(Predicate::Or({Leaf(PredicateOp::kEqual, "f0", {Literal::String("Tony")}),
                             Leaf(PredicateOp::kIsNull, "f2")}));
  ExpectSameAnswersFromManyThreads(bytes, fields, work);
}

// Written here with small blocks and chunks, so the readers have many lazily loaded parts:
// range-bitmap on all three columns, bitmap (V2) on name/score, bsi on id/score, bloom on
// name/id.
TEST(ConcurrentReader, WrittenContainerWithEveryIndexTypeFrom8Threads) {
  constexpr int64_t kRows = 20000;
  test_arrow::OwnedColumn id("id", "l", kRows);
  test_arrow::OwnedColumn score("score", "i", kRows);
  test_arrow::OwnedColumn name("name", "u", kRows);
  int64_t score_nulls = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    id.int64_values.push_back(row * 3 - 5000);
    score.int32_values.push_back(static_cast<int32_t>((row * 7919) % 1000));
    if (row % 97 == 0) {  // some nulls
      score.SetNull(row);
      ++score_nulls;
    }
    name.AppendString("name-" + std::to_string(row % 500));
  }
  id.Finish(kRows, 0);
  score.Finish(kRows, score_nulls);
  name.Finish(kRows, 0);

  test_arrow::OwnedBatch batch({&id, &score, &name}, kRows);

  const std::vector<Field> fields = {MakeField("id", "BIGINT"), MakeField("score", "INT"),
                                     MakeField("name", "STRING")};
  Options options;
  options.Set("file-index.range-bitmap.columns", "id,score,name");
  options.Set("file-index.bitmap.columns", "name,score");
  options.Set("file-index.bsi.columns", "id,score");
  options.Set("file-index.bloom-filter.columns", "name,id");
  options.Set("file-index.range-bitmap.id.chunk-size", "1kb");
  options.Set("file-index.range-bitmap.name.chunk-size", "1kb");
  options.Set("file-index.bitmap.name.index-block-size", "1kb");
  options.Set("file-index.bitmap.score.index-block-size", "1kb");
  auto writer = FileIndexWriter::Make(fields, options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  Status written = (*writer)->Write(batch.schema, batch.array);
  ASSERT_TRUE(written.ok()) << written.ToString();
  auto finished = (*writer)->Finish();
  ASSERT_TRUE(finished.ok()) << finished.status().ToString();
  ASSERT_TRUE(finished->has_value());
  const std::vector<uint8_t> bytes = std::move(**finished);

  Workload work;
  auto& p = work.predicates;
  for (int64_t v : {-5000, -4997, 0, 1, 12345, 54994, 60000}) {
    p.push_back(Leaf(PredicateOp::kEqual, "id", {Literal::Int(v)}));
    p.push_back(Leaf(PredicateOp::kLessOrEqual, "id", {Literal::Int(v)}));
    p.push_back(Leaf(PredicateOp::kGreaterThan, "id", {Literal::Int(v)}));
  }
  for (int64_t v : {0, 1, 333, 998, 999, 1000}) {
    p.push_back(Leaf(PredicateOp::kEqual, "score", {Literal::Int(v)}));
    p.push_back(Leaf(PredicateOp::kLessThan, "score", {Literal::Int(v)}));
    p.push_back(Leaf(PredicateOp::kNotEqual, "score", {Literal::Int(v)}));
  }
  for (const char* text : {"name-0", "name-250", "name-499", "name-500", "zzz"}) {
    p.push_back(Leaf(PredicateOp::kEqual, "name", {Literal::String(text)}));
    p.push_back(Leaf(PredicateOp::kGreaterOrEqual, "name", {Literal::String(text)}));
  }
  p.push_back(Leaf(PredicateOp::kIsNull, "score"));
  p.push_back(Leaf(PredicateOp::kIsNotNull, "score"));
  p.push_back(Leaf(PredicateOp::kBetween, "id", {Literal::Int(100), Literal::Int(20000)}));
  p.push_back(Leaf(PredicateOp::kIn, "name", {Literal::String("name-7"), Literal::String("name-8")}));
  p.push_back(Predicate::And({Leaf(PredicateOp::kLessThan, "score", {Literal::Int(100)}),
                              Leaf(PredicateOp::kGreaterThan, "id", {Literal::Int(30000)})}));
  p.push_back(Predicate::Or({Leaf(PredicateOp::kEqual, "name", {Literal::String("name-3")}),
                             Leaf(PredicateOp::kIsNull, "score")}));
  work.top_ns = {TopN{"score", true, false, 10}, TopN{"id", false, true, 25},
                 TopN{"name", true, true, 5}, TopN{"score", false, true, 3, /*with_ties=*/true}};

  // Sanity: exact indexes answer exactly (id is unique, step 3 from -5000).
  auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), fields);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(AnswerText((*reader)->Evaluate(*Leaf(PredicateOp::kEqual, "id", {Literal::Int(1)}))),
            "rows 1667-1668");
  auto no_such_id = (*reader)->Evaluate(*Leaf(PredicateOp::kEqual, "id", {Literal::Int(0)}));
  ASSERT_TRUE(no_such_id.ok()) << no_such_id.status().ToString();
  EXPECT_FALSE(no_such_id->remain());

  ExpectSameAnswersFromManyThreads(bytes, fields, work);
}

// Results are values shared between copies: many threads may read one row set at once
// (iterate it, take its ranges, serialize it).
TEST(ConcurrentReader, OneResultReadFrom8Threads) {
  std::vector<uint32_t> rows;
  for (uint32_t v = 0; v < 300000; v += (v % 7) + 1) rows.push_back(v);
  const FileIndexResult shared = FileIndexResult::Rows(RowBitmap::FromRows(rows.data(), rows.size()));
  const std::vector<uint8_t> bytes = shared.rows().Serialize();
  const auto ranges = shared.rows().ToRanges();
  std::atomic<bool> go{false};
  std::vector<int> matches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const FileIndexResult mine = shared;  // a copy shares the row set
      while (!go.load()) std::this_thread::yield();
      std::vector<uint32_t> seen(mine.rows().begin(), mine.rows().end());
      matches[t] = (seen == rows) + (mine.rows().Serialize() == bytes) +
                   (mine.rows().ToRanges() == ranges) +
                   (mine.rows().Cardinality() == rows.size());
    });
  }
  go.store(true);
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(matches[t], 4) << "thread " << t;
}

// Taking the rows out of a result never changes what a copy of it holds: a shared row set is
// copied, a result's own one moved.
TEST(ConcurrentReader, TakingRowsLeavesCopiesWhole) {
  std::vector<uint32_t> rows;
  for (uint32_t v = 0; v < 200000; v += (v % 5) + 1) rows.push_back(v);
  FileIndexResult original = FileIndexResult::Rows(RowBitmap::FromRows(rows.data(), rows.size()));
  const FileIndexResult copy = original;
  RowBitmap taken = std::move(original).TakeRows();
  EXPECT_EQ(original.kind(), FileIndexResult::Kind::kRemain);
  ASSERT_TRUE(copy.is_rows());
  EXPECT_NE(&copy.rows(), &taken);
  taken.Add(7777777);
  EXPECT_EQ(copy.rows().Cardinality(), rows.size());
  EXPECT_EQ(taken.Cardinality(), rows.size() + 1);

  FileIndexResult alone = FileIndexResult::Rows(RowBitmap::FromRows(rows.data(), rows.size()));
  const std::vector<uint8_t> bytes = alone.rows().Serialize();
  RowBitmap moved = std::move(alone).TakeRows();
  EXPECT_EQ(alone.kind(), FileIndexResult::Kind::kRemain);
  EXPECT_EQ(moved.Serialize(), bytes);
}

}  // namespace
}  // namespace pyfileindex
