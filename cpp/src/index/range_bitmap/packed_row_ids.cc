#include "index/range_bitmap/packed_row_ids.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "io/endian.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::range_bitmap {

namespace {
// The ids are one LSB-first bit stream in little-endian 64-bit words. A group of 64 ids at W
// bits fills exactly W words, so groups start on word boundaries and are packed by code made
// for their width (every shift a constant, no branch); the last partial group goes bit by bit.
constexpr uint32_t kGroup = 64;
// Loads run 8 bytes wide at any bit offset: a value of up to 32 bits starting at bit 7 of its
// first byte still ends inside those 8 bytes.
constexpr size_t kSlackBytes = 8;

size_t PackedBytes(uint32_t rows, int width) {
  return (size_t{rows} * static_cast<size_t>(width) + 7) / 8 + kSlackBytes;
}

template <int W>
void PackGroup(const uint32_t* ids, uint32_t base, uint8_t* out) {
  uint64_t word = 0;
  int filled = 0;
#pragma GCC unroll 64
  for (uint32_t i = 0; i < kGroup; ++i) {
    const uint64_t v = ids[i] - base;
    word |= v << filled;
    filled += W;
    if (filled >= 64) {
      io::StoreU64LE(out, word);
      out += 8;
      filled -= 64;
      word = filled > 0 ? v >> (W - filled) : 0;
    }
  }
}

template <int W>
void UnpackGroup(const uint8_t* in, uint32_t base, uint32_t* out) {
  constexpr uint64_t kMask = (uint64_t{1} << W) - 1;
#pragma GCC unroll 64
  for (uint32_t i = 0; i < kGroup; ++i) {
    const uint32_t bit = i * W;
    const uint32_t shift = bit & 63;
    uint64_t v = io::LoadU64LE(in + 8 * (bit >> 6)) >> shift;
    if (shift + W > 64) v |= io::LoadU64LE(in + 8 * (bit >> 6) + 8) << (64 - shift);
    out[i] = base + static_cast<uint32_t>(v & kMask);
  }
}

using PackFn = void (*)(const uint32_t*, uint32_t, uint8_t*);
using UnpackFn = void (*)(const uint8_t*, uint32_t, uint32_t*);

template <size_t... W>
constexpr std::array<PackFn, sizeof...(W)> PackTable(std::index_sequence<W...>) {
  return {{&PackGroup<static_cast<int>(W) + 1>...}};
}
template <size_t... W>
constexpr std::array<UnpackFn, sizeof...(W)> UnpackTable(std::index_sequence<W...>) {
  return {{&UnpackGroup<static_cast<int>(W) + 1>...}};
}
// Index w - 1 for width w in 1..32.
constexpr auto kPack = PackTable(std::make_index_sequence<32>());
constexpr auto kUnpack = UnpackTable(std::make_index_sequence<32>());

constexpr size_t kRunBytes = 2 * sizeof(uint32_t);  // a run's end row and id

// The runs of equal ids in ids[0, rows), or `limit` + 1 once there are more than `limit`
// (a shuffled block stops after its first stretch).
uint32_t CountRuns(const uint32_t* ids, uint32_t rows, size_t limit) {
  constexpr uint32_t kStretch = 4096;
  size_t runs = 1;
  for (uint32_t begin = 1; begin < rows; begin += kStretch) {
    const uint32_t end = std::min(rows, begin + kStretch);
    uint32_t changes = 0;
    for (uint32_t i = begin; i < end; ++i) changes += ids[i] != ids[i - 1] ? 1 : 0;
    runs += changes;
    if (runs > limit) break;
  }
  return static_cast<uint32_t>(std::min(runs, limit + 1));
}
}  // namespace

