// The ids 0..n-1 ordered by their 64-bit sort keys, ties by id: the order the bitmap writer
// lays its keys out in. Larger dictionaries go through a least-significant-digit radix sort,
// linear in the keys where a comparison sort is a sizeable part of a high-cardinality build;
// its digits (up to 11 bits) cover only the bits in which the keys differ, and a digit every
// key shares is skipped, so integer keys widened to 64 bits cost only their low digits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory/scratch.h"

namespace pyfileindex::index::bitmap {

// `keys[id]` is id's sort key, for ids 0..n-1. Returns the ids in order, and leaves the keys
// in that order too (keys[i] is the key of the i-th id returned). The sort's temporary arrays
// come from `scratch` where they fit.
std::vector<uint32_t> IdsBySortKey(uint64_t* keys, size_t n,
                                   memory::Scratch scratch = memory::Scratch());

}  // namespace pyfileindex::index::bitmap
