// CheckPortableContent: the content rules of a portable-format roaring bitmap, checked on its
// bytes before CRoaring reads them.
//
// CRoaring reads untrusted bytes safely but keeps what they say (a bitmap container's
// cardinality, an array's order), and its operations assume those are right. Its own check,
// roaring_bitmap_internal_validate, runs after the read and walks array containers one scalar
// compare at a time, which dominates a point lookup that answers many rows. This checks the
// same rules on the bytes, in loops the compiler vectorizes:
//   - container keys strictly ascend;
//   - an array container holds 1..4096 strictly ascending values;
//   - a bitmap container holds more than 4096 set bits, exactly as many as its header says;
//   - a run container holds at least one run; runs end inside the container, ascend, and
//     neither overlap nor touch (CRoaring's reader would keep touching runs unmerged).
#pragma once

#include <cstddef>
#include <cstdint>

#include "pyfileindex/status.h"

namespace pyfileindex::roaring {

// `size` must be the bitmap's exact extent (roaring_bitmap_portable_deserialize_size):
// Corrupt, naming the first broken rule, if the bytes break a rule above or their structure.
Status CheckPortableContent(const uint8_t* data, size_t size);

}  // namespace pyfileindex::roaring
