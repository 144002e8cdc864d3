// Frozen bitmaps: a roaring bitmap and a copy of its container bodies in one allocation, the
// containers reading their values in place (CRoaring's frozen flag: roaring_bitmap_free
// releases the one block and nothing else). For bitmaps read from an index to answer with.
//
// Deserializing allocates two blocks per container (its struct and its values) and copies
// each; a bitmap answering 100k rows of a 10M-row file holds ~150 containers, and those
// allocations were most of a point lookup. A frozen bitmap is one allocation and one copy of
// the bodies. It must never be changed: Bitmap32 makes its containers its own first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring.h"

namespace pyfileindex::roaring {

// A frozen bitmap over a copy of data[0, size), which must be one whole portable bitmap
// already checked (roaring_bitmap_portable_deserialize_size gave `size`, CheckPortableContent
// passed). Bodies are read back to back as Java reads them (an offset table is not followed)
// and each bitmap container's words are placed on an 8-byte boundary. nullptr on a big-endian
// host, where CRoaring's host-order values are not the bytes. Throws std::bad_alloc.
roaring_bitmap_t* FreezeCopyOf(const uint8_t* data, size_t size);

// Another frozen bitmap with the values of `frozen`: one copy of its block. Throws
// std::bad_alloc.
roaring_bitmap_t* CopyFrozen(const roaring_bitmap_t* frozen);

}  // namespace pyfileindex::roaring
