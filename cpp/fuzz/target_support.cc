#include "target_support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "container/container_format.h"
#include "index/index_type.h"
#include "memory_meter.h"

namespace pyfileindex::fuzz {
namespace {

const char* const kTypeNames[] = {
    "BOOLEAN",   "TINYINT",   "SMALLINT", "INT",          "BIGINT",       "FLOAT",
    "DOUBLE",    "DECIMAL(10, 2)",        "DECIMAL(20, 4)", "CHAR(3)",   "STRING",
    "BINARY(4)", "BYTES",     "DATE",     "TIME",         "TIMESTAMP(3)", "TIMESTAMP(9)",
    "TIMESTAMP(6) WITH LOCAL TIME ZONE",
};

int64_t IntegerFrom(FuzzInput& in) {
  switch (in.Byte() % 4) {
    case 0: return static_cast<int8_t>(in.Byte());  // small: likely a stored key
    case 1: return static_cast<int16_t>(in.U32());
    case 2: return static_cast<int32_t>(in.U32());
    default: return static_cast<int64_t>(in.U64());
  }
}

// Text the pattern operators take: valid UTF-8 (they refuse other text as a caller's error,
// which is not what the targets look for), of ASCII, multi-byte characters and wildcards,
// with `escape` (when not 0) before a wildcard or itself as SQL allows.
std::string PatternText(FuzzInput& in, size_t max_tokens, char escape) {
  static const char* const kWide[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  std::string out;
  const size_t tokens = in.Byte() % (max_tokens + 1);
  for (size_t i = 0; i < tokens && in.remaining() > 0; ++i) {
    const uint8_t byte = in.Byte();
    switch (byte % 8) {
      case 0: out += '%'; break;
      case 1: out += '_'; break;
      case 2: out += kWide[(byte >> 3) % 3]; break;
      case 3:
        if (escape != 0) {
          out += escape;
          out += "%_"[(byte >> 3) % 2];
          break;
        }
        [[fallthrough]];
      default: {
        const char ascii = static_cast<char>(0x20 + (byte >> 3) % 0x5f);  // printable
        if (ascii == escape) out += escape;  // the escape character as itself
        out += ascii;
        break;
      }
    }
  }
  return out;
}

}  // namespace

const std::vector<DataType>& ColumnTypes() {
  static const std::vector<DataType> types = [] {
    std::vector<DataType> out;
    for (const char* name : kTypeNames) out.push_back(ParseDataType(name).ValueOrDie());
    return out;
  }();
  return types;
}

int ColumnTypePosition(const std::string& type) {
  const Result<DataType> parsed = ParseDataType(type);
  if (!parsed.ok()) return -1;
  const auto& types = ColumnTypes();
  for (size_t i = 0; i < types.size(); ++i) {
    DataType nullable = *parsed;
    nullable.nullable = true;
    if (types[i] == nullable) return static_cast<int>(i);
  }
  return -1;
}

Literal LiteralFor(const DataType& type, FuzzInput& in) {
  switch (type.root) {
    case TypeRoot::kBoolean: return Literal::Bool(in.Bool());
    case TypeRoot::kFloat:
    case TypeRoot::kDouble: {
      if (in.Bool()) return Literal::Double(static_cast<double>(IntegerFrom(in)) / 10);
      const uint64_t bits = in.U64();
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return Literal::Double(value);  // NaNs and infinities included
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: return Literal::String(in.String(12));
    case TypeRoot::kDecimal: return Literal::Decimal(IntegerFrom(in), type.scale);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone:
      return Literal::Timestamp(IntegerFrom(in), static_cast<int32_t>(in.U32() % 1000000));
    default: return Literal::Int(IntegerFrom(in));
  }
}

std::vector<PredicatePtr> LeavesFor(const std::string& column, const DataType& type,
                                    FuzzInput& in) {
  using O = PredicateOp;
  std::vector<PredicatePtr> leaves;
  for (O op : {O::kEqual, O::kNotEqual, O::kLessThan, O::kLessOrEqual, O::kGreaterThan,
               O::kGreaterOrEqual}) {
    leaves.push_back(Predicate::Leaf(op, column, {LiteralFor(type, in)}));
  }
  for (O op : {O::kIn, O::kNotIn}) {
    std::vector<Literal> list;
    const int count = in.Byte() % 5;
    for (int i = 0; i < count; ++i) {
      list.push_back(in.Byte() % 4 == 0 ? Literal::Null() : LiteralFor(type, in));
    }
    leaves.push_back(Predicate::Leaf(op, column, std::move(list)));
  }
  leaves.push_back(Predicate::Leaf(O::kIsNull, column));
  leaves.push_back(Predicate::Leaf(O::kIsNotNull, column));
  leaves.push_back(Predicate::Leaf(O::kIsNaN, column));
  leaves.push_back(Predicate::Leaf(O::kIsNotNaN, column));
  Literal low = LiteralFor(type, in);
  leaves.push_back(Predicate::Leaf(O::kBetween, column, {low, LiteralFor(type, in)}));
  if (type.IsString()) {  // string patterns walk and scan the dictionaries
    for (O op : {O::kStartsWith, O::kEndsWith, O::kContains}) {
      leaves.push_back(Predicate::Leaf(op, column, {Literal::String(PatternText(in, 4, 0))}));
    }
    for (O op : {O::kLike, O::kNotLike}) {
      const char escape = in.Byte() % 2 == 0 ? '!' : 0;
      std::vector<Literal> pattern = {Literal::String(PatternText(in, 8, escape))};
      if (escape != 0) pattern.push_back(Literal::String(std::string(1, escape)));
      leaves.push_back(Predicate::Leaf(op, column, std::move(pattern)));
    }
  }
  return leaves;
}

TopN TopNFor(const std::string& column, FuzzInput& in) {
  TopN top;
  top.column = column;
  const uint8_t flags = in.Byte();
  top.descending = (flags & 1) != 0;
  top.nulls_first = (flags & 2) != 0;
  top.with_ties = (flags & 4) != 0;
  top.limit = (flags & 8) != 0 ? static_cast<int32_t>(in.U32() & 0x7fffffff) : in.Byte() % 20;
  return top;
}

bool SelectionFor(FuzzInput& in, RowBitmap* selection) {
  const uint8_t count = in.Byte();
  if (count % 2 == 0) return false;
  for (int i = 0; i < count % 8; ++i) selection->Add(in.Byte() % 2 ? in.Byte() : in.U32());
  return true;
}

void Fail(const char* call, const std::string& why) {
  std::fprintf(stderr, "fuzz target: %s: %s\n", call, why.c_str());
  std::abort();
}

void CheckRefusal(const Status& status, const char* call,
                  std::initializer_list<StatusCode> allowed) {
  if (status.ok()) return;
  if (std::find(allowed.begin(), allowed.end(), status.code()) == allowed.end()) {
    Fail(call, "unexpected error kind: " + status.ToString());
  }
  if (status.message().empty()) Fail(call, "an error without a message");
}

void CheckStatus(const Status& status, const char* call, bool not_found_allowed) {
  if (not_found_allowed) {
    CheckRefusal(status, call,
                 {StatusCode::kCorrupt, StatusCode::kNotSupported, StatusCode::kNotFound});
  } else {
    CheckRefusal(status, call, {StatusCode::kCorrupt, StatusCode::kNotSupported});
  }
}

void CheckAnswer(const Result<FileIndexResult>& answer, const char* call) {
  CheckStatus(answer.status(), call);
  if (!answer.ok() || !answer->is_rows()) return;
  uint64_t in_ranges = 0;
  for (const auto& [begin, end] : answer->rows().ToRanges()) {
    if (end <= begin) Fail(call, "an empty or reversed range in a row answer");
    in_ranges += end - begin;
  }
  if (in_ranges != answer->rows().Cardinality()) {
    Fail(call, "a row answer whose ranges do not hold its cardinality");
  }
}

void AskEverything(const FileIndexReader& reader, const std::vector<PredicatePtr>& leaves,
                   const std::vector<TopN>& tops, const RowBitmap* selection) {
  for (const PredicatePtr& leaf : leaves) CheckAnswer(reader.Evaluate(*leaf), "Evaluate");
  if (leaves.size() >= 2) {
    CheckAnswer(reader.Evaluate(*Predicate::And({leaves[0], leaves[1]})), "Evaluate AND");
    CheckAnswer(reader.Evaluate(*Predicate::Or({leaves[0], leaves.back()})), "Evaluate OR");
  }
  for (const TopN& top : tops) {
    CheckAnswer(reader.EvaluateTopN(top, nullptr), "EvaluateTopN");
    if (selection != nullptr) {
      CheckAnswer(reader.EvaluateTopN(top, selection), "EvaluateTopN within a selection");
    }
  }
  for (const PredicatePtr& leaf : leaves) CheckCount(reader, *leaf, selection);
  if (leaves.size() >= 2) {
    CheckCount(reader, *Predicate::And({leaves[0], leaves[1]}), selection);
    CheckCount(reader, *Predicate::Or({leaves[0], leaves.back()}), selection);
  }
  for (const IndexEntry& entry : reader.entries()) {
    CheckStatus(reader.Describe(entry).status(), "Describe", /*not_found_allowed=*/true);
    CheckStatus(reader.MinMax(entry.column).status(), "MinMax", /*not_found_allowed=*/true);
    if (selection != nullptr) {
      CheckStatus(reader.MinMax(entry.column, selection).status(), "MinMax within a selection",
                  /*not_found_allowed=*/true);
    }
  }
}

void CheckCount(const FileIndexReader& reader, const Predicate& predicate,
                const RowBitmap* excluded) {
  const Result<std::optional<uint64_t>> counted = reader.Count(predicate);
  CheckStatus(counted.status(), "Count");
  if (!counted.ok() || !counted->has_value()) return;
  if (excluded != nullptr) {
    const Result<std::optional<uint64_t>> fewer = reader.Count(predicate, excluded);
    CheckStatus(fewer.status(), "Count with excluded rows");
    if (fewer.ok() && (!fewer->has_value() || **fewer > **counted)) {
      Fail("Count", "excluding rows made the count unknown or larger");
    }
  }
}

std::vector<uint8_t> ContainerOf(const std::string& index_type, const uint8_t* payload,
                                 size_t size) {
  container::ColumnLayout layout;
  layout.column = "c";
  layout.indexes.push_back({index_type, size});
  std::vector<uint8_t> bytes = container::WriteContainerHead({layout}).ValueOrDie();
  bytes.insert(bytes.end(), payload, payload + size);
  return bytes;
}

std::vector<uint8_t> IndexSeed(int type_position, const uint8_t* payload, size_t size) {
  std::vector<uint8_t> seed(1 + kQuestionBytes, 0);
  seed[0] = static_cast<uint8_t>(type_position);
  for (size_t i = 1; i <= kQuestionBytes; ++i) seed[i] = static_cast<uint8_t>(i * 37);
  seed.insert(seed.end(), payload, payload + size);
  return seed;
}

int RunIndexTarget(const char* index_type, const uint8_t* data, size_t size) {
  const index::IndexType* type = index::FindIndexType(index_type);
  if (type == nullptr) Fail(index_type, "no such index type");
  // The column types this index takes, the first byte picking one.
  static thread_local std::vector<const DataType*> usable;
  usable.clear();
  for (const DataType& candidate : ColumnTypes()) {
    if (type->CheckType(candidate).ok()) usable.push_back(&candidate);
  }
  FuzzInput in(data, size);
  const DataType& column_type = *usable[in.Byte() % usable.size()];
  size_t question_size = 0;
  const uint8_t* question_bytes = in.Take(kQuestionBytes, &question_size);
  const std::vector<uint8_t> container = ContainerOf(index_type, in.data(), in.remaining());

  StartMeasuring();
  {
    FuzzInput question(question_bytes, question_size);
    std::vector<PredicatePtr> leaves = LeavesFor("c", column_type, question);
    std::vector<TopN> tops = {TopNFor("c", question)};
    RowBitmap selection;
    const bool selected = SelectionFor(question, &selection);
    // An exact heap block: a read past its end is one the sanitizer sees.
    std::vector<uint8_t> exact(container);
    exact.shrink_to_fit();
    auto reader = FileIndexReader::Open(exact.data(), exact.size(), {{"c", column_type}});
    CheckStatus(reader.status(), "Open");
    if (reader.ok()) AskEverything(**reader, leaves, tops, selected ? &selection : nullptr);
  }
  CheckMemoryBound(size, index_type);
  return 0;
}

}  // namespace pyfileindex::fuzz
