// Bitmap32::Deserialize reads containers in place from a private copy of the bytes (frozen):
// every value and every change must be what a bitmap that owns its containers gives, the copy
// must not depend on the caller's bytes, every bitmap container's words must be aligned, and
// an offset table that disagrees with the bodies must be read past as Java reads past it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "io/endian.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::roaring {
namespace {

using namespace ::roaring::internal;  // CRoaring's container layer, to look at what was read

// Arrays of odd and even sizes (each shifts the bodies after it by 2 bytes modulo 8),
// bitmap containers, runs and single values, over `keys` 16-bit keys.
Bitmap32 Mixed(uint32_t seed, uint32_t keys, bool runs) {
  std::mt19937 rng(seed);
  Bitmap32 bitmap;
  for (uint32_t k = 0; k < keys; ++k) {
    const uint32_t base = k << 16;
    switch ((k + seed) % 4) {
      case 0: {  // array, odd or even size
        const uint32_t values = 1 + rng() % 9;
        for (uint32_t i = 0; i < values; ++i) bitmap.Add(base + rng() % 65536);
        break;
      }
      case 1:  // bitmap container
        for (uint32_t i = 0; i < 9000; ++i) bitmap.Add(base + rng() % 65536);
        break;
      case 2:  // runs when compacted
        bitmap.AddRange(base + 100, base + 30000);
        bitmap.AddRange(base + 40000, base + 65536);
        break;
      default:
        bitmap.Add(base + 7);
    }
  }
  if (runs) bitmap.Compact();
  return bitmap;
}

size_t RunCapacityOverRuns(const Bitmap32& bitmap) {
  const roaring_array_t& containers = bitmap.raw()->high_low_container;
  size_t worst = 0;
  for (int32_t i = 0; i < containers.size; ++i) {
    if (containers.typecodes[i] != RUN_CONTAINER_TYPE) continue;
    const auto* run = static_cast<const run_container_t*>(containers.containers[i]);
    worst = std::max(worst, static_cast<size_t>(run->capacity - run->n_runs));
  }
  return worst;
}

bool BitmapWordsAligned(const Bitmap32& bitmap) {
  const roaring_array_t& containers = bitmap.raw()->high_low_container;
  for (int32_t i = 0; i < containers.size; ++i) {
    if (containers.typecodes[i] != BITSET_CONTAINER_TYPE) continue;
    const auto* words = static_cast<const bitset_container_t*>(containers.containers[i])->words;
    if (reinterpret_cast<uintptr_t>(words) % alignof(uint64_t) != 0) return false;
  }
  return true;
}

Bitmap32 ReadBack(std::vector<uint8_t> bytes) {
  Result<Bitmap32> read = Bitmap32::Deserialize(bytes.data(), bytes.size());
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  std::fill(bytes.begin(), bytes.end(), 0xA5);  // the bitmap must hold its own copy
  return read.ok() ? std::move(*read) : Bitmap32();
}

TEST(Bitmap32Frozen, ReadsEveryContainerKindInPlaceFromItsOwnCopy) {
  if (!io::endian_internal::kHostIsLittleEndian) GTEST_SKIP() << "frozen reading is little-endian";
  for (uint32_t seed = 0; seed < 12; ++seed) {
    for (const bool runs : {false, true}) {
      // One key, a few, and enough for an offset table with runs.
      for (const uint32_t keys : {1u, 3u, 9u}) {
        const Bitmap32 original = Mixed(seed, keys, runs);
        const Bitmap32 read = ReadBack(original.SerializeAsIs());
        EXPECT_TRUE(read == original) << seed << " " << runs << " " << keys;
        EXPECT_EQ(read.frozen(), io::endian_internal::kHostIsLittleEndian);
        EXPECT_TRUE(BitmapWordsAligned(read));
        EXPECT_EQ(read.Cardinality(), original.Cardinality());
        EXPECT_EQ(read.ToVector(), original.ToVector());
        // Where frozen, a run container's capacity is its run count: a copy of one full
        // chunk's single run must not allocate 65536 runs.
        EXPECT_EQ(RunCapacityOverRuns(read), 0u);
        EXPECT_EQ(read.SerializeAsIs(), original.SerializeAsIs());
      }
    }
  }
}

TEST(Bitmap32Frozen, EveryChangeGivesWhatAnOwnedBitmapGives) {
  if (!io::endian_internal::kHostIsLittleEndian) GTEST_SKIP() << "frozen reading is little-endian";
  const Bitmap32 other = Mixed(99, 6, true);
  const std::vector<std::pair<std::string, std::function<void(Bitmap32&)>>> changes = {
      {"Add", [](Bitmap32& b) { b.Add(65536 * 2 + 5); }},
      {"AddMany", [](Bitmap32& b) { const uint32_t v[] = {1, 70000, 400000}; b.AddMany(v, 3); }},
      {"AddRange", [](Bitmap32& b) { b.AddRange(1000, 200000); }},
      {"Remove", [](Bitmap32& b) { b.Remove(b.Minimum()); }},
      {"Flip", [](Bitmap32& b) { b.Flip(10, 500000); }},
      {"and", [&other](Bitmap32& b) { b &= other; }},
      {"or", [&other](Bitmap32& b) { b |= other; }},
      {"andnot", [&other](Bitmap32& b) { b -= other; }},
      {"xor", [&other](Bitmap32& b) { b ^= other; }},
      {"Compact", [](Bitmap32& b) { b.Compact(); }},
      {"raw", [](Bitmap32& b) { roaring_bitmap_add(b.raw(), 3); }},
      {"copy-assign", [&other](Bitmap32& b) { b = other; }},
  };
  for (uint32_t seed = 0; seed < 8; ++seed) {
    const Bitmap32 original = Mixed(seed, 7, seed % 2 == 0);
    for (const auto& [name, change] : changes) {
      Bitmap32 owned = original;
      Bitmap32 read = ReadBack(original.SerializeAsIs());
      const Bitmap32 untouched = read;  // a copy taken before the change keeps the old values
      change(owned);
      change(read);
      EXPECT_FALSE(read.frozen()) << name;
      EXPECT_TRUE(read == owned) << name << " " << seed;
      EXPECT_TRUE(untouched == original) << name << " " << seed;
      EXPECT_EQ(read.Serialize(), owned.Serialize()) << name << " " << seed;
    }
  }
}

TEST(Bitmap32Frozen, CopiesAndAssignmentsStayIndependent) {
  if (!io::endian_internal::kHostIsLittleEndian) GTEST_SKIP() << "frozen reading is little-endian";
  const Bitmap32 original = Mixed(5, 8, true);
  Bitmap32 read = ReadBack(original.SerializeAsIs());
  ASSERT_TRUE(read.frozen());
  Bitmap32 copy = read;
  EXPECT_TRUE(copy.frozen());  // one copy of the bytes, not a container at a time
  copy.Add(1u << 31);
  EXPECT_TRUE(read == original);
  EXPECT_TRUE(copy.Contains(1u << 31));

  Bitmap32 assigned = Bitmap32::Of({1, 2, 3});
  assigned = read;  // onto an owned bitmap, from a frozen one
  EXPECT_TRUE(assigned == original);
  read = Bitmap32::Of({4});  // onto a frozen bitmap
  EXPECT_EQ(read.ToVector(), std::vector<uint32_t>{4});
  EXPECT_TRUE(assigned == original);

  Bitmap32 moved = std::move(assigned);
  EXPECT_TRUE(moved == original);
  EXPECT_TRUE(assigned.IsEmpty());  // NOLINT(bugprone-use-after-move): moved-from is empty
}

// Bitmap containers 2, 4 and 6 bytes apart modulo 8 (arrays of 1, 2 and 3 values between
// them): each is moved onto a word boundary of its own, CRoaring reading words as uint64_t.
TEST(Bitmap32Frozen, EveryBitmapContainerLandsOnAWordBoundary) {
  if (!io::endian_internal::kHostIsLittleEndian) GTEST_SKIP() << "frozen reading is little-endian";
  Bitmap32 original;
  uint32_t key = 0;
  for (const uint32_t between : {1u, 2u, 3u, 0u, 5u}) {
    for (uint32_t v = 0; v < 65536; v += 3) original.Add((key << 16) + v);
    ++key;
    for (uint32_t v = 0; v < between; ++v) original.Add((key << 16) + 11 * v);
    if (between != 0) ++key;
  }
  const Bitmap32 read = ReadBack(original.SerializeAsIs());
  EXPECT_TRUE(read.frozen());
  EXPECT_TRUE(BitmapWordsAligned(read));
  EXPECT_TRUE(read == original);
  const Bitmap32 copy = read;
  EXPECT_TRUE(copy.frozen());
  EXPECT_TRUE(BitmapWordsAligned(copy));
  EXPECT_TRUE(copy == original);
}

// Java's reader skips the offset table; CRoaring's own frozen reading would follow it. Bodies
// are read where they lie, whatever the table says.
TEST(Bitmap32Frozen, AnOffsetTableThatDisagreesIsIgnoredAsJavaIgnoresIt) {
  for (const bool runs : {false, true}) {
    Bitmap32 original = Mixed(3, 9, runs);
    if (!runs) roaring_bitmap_remove_run_compression(original.raw());
    const std::vector<uint8_t> bytes = original.SerializeAsIs();
    const uint32_t cookie = io::LoadU32LE(bytes.data());
    // Both cookies list offsets here: always without runs, from 4 containers with them.
    ASSERT_EQ(cookie & 0xFFFF, runs ? 12347u : 12346u);
    const uint32_t count = runs ? (cookie >> 16) + 1 : io::LoadU32LE(bytes.data() + 4);
    ASSERT_EQ(count, 9u);
    const size_t table = runs ? 4 + (count + 7) / 8 + 4 * size_t{count} : 8 + 4 * size_t{count};
    for (uint32_t i = 0; i < count; ++i) {
      std::vector<uint8_t> damaged = bytes;
      // Far past the bytes: must never be followed.
      io::StoreU32LE(damaged.data() + table + 4 * i, 0xFFFFFF00u + i);
      const Bitmap32 read = ReadBack(damaged);
      EXPECT_TRUE(read == original) << runs << " " << i;
    }
  }
}

}  // namespace
}  // namespace pyfileindex::roaring
