#include "roaring/value_ranges.h"

namespace pyfileindex::roaring {

using namespace ::roaring::internal;  // CRoaring's container layer

namespace {

class RangeList {
 public:
  // [begin, end) after every range added before; joins the last range where they touch.
  void Add(uint64_t begin, uint64_t end) {
    if (!ranges_.empty() && ranges_.back().second == begin) {
      ranges_.back().second = end;
    } else {
      ranges_.emplace_back(begin, end);
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> Take() { return std::move(ranges_); }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

void AddWordRuns(uint64_t word, uint64_t first_value, RangeList* out) {
  while (word != 0) {
    const int start = __builtin_ctzll(word);
    const uint64_t from_start = word >> start;
    // Set bits from `start` on: all the rest of the word when they run to its top.
    const int length = ~from_start == 0 ? 64 - start : __builtin_ctzll(~from_start);
    out->Add(first_value + start, first_value + start + length);
    word = start + length == 64 ? 0 : word & (~uint64_t{0} << (start + length));
  }
}

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> ValueRanges(const Bitmap32& bitmap) {
  RangeList out;
  const roaring_array_t& containers = bitmap.raw()->high_low_container;
  for (int32_t i = 0; i < containers.size; ++i) {
    const uint64_t base = uint64_t{containers.keys[i]} << 16;
    uint8_t type = containers.typecodes[i];
    const container_t* c = container_unwrap_shared(containers.containers[i], &type);
    if (type == RUN_CONTAINER_TYPE) {
      const run_container_t* runs = const_CAST_run(c);
      for (int32_t k = 0; k < runs->n_runs; ++k) {
        const uint64_t first = base + runs->runs[k].value;
        out.Add(first, first + runs->runs[k].length + 1);  // length: values after the first
      }
    } else if (type == ARRAY_CONTAINER_TYPE) {
      const array_container_t* array = const_CAST_array(c);
      for (int32_t k = 0; k < array->cardinality; ++k) {
        out.Add(base + array->array[k], base + array->array[k] + 1);
      }
    } else {
      const uint64_t* words = const_CAST_bitset(c)->words;
      for (uint64_t w = 0; w < BITSET_CONTAINER_SIZE_IN_WORDS; ++w) {
        AddWordRuns(words[w], base + 64 * w, &out);
      }
    }
  }
  return out.Take();
}

}  // namespace pyfileindex::roaring
