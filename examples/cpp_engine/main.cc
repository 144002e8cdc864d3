// cpp_engine: what a C++ query engine does with pyfileindex.
//
//   cpp_engine <data file>.index
//
// 1. Reads a data file's index container (written by Java Paimon) into memory the engine owns,
//    opens it without copying, lists its indexes and evaluates the engine's predicates into
//    SKIP / REMAIN / the rows a format reader should select.
// 2. Writes an index of its own from an Arrow C Data Interface array and queries it back.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pyfileindex/arrow_c_abi.h"
#include "pyfileindex/build_info.h"
#include "pyfileindex/reader.h"
#include "pyfileindex/writer.h"

using pyfileindex::FileIndexReader;
using pyfileindex::FileIndexResult;
using pyfileindex::Literal;
using pyfileindex::Predicate;
using pyfileindex::PredicateOp;

namespace {

int Fail(const std::string& what, const pyfileindex::Status& status) {
  std::fprintf(stderr, "cpp_engine: %s: %s\n", what.c_str(), status.ToString().c_str());
  return 1;
}

// How a scan would use the answer: skip the file, read it all, or read only some row ranges.
void PrintAnswer(const Predicate& predicate, const FileIndexResult& result) {
  std::printf("%s -> ", predicate.ToString().c_str());
  if (!result.remain()) {
    std::printf("SKIP the file\n");
  } else if (!result.is_rows()) {
    std::printf("REMAIN (read every row)\n");
  } else {
    std::printf("rows");
    for (uint32_t row : result.rows()) std::printf(" %u", row);
    std::printf("; ranges");
    for (const auto& [begin, end] : result.rows().ToRanges()) {
      std::printf(" [%llu, %llu)", static_cast<unsigned long long>(begin),
                  static_cast<unsigned long long>(end));
    }
    std::printf("\n");
  }
}

pyfileindex::Field MakeField(const std::string& name, const std::string& type) {
  return {name, pyfileindex::ParseDataType(type).ValueOrDie()};  // constant, valid type names
}

int QueryJavaIndex(const char* path) {
  // The engine owns the bytes (a buffer, an mmap, a cache entry); pyfileindex only borrows them.
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cpp_engine: cannot read %s\n", path);
    return 1;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());

  // The data file's row type (from the table schema).
  std::vector<pyfileindex::Field> fields = {MakeField("f0", "STRING"), MakeField("f1", "INT"),
                                            MakeField("f2", "INT"), MakeField("f3", "DOUBLE")};
  auto opened = FileIndexReader::Open(bytes.data(), bytes.size(), fields);
  if (!opened.ok()) return Fail("open", opened.status());
  const std::shared_ptr<FileIndexReader> reader = *opened;

  std::printf("indexes:");
  for (const pyfileindex::IndexEntry& entry : reader->entries()) {
    std::printf(" %s/%s", entry.column.c_str(), entry.index_type.c_str());
  }
  std::printf("\n");

  const auto f0_is_alice = Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Alice")});
  const auto f1_in = Predicate::Leaf(PredicateOp::kIn, "f1", {Literal::Int(10), Literal::Int(20)});
  const std::vector<pyfileindex::PredicatePtr> predicates = {
      f0_is_alice,
      Predicate::And({f0_is_alice, f1_in}),
      Predicate::And({Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Bob")}),
                      Predicate::Leaf(PredicateOp::kEqual, "f1", {Literal::Int(10)})}),
      Predicate::Or({Predicate::Leaf(PredicateOp::kIsNull, "f2"),
                     Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Lucy")})}),
      Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Nobody")}),
      Predicate::Leaf(PredicateOp::kGreaterThan, "f3", {Literal::Double(15.0)}),  // no index
  };
  for (const auto& predicate : predicates) {
    auto result = reader->Evaluate(*predicate);
    if (!result.ok()) return Fail("evaluate " + predicate->ToString(), result.status());
    PrintAnswer(*predicate, *result);
  }
  return 0;
}

// An int32 column as the Arrow C Data Interface describes it (what Arrow C++, DuckDB, Velox,
// ... export), built by hand here: no Arrow library needed.
int WriteAndQueryOwnIndex() {
  const std::vector<int32_t> values = {7, 3, 7, 0, 5, 7};
  const void* child_buffers[2] = {nullptr, values.data()};  // no validity bitmap: no nulls
  ArrowArray column_array{static_cast<int64_t>(values.size()), 0, 0, 2, 0, child_buffers,
                          nullptr, nullptr, [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema column_schema{"i", "x", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                            [](ArrowSchema* s) { s->release = nullptr; }, nullptr};
  const void* struct_buffers[1] = {nullptr};
  ArrowArray* array_children[1] = {&column_array};
  ArrowSchema* schema_children[1] = {&column_schema};
  ArrowArray batch{static_cast<int64_t>(values.size()), 0, 0, 1, 1, struct_buffers,
                   array_children, nullptr, [](ArrowArray* a) { a->release = nullptr; }, nullptr};
  ArrowSchema batch_schema{"+s", "", nullptr, 0, 1, schema_children, nullptr,
                           [](ArrowSchema* s) { s->release = nullptr; }, nullptr};

  std::vector<pyfileindex::Field> fields = {MakeField("x", "INT")};
  pyfileindex::Options options;  // the Paimon table options
  options.Set("file-index.bitmap.columns", "x");
  auto writer = pyfileindex::FileIndexWriter::Make(fields, options);
  if (!writer.ok()) return Fail("make writer", writer.status());
  pyfileindex::Status written = (*writer)->Write(batch_schema, batch);
  if (!written.ok()) return Fail("write", written);
  auto finished = (*writer)->Finish();
  if (!finished.ok()) return Fail("finish", finished.status());
  if (!finished->has_value()) return Fail("finish", pyfileindex::Status::Internal("no index"));
  const std::vector<uint8_t> container = std::move(**finished);  // the data file's .index bytes
  std::printf("wrote an index of %zu bytes over %zu rows\n", container.size(), values.size());

  auto reader = FileIndexReader::Open(container.data(), container.size(), fields);
  if (!reader.ok()) return Fail("open own index", reader.status());
  const auto x_is_7 = Predicate::Leaf(PredicateOp::kEqual, "x", {Literal::Int(7)});
  auto result = (*reader)->Evaluate(*x_is_7);
  if (!result.ok()) return Fail("evaluate own index", result.status());
  PrintAnswer(*x_is_7, *result);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cpp_engine <data file>.index\n");
    return 2;
  }
  std::fprintf(stderr, "pyfileindex %s (private CRoaring %s)\n", pyfileindex::LibraryVersion(),
               pyfileindex::CRoaringVersion());
  if (int rc = QueryJavaIndex(argv[1])) return rc;
  return WriteAndQueryOwnIndex();
}
