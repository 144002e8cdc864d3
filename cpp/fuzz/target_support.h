// What the reader targets share: column types and literals chosen by the input, the checks
// every answer must pass, and the container a lone index payload is wrapped in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/file_index_result.h"
#include "pyfileindex/predicate.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/status.h"

namespace pyfileindex::fuzz {

// The column types the targets try, in a fixed order (a seed names one by its position).
const std::vector<DataType>& ColumnTypes();
// Position of `type` in ColumnTypes(); -1 when absent.
int ColumnTypePosition(const std::string& type);

// A literal of the kind `type` takes, its value taken from `in`.
Literal LiteralFor(const DataType& type, FuzzInput& in);
// One leaf of each operator on `column`, literals taken from `in`.
std::vector<PredicatePtr> LeavesFor(const std::string& column, const DataType& type,
                                    FuzzInput& in);
// An ORDER BY `column` LIMIT n, the direction, nulls order, ties and n taken from `in`.
TopN TopNFor(const std::string& column, FuzzInput& in);
// No selection, or a few rows taken from `in`.
bool SelectionFor(FuzzInput& in, RowBitmap* selection);

// Aborts (a crash the fuzzer keeps), naming the call that went wrong and why.
[[noreturn]] void Fail(const char* call, const std::string& why);
// Aborts unless `status` is OK or a refusal: one of the `allowed` codes, with a message.
void CheckRefusal(const Status& status, const char* call,
                  std::initializer_list<StatusCode> allowed);
// CheckRefusal with the codes damaged bytes may give: Corrupt, NotSupported (a version from
// the future), and NotFound where `not_found_allowed`.
void CheckStatus(const Status& status, const char* call, bool not_found_allowed = false);
// CheckStatus, and a row answer must be a consistent set: its ranges hold as many rows as its
// cardinality says.
void CheckAnswer(const Result<FileIndexResult>& answer, const char* call);

// CheckStatus for Count of `predicate` (and with `excluded` rows left out, when given): an
// exact count stays known, and does not grow, when rows are excluded.
void CheckCount(const FileIndexReader& reader, const Predicate& predicate,
                const RowBitmap* excluded);

// Every question of `reader`: each leaf (Evaluate and Count, alone, ANDed and ORed), each
// TopN, Describe and MinMax of each entry.
void AskEverything(const FileIndexReader& reader, const std::vector<PredicatePtr>& leaves,
                   const std::vector<TopN>& tops, const RowBitmap* selection);

// A container holding one index of type `index_type` on column "c" with `payload`.
std::vector<uint8_t> ContainerOf(const std::string& index_type, const uint8_t* payload,
                                 size_t size);

// The bytes of a seed for an index target: the choice bytes (column type position, then
// question bytes) before the payload.
inline constexpr size_t kQuestionBytes = 32;
std::vector<uint8_t> IndexSeed(int type_position, const uint8_t* payload, size_t size);

// The entry point of every per-index target: the input's first byte picks a column type the
// index takes, the next kQuestionBytes the questions, the rest is the payload.
int RunIndexTarget(const char* index_type, const uint8_t* data, size_t size);

}  // namespace pyfileindex::fuzz
