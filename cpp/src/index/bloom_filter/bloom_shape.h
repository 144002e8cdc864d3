// How big a Paimon bloom filter is and how many probes it uses, from the `items` and `fpp`
// options, computed with Java's exact double arithmetic and int/long casts (BloomFilter64).
#pragma once

#include <cstdint>

#include "pyfileindex/status.h"

namespace pyfileindex::index::bloom_filter {

struct BloomShape {
  int32_t num_bits = 0;            // always a positive multiple of 8
  int32_t num_hash_functions = 0;  // k
  int32_t num_bytes() const { return num_bits / 8; }
};

// Java's sizing for `items` (a Java int) and `fpp`. InvalidArgument when Java would fail to
// allocate the bit set (zero or negative size, int overflow), e.g. for fpp <= 0 or fpp >= 1.
Result<BloomShape> ComputeBloomShape(int32_t items, double fpp);

// The most hash functions Java's sizing gives for any options: k = numBits / items * ln 2 is
// about -ln(fpp) / ln 2, largest for one item at the smallest positive fpp (about 1076). A
// filter declaring more was not written by Java: a reader refuses it as corrupt rather than
// probe up to 2^31 times per literal.
int32_t MaxJavaHashFunctions();

// Java's (int) cast of a double: truncation, NaN -> 0, saturation at the int range.
int32_t JavaDoubleToInt(double value);
// Java's Math.round(double): nearest long, ties towards positive infinity, NaN -> 0, saturating.
int64_t JavaRound(double value);

}  // namespace pyfileindex::index::bloom_filter