PackedRowIds::PackedRowIds(const uint32_t* ids, uint32_t rows) : rows_(rows) {
  if (rows == 0) return;
  const auto [low, high] = std::minmax_element(ids, ids + rows);
  base_ = *low;
  const uint32_t spread = *high - base_;
  width_ = spread == 0 ? 0 : 32 - __builtin_clz(spread);
  if (width_ == 0) return;
  const size_t bytes = PackedBytes(rows, width_);
  const size_t max_runs = bytes / kRunBytes;  // with more, packing is smaller
  const uint32_t runs = CountRuns(ids, rows, max_runs);
  if (runs <= max_runs) {
    runs_ = runs;
    run_ends_.reset(new uint32_t[runs]);
    run_ids_.reset(new uint32_t[runs]);
    uint32_t run = 0;
    for (uint32_t i = 1; i < rows; ++i) {
      if (ids[i] == ids[i - 1]) continue;
      run_ends_[run] = i;
      run_ids_[run++] = ids[i - 1];
    }
    run_ends_[run] = rows;
    run_ids_[run] = ids[rows - 1];
    return;
  }
  packed_.reset(new uint8_t[bytes]);
  std::memset(packed_.get(), 0, bytes);
  uint8_t* out = packed_.get();
  const uint32_t groups = rows / kGroup;
  const PackFn pack = kPack[static_cast<size_t>(width_ - 1)];
  for (uint32_t g = 0; g < groups; ++g) {
    pack(ids + size_t{g} * kGroup, base_, out + size_t{g} * 8 * static_cast<size_t>(width_));
  }
  uint64_t bit = uint64_t{groups} * kGroup * static_cast<uint64_t>(width_);
  for (uint32_t i = groups * kGroup; i < rows; ++i, bit += static_cast<uint64_t>(width_)) {
    uint8_t* at = out + (bit >> 3);
    io::StoreU64LE(at, io::LoadU64LE(at) | (uint64_t{ids[i] - base_} << (bit & 7)));
  }
}

PackedRowIds::PackedRowIds(const uint32_t* ends, const uint32_t* ids, uint32_t runs) {
  if (runs == 0) return;
  const auto [low, high] = std::minmax_element(ids, ids + runs);
  const uint32_t spread = *high - *low;
  const int width = spread == 0 ? 0 : 32 - __builtin_clz(spread);
  const uint32_t rows = ends[runs - 1];
  if (width > 0 && runs > PackedBytes(rows, width) / kRunBytes) {
    // Packing is smaller (a short block with many runs): pack from the rows' ids.
    std::unique_ptr<uint32_t[]> all(new uint32_t[rows]);
    uint32_t begin = 0;
    for (uint32_t r = 0; r < runs; ++r) {
      std::fill(all.get() + begin, all.get() + ends[r], ids[r]);
      begin = ends[r];
    }
    *this = PackedRowIds(all.get(), rows);
    return;
  }
  rows_ = rows;
  base_ = *low;
  width_ = width;
  if (width_ == 0) return;
  runs_ = runs;
  run_ends_.reset(new uint32_t[runs]);
  run_ids_.reset(new uint32_t[runs]);
  std::copy(ends, ends + runs, run_ends_.get());
  std::copy(ids, ids + runs, run_ids_.get());
}

void PackedRowIds::Unpack(uint32_t* out, const uint32_t* map) const {
  auto mapped = [map](uint32_t id) { return map != nullptr ? map[id] : id; };
  if (width_ == 0) {
    std::fill(out, out + rows_, mapped(base_));
    return;
  }
  if (runs_ > 0) {
    uint32_t begin = 0;
    for (uint32_t r = 0; r < runs_; ++r) {
      std::fill(out + begin, out + run_ends_[r], mapped(run_ids_[r]));
      begin = run_ends_[r];
    }
    return;
  }
  const uint8_t* in = packed_.get();
  const uint32_t groups = rows_ / kGroup;
  const UnpackFn unpack = kUnpack[static_cast<size_t>(width_ - 1)];
  for (uint32_t g = 0; g < groups; ++g) {
    unpack(in + size_t{g} * 8 * static_cast<size_t>(width_), base_, out + size_t{g} * kGroup);
  }
  const uint64_t mask = (uint64_t{1} << width_) - 1;
  uint64_t bit = uint64_t{groups} * kGroup * static_cast<uint64_t>(width_);
  for (uint32_t i = groups * kGroup; i < rows_; ++i, bit += static_cast<uint64_t>(width_)) {
    out[i] = base_ + static_cast<uint32_t>((io::LoadU64LE(in + (bit >> 3)) >> (bit & 7)) & mask);
  }
  if (map != nullptr) {
    for (uint32_t i = 0; i < rows_; ++i) out[i] = map[out[i]];
  }
}

size_t PackedRowIds::bytes() const {
  if (width_ == 0) return 0;
  return runs_ > 0 ? size_t{runs_} * kRunBytes : PackedBytes(rows_, width_);
}

void PackedRowIds::Release(bool hand_back) {
  if (hand_back && packed_ != nullptr) memory::ReturnPages(packed_.get(), bytes());
  packed_.reset();
  run_ends_.reset();
  run_ids_.reset();
  rows_ = 0;
  width_ = 0;
  runs_ = 0;
}

}  // namespace pyfileindex::index::range_bitmap
