// RoaringView: a zero-copy, validated view of one portable-format roaring bitmap inside an
// index payload, read 65536 rows (one container) at a time.
//
// The range-bitmap and bsi readers combine a dozen bit slices row-block by row-block
// (index/slice_scan/); reading the containers in place avoids deserializing every slice into a
// roaring bitmap first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pyfileindex/status.h"

namespace pyfileindex::roaring {

class Bitmap32;

class RoaringView {
 public:
  enum class Kind : uint8_t { kArray, kBitmap, kRun };

  // When Parse checks that each run ends inside its container (a run past it would make an
  // expansion write past a block): all of them at once, or each container's as a caller is
  // about to read it (RunsEndInside), so a query pays only for the containers it reads (the
  // slices of a sorted column hold hundreds of thousands of runs, a query reads few of them).
  enum class RunCheck : uint8_t { kAtParse, kOnUse };

  // Checks the header and every container's extent, and with kAtParse that runs end inside
  // their container; never reads outside `size`.
  static Result<RoaringView> Parse(const uint8_t* data, size_t size,
                                   RunCheck runs = RunCheck::kAtParse);
  // The containers of `bitmap` in place, valid while it lives unchanged. Little-endian hosts
  // only (CRoaring keeps host-order values; views are read as little-endian bytes).
  static RoaringView Over(const Bitmap32& bitmap);

  size_t container_count() const { return containers_.size(); }
  bool HoldsRuns() const;
  // Bytes of the bitmap (where the next one would start); 0 for a view Over a Bitmap32.
  size_t bytes() const { return bytes_; }
  uint16_t key(size_t i) const { return containers_[i].key; }
  // The largest value (false when the bitmap is empty).
  bool Maximum(uint32_t* value) const;
  // The index of the container with `key` at or after `from`, or container_count().
  size_t Seek(uint16_t key, size_t from) const {
    while (from < containers_.size() && containers_[from].key < key) ++from;
    return from;
  }

  // Whether container i's runs end inside it (true for other kinds, and for every container
  // of a view whose Parse checked them all). Readers of a kOnUse view ask before they read a
  // run container, and answer Corrupt when it is false.
  bool RunsEndInside(size_t i) const;

  // The 1024 little-endian words of container i: in place for a bitmap container, else
  // expanded into `scratch` (1024 words). Read them with io::LoadU64LE-style loads. Runs are
  // cut at the container's end, so even an unchecked damaged one stays inside `scratch`.
  const uint8_t* Words(size_t i, uint64_t* scratch) const;

  // Container i as stored: its kind, its value count (array) or run count (run), and its body
  // (little-endian: 1024 words, `count` uint16 values, or `count` (start, length - 1) pairs).
  Kind kind(size_t i) const { return containers_[i].kind; }
  uint32_t count(size_t i) const { return containers_[i].count; }
  const uint8_t* data(size_t i) const { return containers_[i].data; }

 private:
  struct Container {
    uint16_t key;
    Kind kind;
    uint32_t count;  // values (array) or runs (run)
    const uint8_t* data;
  };
  std::vector<Container> containers_;
  size_t bytes_ = 0;
  bool runs_checked_ = true;  // every run ends inside its container (Parse kAtParse, Over)
};

}  // namespace pyfileindex::roaring
