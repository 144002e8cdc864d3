// The head of a bitmap in the portable Roaring format (what Java's RoaringBitmap.serialize and
// CRoaring's portable serialization write): its cookie, container count, run flags and the
// (key, cardinality - 1) descriptors. Container bodies follow it back to back, in order; the
// offset table some bitmaps carry is redundant and skipped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/endian.h"
#include "pyfileindex/status.h"

namespace pyfileindex::roaring {

struct PortableHeader {
  size_t count = 0;                   // containers
  const uint8_t* run_flags = nullptr; // bit i: container i is a run container (run cookie only)
  const uint8_t* descriptors = nullptr;
  size_t bodies = 0;                  // offset of the first container body

  // Reads the head of the bitmap at data[0, size): Corrupt ("roaring bitmap: ...") if the
  // cookie is unknown or the head does not fit.
  static Result<PortableHeader> Read(const uint8_t* data, size_t size);

  bool IsRun(size_t i) const {
    return run_flags != nullptr && ((run_flags[i / 8] >> (i % 8)) & 1) != 0;
  }
  uint16_t Key(size_t i) const { return io::LoadU16LE(descriptors + 4 * i); }
  uint32_t Cardinality(size_t i) const {
    return uint32_t{io::LoadU16LE(descriptors + 4 * i + 2)} + 1;
  }
};

}  // namespace pyfileindex::roaring
