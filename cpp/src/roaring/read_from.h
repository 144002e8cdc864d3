// Batched ascending reads from a Bitmap32, resumable at any value: what RowBitmap's iterator
// is built on, so the public API can iterate without exposing CRoaring's iterator type.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring/bitmap32.h"

namespace pyfileindex::roaring {

// Copies up to `max` values >= `start`, ascending, into `out`; returns how many.
size_t ReadFrom(const Bitmap32& bitmap, uint64_t start, uint32_t* out, size_t max);

}  // namespace pyfileindex::roaring
