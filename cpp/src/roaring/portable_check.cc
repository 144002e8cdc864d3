#include "roaring/portable_check.h"

#include <string>

#include "io/endian.h"
#include "roaring/block_ops.h"
#include "roaring/portable_header.h"
#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

namespace {

Status Broken(size_t container, const char* rule) {
  return Status::Corrupt("roaring bitmap: container ", container, " ", rule);
}

// The body may sit at any alignment: counted in place, not on an aligned copy.
uint32_t BitmapCardinality(const uint8_t* body) { return Ops().cardinality_of_bytes(body); }

// CRoaring's rule for runs: each [start, start + length] inside 0..65535, after the previous
// one with a gap (a run starting at 0 is the only one allowed to start where "nothing" ends).
bool RunsValid(const uint8_t* runs, uint32_t count) {
  bool valid = count > 0;
  uint32_t last_end = 0;  // exclusive
  for (uint32_t r = 0; r < count; ++r) {
    const uint32_t start = io::LoadU16LE(runs + 4 * r);
    const uint32_t end = start + io::LoadU16LE(runs + 4 * r + 2) + 1;
    valid &= end <= 65536;
    valid &= start > last_end || (start == 0 && last_end == 0);
    last_end = end;
  }
  return valid;
}

}  // namespace

Status CheckPortableContent(const uint8_t* data, size_t size) {
  PFI_ASSIGN_OR_RETURN(PortableHeader head, PortableHeader::Read(data, size));
  size_t pos = head.bodies;
  // Bodies follow the header in container order (CRoaring reads them so, ignoring offsets).
  for (size_t i = 0; i < head.count; ++i) {
    if (i > 0 && head.Key(i) <= head.Key(i - 1)) {
      return Broken(i, "has a key not above the one before");
    }
    const uint32_t cardinality = head.Cardinality(i);
    if (head.IsRun(i)) {
      if (pos + 2 > size) return Broken(i, "overruns the bitmap");
      const uint32_t runs = io::LoadU16LE(data + pos);
      pos += 2;
      if (pos + 4 * size_t{runs} > size) return Broken(i, "overruns the bitmap");
      if (!RunsValid(data + pos, runs)) {
        return Broken(i, "has no runs, or runs out of order, touching or past its end");
      }
      pos += 4 * size_t{runs};
    } else if (cardinality > kArrayMaxValues) {
      if (pos + kBitmapBytes > size) return Broken(i, "overruns the bitmap");
      if (BitmapCardinality(data + pos) != cardinality) {
        return Broken(i, "has a bit count other than its header's");
      }
      pos += kBitmapBytes;
    } else {
      if (pos + 2 * size_t{cardinality} > size) return Broken(i, "overruns the bitmap");
      if (!Ops().strictly_ascending(data + pos, cardinality)) {
        return Broken(i, "has values not strictly ascending");
      }
      pos += 2 * size_t{cardinality};
    }
  }
  return Status::OK();
}

}  // namespace pyfileindex::roaring
