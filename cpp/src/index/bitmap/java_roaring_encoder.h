// Java RoaringBitmap32.serialize() bytes straight from sorted row values, without building a
// CRoaring bitmap (the writer's hot path: one heap container per container span per key would
// dominate the cost for keys with few rows per span; roaring/container_span.h).
//
// Container choice is Java's content-only rule for bitmaps built by add()
// (roaring::JavaContainerKind, portable_layout.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/portable_layout.h"

namespace pyfileindex::index::bitmap {

using roaring::ContainerBodyBytes;
using roaring::ContainerKind;
using roaring::JavaContainerKind;
using roaring::kBitmapBytes;

// One container of a bitmap being serialized: its key (the high 16 bits of its rows) and what
// it holds.
struct ContainerInfo {
  uint16_t key;
  ContainerKind kind;
  uint32_t card;   // 1..65536
  uint32_t runs;   // maximal runs of consecutive values
  uint32_t bytes;  // serialized size of the container's body
};

// Size of the head (cookie, keys and cardinalities, offsets) Java writes before the bodies.
size_t JavaRoaringHeadBytes(const ContainerInfo* containers, size_t count);
// Writes that head to `out` and returns where the bodies go (just past it); offsets assume
// the bodies follow the head in order.
uint8_t* WriteJavaRoaringHead(const ContainerInfo* containers, size_t count, uint8_t* out);

// Writes the body of a container holding the 16-bit values `low[0..card)` (strictly
// ascending) as `kind` (`runs`: their number of runs) to `out` (ContainerBodyBytes bytes).
void WriteContainerBody(ContainerKind kind, const uint16_t* low, uint32_t card, uint32_t runs,
                        uint8_t* out);

// The same for the `card` consecutive values first, first + 1, ... (one run, in one container).
void WriteConsecutiveBody(ContainerKind kind, uint16_t first, uint32_t card, uint8_t* out);

// The portable serialization of the set {rows[0], ..., rows[n-1]} (`rows` strictly
// ascending): its size, writing it (JavaRoaringSize bytes), and appending it to a vector.
size_t JavaRoaringSize(const uint32_t* rows, size_t n);
void WriteJavaRoaring(const uint32_t* rows, size_t n, uint8_t* out);
void AppendJavaRoaring(const uint32_t* rows, size_t n, std::vector<uint8_t>* out);

// The same from run-marked entries: ascending rows below 2^31, where an entry with
// kRunEndMark set ends a run of consecutive rows begun by the entry before it (row lists of
// clustered keys, row_sets.h). Runs must be maximal (no entry continues the one before it).
constexpr uint32_t kRunEndMark = 0x80000000u;
size_t JavaRoaringSizeOfRuns(const uint32_t* entries, size_t n);
void WriteJavaRoaringOfRuns(const uint32_t* entries, size_t n, uint8_t* out);

// Calls visit(first, last) for every run of such entries (single rows: first == last), split
// at container span boundaries.
template <typename Visit>
void ForEachPiece(const uint32_t* entries, size_t n, Visit&& visit) {
  for (size_t i = 0; i < n; ++i) {
    uint32_t first = entries[i];
    uint32_t last = first;
    if (i + 1 < n && (entries[i + 1] & kRunEndMark) != 0) last = entries[++i] & ~kRunEndMark;
    while ((first >> 16) != (last >> 16)) {
      visit(first, first | 0xFFFFu);
      first = (first | 0xFFFFu) + 1;
    }
    visit(first, last);
  }
}

}  // namespace pyfileindex::index::bitmap
