// A whole container (header and every index body) as a data file's .index sidecar holds it,
// read with the row types of the seeds (the golden tables' and the generated ones): every
// predicate and TopN on every column, then Describe of every entry.
#include <cstddef>
#include <cstdint>
#include <vector>

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
    if (reader.ok()) AskEverything(**reader, questions.leaves, questions.tops, nullptr);
  }
  CheckMemoryBound(size, "container");
  return 0;
}
