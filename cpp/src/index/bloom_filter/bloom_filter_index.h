// The `bloom-filter` index type (Paimon's BloomFilterFileIndex over BloomFilter64).
//
// Payload: int32 BE k, then numBits/8 bytes of bit set; numBits is not stored (the reader derives
// it from the payload length). Options: `items` (int, default 1000000), `fpp` (default 0.1).
// Reader: `=` and IN can SKIP a file whose filter lacks every literal; all else is REMAIN.
#pragma once

#include "index/index_type.h"

namespace pyfileindex::index {

const IndexType& BloomFilterIndexType();

}  // namespace pyfileindex::index
