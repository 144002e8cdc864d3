// RoaringView::Parse on run containers: every run must end inside its container (the slice
// readers expand runs into 65536-bit blocks), wherever the bad run sits in a long list; checked
// at parse, or container by container on use.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "io/endian.h"
#include "roaring/block_ops.h"
#include "roaring/bitmap32.h"
#include "roaring/roaring_view.h"

namespace pyfileindex::roaring {
namespace {

// Two run containers: 200 runs of 100 values, then 37 runs (odd counts leave a tail after
// any vector width).
std::vector<uint8_t> ManyRuns() {
  Bitmap32 bitmap;
  for (uint64_t k = 0; k < 200; ++k) bitmap.AddRange(k * 300, k * 300 + 100);
  for (uint64_t k = 0; k < 37; ++k) bitmap.AddRange(65536 + k * 1000, 65536 + k * 1000 + 10);
  return bitmap.Serialize();
}

TEST(RoaringView, ParsesRunContainers) {
  const std::vector<uint8_t> bytes = ManyRuns();
  Result<RoaringView> view = RoaringView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ASSERT_EQ(view->container_count(), 2u);
  EXPECT_EQ(view->kind(0), RoaringView::Kind::kRun);
  EXPECT_EQ(view->count(0), 200u);
  EXPECT_EQ(view->count(1), 37u);
  uint32_t max = 0;
  ASSERT_TRUE(view->Maximum(&max));
  EXPECT_EQ(max, 65536u + 36 * 1000 + 9);
}

TEST(RoaringView, RefusesARunPastItsContainerWhereverItIs) {
  const std::vector<uint8_t> good = ManyRuns();
  Result<RoaringView> view = RoaringView::Parse(good.data(), good.size());
  ASSERT_TRUE(view.ok());
  for (size_t container = 0; container < 2; ++container) {
    const size_t body = static_cast<size_t>(view->data(container) - good.data());
    for (uint32_t run = 0; run < view->count(container); ++run) {
      const size_t at = body + 4 * run;
      const uint32_t start = io::LoadU16LE(good.data() + at);
      // Ending exactly at 0xffff is fine; one further is not.
      std::vector<uint8_t> edge = good;
      io::StoreU16LE(edge.data() + at + 2, static_cast<uint16_t>(0xffff - start));
      EXPECT_TRUE(RoaringView::Parse(edge.data(), edge.size()).ok()) << container << " " << run;
      if (start == 0) continue;  // a length field cannot reach past 0xffff from 0
      std::vector<uint8_t> past = good;
      io::StoreU16LE(past.data() + at + 2, static_cast<uint16_t>(0x10000 - start));
      Result<RoaringView> bad = RoaringView::Parse(past.data(), past.size());
      ASSERT_FALSE(bad.ok()) << container << " " << run;
      EXPECT_NE(bad.status().message().find("run past the container end"), std::string::npos)
          << bad.status().ToString();
    }
  }
}

TEST(RoaringView, ChecksRunsOnUseContainerByContainer) {
  const std::vector<uint8_t> good = ManyRuns();
  Result<RoaringView> clean = RoaringView::Parse(good.data(), good.size());
  ASSERT_TRUE(clean.ok());
  // The second container's last run (start 65536 + 36000) reaches past the block.
  std::vector<uint8_t> past = good;
  const size_t at = static_cast<size_t>(clean->data(1) - good.data()) + 4 * 36;
  ASSERT_EQ(io::LoadU16LE(past.data() + at), 36000);
  io::StoreU16LE(past.data() + at + 2, 0x10000 - 36000 + 99);
  ASSERT_FALSE(RoaringView::Parse(past.data(), past.size()).ok());

  Result<RoaringView> view =
      RoaringView::Parse(past.data(), past.size(), RoaringView::RunCheck::kOnUse);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  EXPECT_TRUE(view->RunsEndInside(0));
  EXPECT_FALSE(view->RunsEndInside(1));
  EXPECT_TRUE(clean->RunsEndInside(1));
  // Read anyway, the damaged run is cut at the block's end: nothing lands past the block.
  std::vector<uint64_t> scratch(kBlockWords + 1, 0x5a5a5a5a5a5a5a5aULL);
  const uint8_t* words = view->Words(1, scratch.data());
  EXPECT_EQ(io::LoadU64LE(words + 8 * (kBlockWords - 1)), ~uint64_t{0});
  EXPECT_EQ(scratch[kBlockWords], 0x5a5a5a5a5a5a5a5aULL);
  uint32_t max = 0;
  ASSERT_TRUE(view->Maximum(&max));
  EXPECT_EQ(max, 65536u + 0xffff);
}

}  // namespace
}  // namespace pyfileindex::roaring
