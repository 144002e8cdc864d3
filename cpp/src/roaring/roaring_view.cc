#include "roaring/roaring_view.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "io/endian.h"
#include "roaring/bitmap32.h"
#include "roaring/block_ops.h"
#include "roaring/dense_roaring_encoder.h"
#include "roaring/portable_header.h"

namespace pyfileindex::roaring {

namespace {

using roaring::kBlockWords;

Status Bad(const std::string& what) {
  return Status::Corrupt("roaring bitmap ", what);
}

}  // namespace

namespace {
// Whether start + length <= 0xffff for each of the `count` runs at `runs`. No early exit: the
// loop is a branch-free reduction the compiler vectorizes (a bitmap of a sorted column can
// hold hundreds of thousands of runs). A size_t index: with a 32-bit one the compiler cannot
// prove the loads contiguous (4 * r might wrap) and gathers them one by one. No AVX2 variant:
// the loop waits on memory, not on arithmetic.
bool RunsEndInsideAt(const uint8_t* runs, uint32_t count) {
  uint32_t past = 0;
  for (size_t r = 0; r < count; ++r) {
    const uint32_t run = io::LoadU32LE(runs + 4 * r);  // start | length << 16
    past |= (run & 0xffff) + (run >> 16);  // bit 16 set: past 0xffff (at most 0x1fffe)
  }
  return (past >> 16) == 0;
}
}  // namespace

Result<RoaringView> RoaringView::Parse(const uint8_t* data, size_t size, RunCheck runs) {
  Result<roaring::PortableHeader> read = roaring::PortableHeader::Read(data, size);
  if (!read.ok()) return read.status();
  const roaring::PortableHeader& head = *read;
  RoaringView view;
  view.runs_checked_ = runs == RunCheck::kAtParse;
  size_t pos = head.bodies;
  view.containers_.resize(head.count);
  for (size_t i = 0; i < head.count; ++i) {
    Container& c = view.containers_[i];
    c.key = head.Key(i);
    const uint32_t card = head.Cardinality(i);
    if (i > 0 && c.key <= view.containers_[i - 1].key) return Bad("with unsorted keys");
    const bool run = head.IsRun(i);
    size_t bytes;
    if (run) {
      if (pos + 2 > size) return Bad("run container overruns the buffer");
      c.kind = Kind::kRun;
      c.count = io::LoadU16LE(data + pos);
      pos += 2;
      bytes = 4 * size_t{c.count};
    } else if (card > kArrayMaxValues) {
      c.kind = Kind::kBitmap;
      c.count = card;
      bytes = 8 * kBlockWords;
    } else {
      c.kind = Kind::kArray;
      c.count = card;
      bytes = 2 * size_t{card};
    }
    if (pos + bytes > size) return Bad("container overruns the buffer");
    c.data = data + pos;
    pos += bytes;
    if (c.kind == Kind::kRun && view.runs_checked_ && !RunsEndInsideAt(c.data, c.count)) {
      return Bad("run past the container end");  // expansion relies on every run ending inside
    }
  }
  view.bytes_ = pos;
  return view;
}

bool RoaringView::RunsEndInside(size_t i) const {
  const Container& c = containers_[i];
  return runs_checked_ || c.kind != Kind::kRun || RunsEndInsideAt(c.data, c.count);
}

bool RoaringView::HoldsRuns() const {
  return std::any_of(containers_.begin(), containers_.end(),
                     [](const Container& c) { return c.kind == Kind::kRun; });
}

RoaringView RoaringView::Over(const Bitmap32& bitmap) {
  using namespace ::roaring::internal;  // CRoaring's container layer (its type codes are macros)
  const roaring_array_t& ra = bitmap.raw()->high_low_container;
  RoaringView view;
  view.containers_.resize(static_cast<size_t>(ra.size));
  for (int32_t i = 0; i < ra.size; ++i) {
    Container& c = view.containers_[static_cast<size_t>(i)];
    uint8_t type = ra.typecodes[i];
    const container_t* body = container_unwrap_shared(ra.containers[i], &type);
    c.key = ra.keys[i];
    if (type == ARRAY_CONTAINER_TYPE) {
      const array_container_t* array = const_CAST_array(body);
      c.kind = Kind::kArray;
      c.count = static_cast<uint32_t>(array->cardinality);
      c.data = reinterpret_cast<const uint8_t*>(array->array);
    } else if (type == BITSET_CONTAINER_TYPE) {
      const bitset_container_t* bits = const_CAST_bitset(body);
      c.kind = Kind::kBitmap;
      c.count = static_cast<uint32_t>(bits->cardinality);
      c.data = reinterpret_cast<const uint8_t*>(bits->words);
    } else {
      const run_container_t* runs = const_CAST_run(body);
      c.kind = Kind::kRun;
      c.count = static_cast<uint32_t>(runs->n_runs);
      c.data = reinterpret_cast<const uint8_t*>(runs->runs);
    }
  }
  return view;
}

bool RoaringView::Maximum(uint32_t* value) const {
  if (containers_.empty()) return false;
  const Container& c = containers_.back();
  uint32_t low = 0;
  bool any = false;
  if (c.kind == Kind::kBitmap) {
    for (size_t w = kBlockWords; w-- > 0 && !any;) {
      const uint64_t word = io::LoadU64LE(c.data + 8 * w);
      if (word != 0) {
        low = static_cast<uint32_t>(w * 64 + 63 - __builtin_clzll(word));
        any = true;
      }
    }
  } else {
    for (uint32_t j = 0; j < c.count; ++j) {
      const uint32_t v = c.kind == Kind::kArray
                             ? io::LoadU16LE(c.data + 2 * j)
                             : std::min<uint32_t>(0xffff, io::LoadU16LE(c.data + 4 * j) +
                                                                  io::LoadU16LE(c.data + 4 * j + 2));
      low = std::max(low, v);
      any = true;
    }
  }
  if (!any) return false;  // a damaged container without values
  *value = (uint32_t{c.key} << 16) | low;
  return true;
}

const uint8_t* RoaringView::Words(size_t i, uint64_t* scratch) const {
  const Container& c = containers_[i];
  if (c.kind == Kind::kBitmap) return c.data;
  std::memset(scratch, 0, 8 * kBlockWords);
  if (c.kind == Kind::kArray) {
    Ops().set_values(scratch, c.data, c.count);
  } else {
    // Runs ascend, and short ones share words: a word's bits are gathered in a register and
    // stored when the runs move on to another word, not read, modified and written per run.
    uint32_t current = 0;
    uint64_t bits = 0;
    for (uint32_t r = 0; r < c.count; ++r) {
      const uint32_t start = io::LoadU16LE(c.data + 4 * r);
      // Exclusive; cut at the container's end (reached only by an unchecked damaged run).
      const uint32_t end = std::min<uint32_t>(start + io::LoadU16LE(c.data + 4 * r + 2) + 1,
                                              uint32_t{1} << 16);
      for (uint32_t v = start; v < end;) {
        const uint32_t bit = v & 63;
        const uint32_t take = std::min<uint32_t>(64 - bit, end - v);
        const uint64_t mask = take == 64 ? ~uint64_t{0} : (((uint64_t{1} << take) - 1) << bit);
        if ((v >> 6) != current) {
          scratch[current] |= bits;
          current = v >> 6;
          bits = 0;
        }
        bits |= mask;
        v += take;
      }
    }
    scratch[current] |= bits;
  }
  // Little-endian bytes, as the caller reads them.
  if (!io::endian_internal::kHostIsLittleEndian) {
    for (size_t w = 0; w < kBlockWords; ++w) {
      const uint64_t v = scratch[w];
      io::StoreU64LE(reinterpret_cast<uint8_t*>(scratch + w), v);
    }
  }
  return reinterpret_cast<const uint8_t*>(scratch);
}

}  // namespace pyfileindex::roaring
