// Java RoaringBitmap32.serialize() bytes straight from sorted row values, without building a
// CRoaring bitmap (the writer's hot path: one heap container per chunk per key would dominate
// the cost for keys with few rows per 65536-row chunk).
//
// Container choice is Java's content-only rule for bitmaps built by add() (spec 3.3, verified
// against Java in VERIFIED-roaring-hashmap.md): per chunk of c values in r runs,
// c <= 4096: run iff 2 + 4r < 2c, else array; c > 4096: run iff 2 + 4r < 8192, else bitmap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyfileindex::index::bitmap {

enum class ContainerKind : uint8_t { kArray, kBitmap, kRun };

// One container of a bitmap being serialized: its 16-bit chunk key and what it holds.
struct ContainerInfo {
  uint16_t key;
  ContainerKind kind;
  uint32_t card;   // 1..65536
  uint32_t runs;   // maximal runs of consecutive values
  uint32_t bytes;  // serialized size of the container's body
};

constexpr uint32_t kMaxArrayCardinality = 4096;
constexpr uint32_t kBitmapBytes = 8192;

// The container Java's runOptimize() leaves for `card` values that form `runs` runs.
// (Inline: the writer asks once per container closed, a few hundred thousand times a file.)
inline ContainerKind JavaContainerKind(uint32_t card, uint32_t runs) {
  const uint64_t run_bytes = 2 + 4 * uint64_t{runs};
  if (card <= kMaxArrayCardinality) {
    return run_bytes < 2 * uint64_t{card} ? ContainerKind::kRun : ContainerKind::kArray;
  }
  return run_bytes < kBitmapBytes ? ContainerKind::kRun : ContainerKind::kBitmap;
}

// Serialized body size of such a container.
inline uint32_t ContainerBodyBytes(ContainerKind kind, uint32_t card, uint32_t runs) {
  switch (kind) {
    case ContainerKind::kArray: return 2 * card;
    case ContainerKind::kBitmap: return kBitmapBytes;
    case ContainerKind::kRun: return 2 + 4 * runs;
  }
  return 0;
}

// Size of the head (cookie, keys and cardinalities, offsets) Java writes before the bodies.
size_t JavaRoaringHeadBytes(const ContainerInfo* containers, size_t count);
// Writes that head to `out` and returns where the bodies go (just past it); offsets assume
// the bodies follow the head in order.
uint8_t* WriteJavaRoaringHead(const ContainerInfo* containers, size_t count, uint8_t* out);

// Writes the body of a container holding the 16-bit values `low[0..card)` (strictly
// ascending) as `kind` (`runs`: their number of runs) to `out` (ContainerBodyBytes bytes).
void WriteContainerBody(ContainerKind kind, const uint16_t* low, uint32_t card, uint32_t runs,
                        uint8_t* out);

// The same for the `card` consecutive values first, first + 1, ... (one run, in one chunk).
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

}  // namespace pyfileindex::index::bitmap
