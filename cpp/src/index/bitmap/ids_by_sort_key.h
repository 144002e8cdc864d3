// The ids 0..n-1 ordered by their 64-bit sort keys, ties by id: the order the bitmap writer
// lays its keys out in. Larger dictionaries go through a least-significant-digit radix sort,
// linear in the keys where a comparison sort is a sizeable part of a high-cardinality build;
// digits every key shares are skipped, so integer keys widened to 64 bits cost only their
// low digits.
#pragma once

#include <cstdint>
#include <vector>

namespace pyfileindex::index::bitmap {

// `keys[id]` is id's sort key (taken, to sort in place).
std::vector<uint32_t> IdsBySortKey(std::vector<uint64_t> keys);

}  // namespace pyfileindex::index::bitmap
