// A whole container (header and every index body) as a data file's .index sidecar holds it,
// read with the row types of the seeds (the golden tables' and the generated ones): every
// predicate and TopN on every column, then Describe of every entry. Then the subset of some
// columns a ranged reader would fetch (PlanContainerSubset) must answer each of their
// predicates exactly as the whole container did, or be refused.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "pyfileindex/container_subset.h"

#include "memory_meter.h"
#include "target_support.h"

namespace pyfileindex::fuzz {
namespace {

std::vector<Field> RowType() {
  auto type = [](const char* name) { return ParseDataType(name).ValueOrDie(); };
  return {{"f0", type("STRING")}, {"f1", type("INT")},        {"f2", type("INT")},
          {"f3", type("DOUBLE")}, {"f4", type("TIMESTAMP(9)")}, {"id", type("BIGINT")},
          {"score", type("INT")}, {"name", type("STRING")},   {"price", type("DOUBLE")},
          {"day", type("DATE")},  {"m", type("MAP<STRING, INT>")}};
}

struct Questions {
  std::vector<PredicatePtr> leaves;
  std::vector<TopN> tops;
};

// Fixed questions (the input is the container alone, so real files are seeds as they are):
// literals from a constant byte pattern, which holds small numbers and short strings.
const Questions& AllQuestions() {
  static const Questions questions = [] {
    Questions out;
    std::vector<uint8_t> pattern(4096);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 13 + 5);
    FuzzInput in(pattern.data(), pattern.size());
    for (const Field& field : RowType()) {
      const bool map = field.type.root == TypeRoot::kMap;
      const std::string column = map ? field.name + "[k]" : field.name;
      const DataType& type = map ? field.type.children[1] : field.type;
      for (PredicatePtr& leaf : LeavesFor(column, type, in)) out.leaves.push_back(leaf);
      out.tops.push_back(TopNFor(column, in));
    }
    return out;
  }();
  return questions;
}

// The columns a subset is planned for: those of the row type whose bit is set in the input's
// size, so a mutation that changes the length changes the choice.
std::vector<std::string> SubsetColumns(size_t size) {
  std::vector<std::string> columns;
  const std::vector<Field> row_type = RowType();
  for (size_t i = 0; i < row_type.size(); ++i) {
    if ((size >> (i % 16)) & 1) {
      const bool map = row_type[i].type.root == TypeRoot::kMap;
      columns.push_back(map ? row_type[i].name + "[k]" : row_type[i].name);
    }
  }
  return columns;
}

bool SameAnswer(const Result<FileIndexResult>& a, const Result<FileIndexResult>& b) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return a.status().code() == b.status().code();
  if (a->kind() != b->kind()) return false;
  return !a->is_rows() || a->rows() == b->rows();
}

void CheckSubset(const uint8_t* data, size_t size, const FileIndexReader& whole,
                 const std::vector<Field>& row_type, const Questions& questions) {
  const std::vector<std::string> columns = SubsetColumns(size);
  Result<ContainerSubset> plan =
      PlanContainerSubset(data, size, static_cast<int64_t>(size), columns);
  CheckStatus(plan.status(), "PlanContainerSubset");
  if (!plan.ok()) return;
  if (plan->size < static_cast<int64_t>(plan->head.size())) {
    Fail("PlanContainerSubset", "a subset smaller than its header");
  }
  std::vector<uint8_t> subset(static_cast<size_t>(plan->size));
  std::memcpy(subset.data(), plan->head.data(), plan->head.size());
  int64_t next = static_cast<int64_t>(plan->head.size());
  for (const SubsetBody& body : plan->bodies) {
    if (body.offset != next || body.source_offset < 0 ||
        body.source_offset + body.length > static_cast<int64_t>(size)) {
      Fail("PlanContainerSubset", "a body out of place or outside the container");
    }
    std::memcpy(subset.data() + body.offset, data + body.source_offset,
                static_cast<size_t>(body.length));
    next += body.length;
  }
  if (next != plan->size) Fail("PlanContainerSubset", "bodies that do not fill the subset");
  auto reader = FileIndexReader::Open(subset.data(), subset.size(), row_type);
  if (!reader.ok()) Fail("PlanContainerSubset", "a subset that does not open: " +
                                                    reader.status().ToString());
  const std::set<std::string> chosen(columns.begin(), columns.end());
  for (const PredicatePtr& leaf : questions.leaves) {
    if (chosen.count(leaf->column) == 0) continue;
    if (!SameAnswer((*reader)->Evaluate(*leaf), whole.Evaluate(*leaf))) {
      Fail("PlanContainerSubset", "the subset answers " + leaf->ToString() +
                                      " unlike the whole container");
    }
  }
}

}  // namespace
}  // namespace pyfileindex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pyfileindex;
  using namespace pyfileindex::fuzz;
  static const std::vector<Field> row_type = RowType();
  const Questions& questions = AllQuestions();
  StartMeasuring();
  {
    std::vector<uint8_t> exact(data, data + size);
    exact.shrink_to_fit();
    auto reader = FileIndexReader::Open(exact.data(), exact.size(), row_type);
    CheckStatus(reader.status(), "Open");
    if (reader.ok()) {
      AskEverything(**reader, questions.leaves, questions.tops, nullptr);
      CheckSubset(exact.data(), exact.size(), **reader, row_type, questions);
    }
  }
  CheckMemoryBound(size, "container");
  return 0;
}
