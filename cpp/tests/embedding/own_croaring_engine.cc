// An "engine" that links its OWN CRoaring (the amalgamation compiled again, under CRoaring's
// real names) beside pyfileindex, as a real engine may. Built twice by ctest: against
// libpyfileindex.a and against libpyfileindex.so (EmbeddingOwnCRoaring.static / .shared).
//
// That it links at all shows no symbol clash (pyfileindex's copy carries private names); the
// checks below show both copies work side by side and stay apart.
//
//   pyfileindex_own_croaring_{static,shared} <append_with_bitmap_no_embedding .index file>
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // dladdr
#endif
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "pyfileindex/build_info.h"
#include "pyfileindex/container_subset.h"
#include "pyfileindex/reader.h"
#include "roaring.h"  // the engine's own CRoaring

namespace {

int failures = 0;

void Check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

// The engine's own bitmap work, through its own CRoaring.
void UseOwnCRoaring() {
  roaring_bitmap_t* mine = roaring_bitmap_create();
  for (uint32_t v = 0; v < 100000; v += 3) roaring_bitmap_add(mine, v);
  roaring_bitmap_add_range(mine, 500000, 600000);
  roaring_bitmap_run_optimize(mine);
  Check(roaring_bitmap_get_cardinality(mine) == 33334 + 100000, "own CRoaring: cardinality");
  std::vector<char> bytes(roaring_bitmap_portable_size_in_bytes(mine));
  roaring_bitmap_portable_serialize(mine, bytes.data());
  roaring_bitmap_t* copy = roaring_bitmap_portable_deserialize_safe(bytes.data(), bytes.size());
  Check(copy != nullptr && roaring_bitmap_equals(mine, copy), "own CRoaring: round trip");
  roaring_bitmap_free(copy);
  roaring_bitmap_free(mine);
}

std::vector<uint32_t> Rows(const pyfileindex::FileIndexReader& reader,
                           const pyfileindex::Predicate& predicate) {
  auto result = reader.Evaluate(predicate);
  if (!result.ok() || !result->is_rows()) return {0xFFFFFFFFu};  // never a valid answer here
  return result->rows().ToVector();
}

void UsePyfileindex(const char* index_path) {
  using pyfileindex::Literal;
  using pyfileindex::Predicate;
  using pyfileindex::PredicateOp;

  std::ifstream file(index_path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
  Check(!bytes.empty(), std::string("read ") + index_path);
  std::vector<pyfileindex::Field> fields;
  for (const char* name : {"f0", "f1", "f2"}) {
    fields.push_back({name, pyfileindex::ParseDataType(name[1] == '0' ? "STRING" : "INT").ValueOrDie()});
  }
  auto reader = pyfileindex::FileIndexReader::Open(bytes.data(), bytes.size(), fields);
  Check(reader.ok(), "pyfileindex: open the container");
  if (!reader.ok()) return;

  const auto alice = Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Alice")});
  Check(Rows(**reader, *alice) == std::vector<uint32_t>{0, 7}, "pyfileindex: f0 = 'Alice'");
  const auto bob_10 = Predicate::And(
      {Predicate::Leaf(PredicateOp::kEqual, "f0", {Literal::String("Bob")}),
       Predicate::Leaf(PredicateOp::kIn, "f1", {Literal::Int(10), Literal::Int(30)})});
  Check(Rows(**reader, *bob_10) == std::vector<uint32_t>{1, 5},
        "pyfileindex: f0 = 'Bob' AND f1 IN (10, 30)");

  // Rows from pyfileindex feed the engine's own bitmaps: the two live side by side.
  auto f1_20 = (*reader)->Evaluate(*Predicate::Leaf(PredicateOp::kEqual, "f1", {Literal::Int(20)}));
  Check(f1_20.ok() && f1_20->is_rows(), "pyfileindex: f1 = 20 gives rows");
  if (f1_20.ok() && f1_20->is_rows()) {
    const std::vector<uint32_t> rows = f1_20->rows().ToVector();
    roaring_bitmap_t* mine = roaring_bitmap_of_ptr(rows.size(), rows.data());
    Check(roaring_bitmap_get_cardinality(mine) == 3 && roaring_bitmap_contains(mine, 6),
          "own CRoaring holds pyfileindex's rows {4, 6, 7}");
    roaring_bitmap_free(mine);
  }
  Check(std::strcmp(pyfileindex::CRoaringVersion(), ROARING_VERSION) == 0,
        "pyfileindex's private CRoaring has the version of the engine's header");

  // An engine on an object store fetches the header and f0's bodies only.
  auto plan = pyfileindex::PlanContainerSubset(bytes.data(), bytes.size(),
                                               static_cast<int64_t>(bytes.size()), {"f0"});
  Check(plan.ok() && plan->size < static_cast<int64_t>(bytes.size()),
        "pyfileindex: a subset of f0's indexes is planned, smaller than the container");
  if (!plan.ok()) return;
  std::vector<uint8_t> subset(static_cast<size_t>(plan->size));
  std::copy(plan->head.begin(), plan->head.end(), subset.begin());
  for (const pyfileindex::SubsetBody& body : plan->bodies) {
    std::copy_n(bytes.begin() + body.source_offset, body.length, subset.begin() + body.offset);
  }
  auto part = pyfileindex::FileIndexReader::Open(subset.data(), subset.size(), fields);
  Check(part.ok() && Rows(**part, *alice) == std::vector<uint32_t>{0, 7},
        "pyfileindex: the subset answers f0 = 'Alice' as the container does");
}

// The engine's CRoaring names resolve to the engine's copy, and pyfileindex's copy is not
// reachable by any name from outside the library.
void CheckSymbolsStayApart() {
  Dl_info info{};
  const bool found = dladdr(reinterpret_cast<void*>(&roaring_bitmap_create), &info) != 0;
  Check(found && info.dli_fname != nullptr && std::strstr(info.dli_fname, "libpyfileindex") == nullptr,
        std::string("roaring_bitmap_create is the engine's own (in ") +
            (found && info.dli_fname ? info.dli_fname : "?") + ")");
  Check(dlsym(RTLD_DEFAULT, "pyfileindex_roaring_bitmap_create") == nullptr,
        "pyfileindex's CRoaring is not exported");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <append_with_bitmap_no_embedding .index file>\n", argv[0]);
    return 2;
  }
  UseOwnCRoaring();
  UsePyfileindex(argv[1]);
  UseOwnCRoaring();  // again, after pyfileindex has run
  CheckSymbolsStayApart();
  if (failures > 0) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
