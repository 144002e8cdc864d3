// Writes the seed corpora of every target into OUT_DIR/<target>/: containers Java wrote (the
// golden tables' .index sidecars, found under GOLDEN_DIR) and containers this library writes
// with every index type and several layouts, each index payload of them as a seed of its
// index's target, and a few inputs for the arrow, options and data_type targets.
//   pyfileindex_fuzz_seeds OUT_DIR [GOLDEN_DIR]
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "container/container_format.h"
#include "keyed_container.h"
#include "pyfileindex/reader.h"
#include "target_support.h"

namespace fs = std::filesystem;
using namespace pyfileindex;

namespace {

fs::path out_dir;
int written = 0;

// Larger seeds slow every execution down (the golden bloom filters have Java's default size,
// 600 KB) and are cut at the fuzzers' -max_len anyway.
constexpr size_t kMaxSeedBytes = 16 * 1024;

void Save(const std::string& target, const std::string& name, const std::vector<uint8_t>& bytes) {
  if (bytes.size() > kMaxSeedBytes) return;
  const fs::path dir = out_dir / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ++written;
}

std::string TargetOf(const std::string& index_type) {
  std::string name = index_type;
  for (char& c : name) c = c == '-' ? '_' : c;
  return "index_" + name;
}

// The container as a seed of the container target, and each payload as a seed of its
// index's target (`types`: column name -> Paimon type).
void SaveContainer(const std::string& name, const std::vector<uint8_t>& bytes,
                   const std::map<std::string, std::string>& types) {
  Save("container", name, bytes);
  auto entries = container::ReadContainerHeader(io::ByteSpan(bytes.data(), bytes.size()));
  if (!entries.ok()) return;
  int n = 0;
  for (const IndexEntry& entry : *entries) {
    const auto type = types.find(entry.column);
    if (entry.empty() || type == types.end()) continue;
    const int position = fuzz::ColumnTypePosition(type->second);
    if (position < 0) continue;
    Save(TargetOf(entry.index_type), name + "-" + std::to_string(n++),
         fuzz::IndexSeed(position, bytes.data() + entry.offset, static_cast<size_t>(entry.length)));
  }
}

// A container over `rows` rows of keys drawn from `cardinality` values.
std::vector<uint8_t> Generated(int64_t rows, uint64_t cardinality, int64_t null_every,
                               const std::map<std::string, std::string>& options) {
  std::mt19937_64 rng(static_cast<uint64_t>(rows) * 7 + cardinality);
  std::vector<uint64_t> keys(static_cast<size_t>(rows));
  for (auto& key : keys) key = rng() % cardinality;
  auto container = test_arrow::KeyedContainer(keys, null_every, Options(options));
  return container.ok() ? std::move(container).ValueOrDie() : std::vector<uint8_t>{};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR [GOLDEN_DIR]\n", argv[0]);
    return 2;
  }
  out_dir = argv[1];
  const std::map<std::string, std::string> golden_types = {
      {"f0", "STRING"}, {"f1", "INT"}, {"f2", "INT"}, {"f3", "DOUBLE"}, {"f4", "TIMESTAMP(9)"},
      {"key", "INT"}};
  if (argc > 2 && fs::is_directory(argv[2])) {
    int n = 0;
    for (const auto& entry : fs::recursive_directory_iterator(argv[2])) {
      if (!entry.is_regular_file() || entry.path().extension() != ".index") continue;
      std::ifstream file(entry.path(), std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                       std::istreambuf_iterator<char>());
      SaveContainer("golden-" + std::to_string(n++), bytes, golden_types);
    }
  }
  const std::map<std::string, std::string> ours = {
      {"id", "BIGINT"}, {"score", "INT"}, {"name", "STRING"}, {"price", "DOUBLE"}};
  const std::map<std::string, std::string> every_index = {
      {"file-index.bitmap.columns", "score,name"},
      {"file-index.bitmap.name.index-block-size", "64b"},
      {"file-index.bloom-filter.columns", "name,id"},
      {"file-index.bloom-filter.name.items", "50"},
      {"file-index.bloom-filter.id.items", "20"},
      {"file-index.bsi.columns", "id,score"},
      {"file-index.range-bitmap.columns", "id,score,name,price"},
      {"file-index.range-bitmap.name.chunk-size", "64b"},
      {"file-index.range-bitmap.price.chunk-size", "64b"}};
  std::map<std::string, std::string> v1 = every_index;
  v1["file-index.bitmap.score.version"] = "1";
  v1["file-index.bitmap.name.version"] = "1";
  int n = 0;
  for (const auto& [rows, cardinality, null_every, options] :
       std::vector<std::tuple<int64_t, uint64_t, int64_t, std::map<std::string, std::string>>>{
           {40, 5, 7, every_index}, {300, 30, 0, every_index}, {300, 300, 13, v1},
           {70000, 3, 0, v1}, {1000, 1, 1, every_index}}) {
    const std::vector<uint8_t> bytes = Generated(rows, cardinality, null_every, options);
    if (bytes.empty()) {
      std::fprintf(stderr, "could not write a seed container\n");
      return 1;
    }
    SaveContainer("written-" + std::to_string(n++), bytes, ours);
  }
  std::mt19937_64 rng(42);
  for (int i = 0; i < 32; ++i) {
    std::vector<uint8_t> bytes(64 + rng() % 400);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng() % 24);  // small steps, short lengths
    bytes[0] = static_cast<uint8_t>(i);
    Save("arrow", "random-" + std::to_string(i), bytes);
  }
  // string_view literals: the "\x00" prefix bytes are part of the text (a const char*
  // would end there).
  using namespace std::string_view_literals;
  const std::string_view option_texts[] = {
      "\x04" "bitmap.columns=a,b\n\x00" "a.version=1\n\x00" "b.index-block-size=16kb"sv,
      "\x04" "bloom-filter.columns=b,c\n\x01" "b.fpp=0.001\n\x01" "c.items=300"sv,
      "\x04" "bsi.columns=a,c\n\x04" "in-manifest-threshold=1 mb"sv,
      "\x04" "range-bitmap.columns=a,d,b\n\x03" "d.chunk-size=64b\n\x04" "read.enabled=true"sv,
      "\x04" "bitmap.columns=m[k]\n\x04" "bloom-filter.columns=m[x],a"sv,
  };
  int o = 0;
  for (std::string_view text : option_texts) {
    Save("options", "text-" + std::to_string(o++), std::vector<uint8_t>(text.begin(), text.end()));
  }
  const char* const type_texts[] = {
      "INT", "BIGINT NOT NULL", "VARCHAR(10)", "DECIMAL(10, 2)", "TIMESTAMP(9)",
      "TIMESTAMP(6) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)", "MAP<STRING, INT>",
      "ARRAY<MAP<INT, ROW<a INT, b STRING>>>", "CHAR(3) NOT NULL", "BINARY(4)", "TIME(3)"};
  int t = 0;
  for (std::string_view text : type_texts) {
    Save("data_type", "type-" + std::to_string(t++), std::vector<uint8_t>(text.begin(), text.end()));
  }
  std::printf("wrote %d seeds into %s\n", written, out_dir.c_str());
  return 0;
}
