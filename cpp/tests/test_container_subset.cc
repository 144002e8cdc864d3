// PlanContainerSubset: a container cut down to some columns' indexes answers those columns as
// the whole container does, and a header that cannot be cut down is refused, never misread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <tuple>
#include <map>
#include <string>
#include <vector>

#include "arrow_batch.h"
#include "container/container_format.h"
#include "io/byte_writer.h"
#include "pyfileindex/container_subset.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"
#include "test_support.h"

namespace pyfileindex {
namespace {

using test_support::Type;

constexpr int64_t kRows = 400;

std::vector<Field> Fields() {
  return {{"a", Type("INT")}, {"b", Type("BIGINT")}, {"c", Type("STRING")}};
}

std::vector<uint8_t> Container() {
  test_arrow::OwnedColumn a("a", "i", kRows), b("b", "l", kRows), c("c", "u", kRows);
  for (int64_t row = 0; row < kRows; ++row) {
    a.int32_values.push_back(static_cast<int32_t>(row % 7));
    b.int64_values.push_back(row * 3);
    c.AppendString("v" + std::to_string(row % 11));
  }
  a.Finish(kRows, 0);
  b.Finish(kRows, 0);
  c.Finish(kRows, 0);
  test_arrow::OwnedBatch batch({&a, &b, &c}, kRows);
  auto writer = FileIndexWriter::Make(
      Fields(), Options(std::map<std::string, std::string>{
                    {"file-index.bitmap.columns", "a,c"},
                    {"file-index.range-bitmap.columns", "a,b"},
                    {"file-index.bloom-filter.columns", "b"}}));
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->Write(batch.schema, batch.array).ok());
  auto finished = (*writer)->Finish();
  return **finished;
}

// The subset's bytes, its bodies copied from `whole` where the plan says.
std::vector<uint8_t> Fill(const ContainerSubset& plan, const std::vector<uint8_t>& whole) {
  std::vector<uint8_t> out(static_cast<size_t>(plan.size));
  std::memcpy(out.data(), plan.head.data(), plan.head.size());
  for (const SubsetBody& body : plan.bodies) {
    std::memcpy(out.data() + body.offset, whole.data() + body.source_offset,
                static_cast<size_t>(body.length));
  }
  return out;
}

Result<ContainerSubset> Plan(const std::vector<uint8_t>& whole, std::vector<std::string> columns,
                             size_t head_size = 0) {
  return PlanContainerSubset(whole.data(), head_size == 0 ? whole.size() : head_size,
                             static_cast<int64_t>(whole.size()), columns);
}

std::string Answer(const std::vector<uint8_t>& bytes, const Predicate& predicate) {
  auto reader = FileIndexReader::Open(bytes.data(), bytes.size(), Fields());
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  auto answer = (*reader)->Evaluate(predicate);
  EXPECT_TRUE(answer.ok()) << answer.status().ToString();
  if (answer->is_rows()) return "rows " + std::to_string(answer->rows().Cardinality());
  return answer->kind() == FileIndexResult::Kind::kSkip ? "skip" : "remain";
}

TEST(ContainerSubsetTest, ASubsetAnswersItsColumnsLikeTheWholeContainer) {
  const std::vector<uint8_t> whole = Container();
  const std::vector<PredicatePtr> questions = {
      Predicate::Leaf(PredicateOp::kEqual, "a", {Literal::Int(3)}),
      Predicate::Leaf(PredicateOp::kLessThan, "a", {Literal::Int(2)}),
      Predicate::Leaf(PredicateOp::kEqual, "b", {Literal::Int(300)}),
      Predicate::Leaf(PredicateOp::kGreaterThan, "b", {Literal::Int(1000)}),
      Predicate::Leaf(PredicateOp::kEqual, "c", {Literal::String("v4")}),
  };
  for (const std::vector<std::string>& columns :
       std::vector<std::vector<std::string>>{{"a"}, {"b"}, {"c"}, {"a", "c"}, {"b", "a"}}) {
    auto plan = Plan(whole, columns);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    const std::vector<uint8_t> subset = Fill(*plan, whole);
    EXPECT_LT(subset.size(), whole.size());
    auto reader = FileIndexReader::Open(subset.data(), subset.size(), Fields());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    std::set<std::string> listed;
    for (const IndexEntry& entry : (*reader)->entries()) listed.insert(entry.column);
    EXPECT_EQ(listed, std::set<std::string>(columns.begin(), columns.end()));
    for (const PredicatePtr& question : questions) {
      if (listed.count(question->column) == 0) continue;
      EXPECT_EQ(Answer(subset, *question), Answer(whole, *question)) << question->ToString();
    }
  }
}

TEST(ContainerSubsetTest, EachColumnKeepsEveryIndexInHeaderOrderAndBodiesStayAdjacent) {
  const std::vector<uint8_t> whole = Container();
  auto entries = container::ReadContainerHeader(io::ByteSpan(whole.data(), whole.size()));
  ASSERT_TRUE(entries.ok());
  auto plan = Plan(whole, {"a", "absent"});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  std::vector<std::string> whole_types, subset_types;
  for (const IndexEntry& entry : *entries) {
    if (entry.column == "a") whole_types.push_back(entry.index_type);
  }
  const std::vector<uint8_t> subset = Fill(*plan, whole);
  auto subset_entries = container::ReadContainerHeader(io::ByteSpan(subset.data(), subset.size()));
  ASSERT_TRUE(subset_entries.ok());
  for (const IndexEntry& entry : *subset_entries) subset_types.push_back(entry.index_type);
  EXPECT_EQ(subset_types, whole_types);
  ASSERT_EQ(plan->bodies.size(), 2u);
  EXPECT_EQ(plan->bodies[0].offset, static_cast<int64_t>(plan->head.size()));
  // Adjacent in the source (one column's two indexes), adjacent in the subset.
  EXPECT_EQ(plan->bodies[0].source_offset + plan->bodies[0].length,
            plan->bodies[1].source_offset);
  EXPECT_EQ(plan->bodies[0].offset + plan->bodies[0].length, plan->bodies[1].offset);
  EXPECT_EQ(plan->size, plan->bodies[1].offset + plan->bodies[1].length);
}

TEST(ContainerSubsetTest, NoColumnGivesAnEmptyContainerAndTheHeaderAloneSuffices) {
  const std::vector<uint8_t> whole = Container();
  auto none = Plan(whole, {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->bodies.empty());
  EXPECT_EQ(none->size, static_cast<int64_t>(none->head.size()));
  auto reader = FileIndexReader::Open(none->head.data(), none->head.size(), Fields());
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE((*reader)->entries().empty());

  auto entries = container::ReadContainerHeader(io::ByteSpan(whole.data(), whole.size()));
  int64_t head_length = INT64_MAX;
  for (const IndexEntry& entry : *entries) head_length = std::min(head_length, entry.offset);
  auto from_head = Plan(whole, {"b"}, static_cast<size_t>(head_length));
  auto from_whole = Plan(whole, {"b"});
  ASSERT_TRUE(from_head.ok()) << from_head.status().ToString();
  EXPECT_EQ(from_head->head, from_whole->head);
  EXPECT_EQ(from_head->size, from_whole->size);
  auto short_head = Plan(whole, {"b"}, static_cast<size_t>(head_length - 1));
  EXPECT_EQ(short_head.status().code(), StatusCode::kCorrupt);
}

// A header of `columns` (name, [(type, start, length)]) over `body_bytes` of body.
std::vector<uint8_t> Handmade(
    const std::vector<std::pair<std::string, std::vector<std::tuple<std::string, int32_t,
                                                                      int32_t>>>>& columns,
    size_t body_bytes) {
  int32_t head_length = 24;
  for (const auto& [name, indexes] : columns) {
    head_length += 2 + static_cast<int32_t>(name.size()) + 4;
    for (const auto& index : indexes) {
      head_length += 2 + static_cast<int32_t>(std::get<0>(index).size()) + 8;
    }
  }
  io::ByteWriter out;
  out.WriteI64BE(container::kMagic);
  out.WriteI32BE(container::kVersion);
  out.WriteI32BE(head_length);
  out.WriteI32BE(static_cast<int32_t>(columns.size()));
  for (const auto& [name, indexes] : columns) {
    EXPECT_TRUE(out.WriteUTF(name).ok());
    out.WriteI32BE(static_cast<int32_t>(indexes.size()));
    for (const auto& [type, start, length] : indexes) {
      EXPECT_TRUE(out.WriteUTF(type).ok());
      out.WriteI32BE(start < 0 ? start : head_length + start);
      out.WriteI32BE(length);
    }
  }
  out.WriteI32BE(0);
  std::vector<uint8_t> bytes = out.Take();
  bytes.resize(bytes.size() + body_bytes, 0xab);
  return bytes;
}

TEST(ContainerSubsetTest, WhatCannotBeCutDownIsRefusedAsNotSupported) {
  const auto fine = Handmade({{"a", {{"bitmap", 0, 8}}}, {"b", {{"bitmap", 8, 8}}}}, 16);
  auto planned = Plan(fine, {"b"});
  ASSERT_TRUE(planned.ok()) << planned.status().ToString();
  EXPECT_EQ(planned->bodies.size(), 1u);

  for (const auto& bytes : {
           Handmade({{"a", {{"bitmap", 0, 8}}}, {"a", {{"bsi", 8, 8}}}}, 16),  // listed twice
           Handmade({{"a", {{"bitmap", 8, 8}, {"bsi", 0, 8}}}}, 16),           // out of order
           Handmade({{"a", {{"bitmap", 0, 8}, {"bsi", 4, 8}}}}, 16),           // overlapping
           Handmade({{"a", {{"bitmap", 0, 8}, {"bsi", 0, 8}}}}, 16),           // one body, twice
       }) {
    auto plan = Plan(bytes, {"a"});
    EXPECT_EQ(plan.status().code(), StatusCode::kNotSupported) << plan.status().ToString();
    EXPECT_FALSE(plan.status().message().empty());
  }
}

TEST(ContainerSubsetTest, AnEmptyIndexStaysEmpty) {
  const auto bytes = Handmade({{"c", {{"bitmap", -1, 0}}}}, 0);
  auto plan = Plan(bytes, {"c"});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->bodies.empty());
  auto reader = FileIndexReader::Open(plan->head.data(), plan->head.size(), Fields());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->entries().size(), 1u);
  EXPECT_TRUE((*reader)->entries()[0].empty());
  EXPECT_EQ(Answer(plan->head, *Predicate::Leaf(PredicateOp::kEqual, "c",
                                                {Literal::String("v1")})),
            "skip");
}

TEST(ContainerSubsetTest, DamageIsReportedAsTheReaderReportsIt) {
  const std::vector<uint8_t> whole = Container();
  std::vector<uint8_t> magic = whole;
  magic[3] ^= 0x40;
  EXPECT_EQ(Plan(magic, {"a"}).status().code(), StatusCode::kCorrupt);
  std::vector<uint8_t> version = whole;
  version[11] = 2;
  EXPECT_EQ(Plan(version, {"a"}).status().code(), StatusCode::kNotSupported);
  // A body past the end of the container, which the head alone cannot show.
  auto past = PlanContainerSubset(whole.data(), whole.size(), 100, {"a"});
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidArgument);  // more head than container
  auto entries = container::ReadContainerHeader(io::ByteSpan(whole.data(), whole.size()));
  const int64_t head_length = (*entries)[0].offset;
  auto outside = PlanContainerSubset(whole.data(), static_cast<size_t>(head_length),
                                     head_length + 10, {"a"});
  EXPECT_EQ(outside.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(outside.status().message().find("outside"), std::string::npos);
  EXPECT_EQ(PlanContainerSubset(nullptr, 0, 0, {"a"}).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pyfileindex
