// CheckPortableContent (the byte-level check Bitmap32::Deserialize relies on) against
// CRoaring's own roaring_bitmap_internal_validate, on valid bitmaps and on damaged copies:
// the two must agree on every input whose structure CRoaring can read.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "io/endian.h"
#include "roaring.h"
#include "roaring/bitmap32.h"
#include "roaring/portable_check.h"

namespace pyfileindex::roaring {
namespace {

// Arrays, bitmaps and runs in a few containers, some of them next to each other.
Bitmap32 RandomBitmap(std::mt19937_64& rng) {
  Bitmap32 bitmap;
  const int containers = 1 + static_cast<int>(rng() % 5);
  uint32_t key = static_cast<uint32_t>(rng() % 8);
  for (int c = 0; c < containers; ++c) {
    const uint32_t base = key << 16;
    switch (rng() % 4) {
      case 0:  // sparse: an array
        for (int k = 0, n = 1 + static_cast<int>(rng() % 60); k < n; ++k) {
          bitmap.Add(base + static_cast<uint32_t>(rng() % 65536));
        }
        break;
      case 1: {  // dense: a bitmap
        for (uint32_t v = 0; v < 65536; ++v) {
          if (rng() % 3 == 0) bitmap.Add(base + v);
        }
        break;
      }
      case 2: {  // runs, possibly one at the start of the container
        for (int r = 0, n = 1 + static_cast<int>(rng() % 4); r < n; ++r) {
          const uint32_t start = static_cast<uint32_t>(rng() % 65536);
          const uint32_t length = 1 + static_cast<uint32_t>(rng() % 3000);
          bitmap.AddRange(base + start, std::min<uint64_t>(base + start + length, base + 65536));
        }
        if (rng() % 2) bitmap.AddRange(base, base + 10);
        // Runs one value apart, so moving a start or a length by one makes them touch.
        const uint32_t start = static_cast<uint32_t>(rng() % 60000);
        bitmap.AddRange(base + start, base + start + 100);
        bitmap.AddRange(base + start + 101, base + start + 200);
        break;
      }
      default:  // exactly 4096 or 4097 values: the array / bitmap edge
        for (uint32_t v = 0, n = 4096 + static_cast<uint32_t>(rng() % 2); v < n; ++v) {
          bitmap.Add(base + 2 * v);
        }
    }
    key += 1 + static_cast<uint32_t>(rng() % 3);
  }
  return bitmap;
}

// Damage aimed at the rules: a byte anywhere, or a 16-bit value (array value, run start or
// length, key, cardinality) moved a little.
void Damage(std::vector<uint8_t>* bytes, std::mt19937_64& rng) {
  const size_t at = rng() % bytes->size();
  if (rng() % 2 == 0) {
    (*bytes)[at] = static_cast<uint8_t>(rng());
    return;
  }
  const size_t even = at & ~size_t{1};
  if (even + 2 > bytes->size()) return;
  const uint16_t v = io::LoadU16LE(bytes->data() + even);
  const int delta = static_cast<int>(rng() % 5) - 2;
  io::StoreU16LE(bytes->data() + even, static_cast<uint16_t>(v + delta));
}

bool CRoaringAccepts(const std::vector<uint8_t>& bytes, size_t extent) {
  roaring_bitmap_t* bitmap = roaring_bitmap_portable_deserialize_safe(
      reinterpret_cast<const char*>(bytes.data()), extent);
  if (bitmap == nullptr) return false;
  const bool valid = roaring_bitmap_internal_validate(bitmap, nullptr);
  roaring_bitmap_free(bitmap);
  return valid;
}

TEST(PortableCheck, AgreesWithCRoaringOnValidAndDamagedBitmaps) {
  std::mt19937_64 rng(20261125);
  int accepted_damaged = 0;
  int rejected_damaged = 0;
  for (int round = 0; round < 1500; ++round) {
    Bitmap32 bitmap = RandomBitmap(rng);
    // Java's container choice, and sometimes the containers exactly as CRoaring holds them.
    const std::vector<uint8_t> valid = round % 3 == 0 ? bitmap.SerializeAsIs() : bitmap.Serialize();
    ASSERT_TRUE(CheckPortableContent(valid.data(), valid.size()).ok()) << "round " << round;
    for (int d = 0; d < 8; ++d) {
      std::vector<uint8_t> bytes = valid;
      for (int k = 0, n = 1 + static_cast<int>(rng() % 2); k < n; ++k) Damage(&bytes, rng);
      const size_t extent = roaring_bitmap_portable_deserialize_size(
          reinterpret_cast<const char*>(bytes.data()), bytes.size());
      if (extent == 0) continue;  // structure unreadable: Deserialize stops before the check
      const Status ours = CheckPortableContent(bytes.data(), extent);
      ASSERT_EQ(ours.ok(), CRoaringAccepts(bytes, extent))
          << "round " << round << ": " << ours.ToString();
      (ours.ok() ? accepted_damaged : rejected_damaged)++;
    }
  }
  // Both answers occur (damage in a bitmap body's spare bits, or a value moved within its
  // gap, leaves a valid bitmap).
  EXPECT_GT(accepted_damaged, 100);
  EXPECT_GT(rejected_damaged, 1000);
}

TEST(PortableCheck, NamesTheBrokenRule) {
  Bitmap32 bitmap = Bitmap32::Of({1, 5, 9});
  std::vector<uint8_t> bytes = bitmap.Serialize();
  // cookie 12346, 1 container, key 0 / cardinality - 1 = 2, one offset, then 1 5 9.
  ASSERT_EQ(bytes.size(), 8u + 4 + 4 + 6);
  io::StoreU16LE(bytes.data() + 18, 1);  // 1 1 9
  const Status status = CheckPortableContent(bytes.data(), bytes.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kCorrupt);
  EXPECT_NE(status.message().find("container 0 has values not strictly ascending"),
            std::string::npos)
      << status.ToString();
  EXPECT_FALSE(Bitmap32::Deserialize(bytes.data(), bytes.size()).ok());
}

}  // namespace
}  // namespace pyfileindex::roaring
