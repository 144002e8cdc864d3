// The `bsi` index type (Paimon's BitSliceIndexBitmapFileIndex, deprecated in Paimon but still
// read and written).
//
// Payload: u8 version 1 | i32 BE row count | u8 has-positive [BSI] | u8 has-negative [BSI]; the
// positive BSI holds values >= 0, the negative one |v| of values < 0 (see bit_slice_index.h).
// Every comparison, IN / NOT IN, BETWEEN and IS [NOT] NULL is answered with a row bitmap.
#pragma once

#include "index/index_type.h"

namespace pyfileindex::index {

const IndexType& BsiIndexType();

}  // namespace pyfileindex::index
