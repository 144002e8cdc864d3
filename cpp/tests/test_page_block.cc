// PageBlock (rooms carved from one system block), AdviseHugePages, ZeroedArray and
// GrowingVector.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "memory/growing_vector.h"
#include "memory/huge_pages.h"
#include "memory/page_block.h"
#include "memory/zeroed_array.h"

namespace pyfileindex::memory {
namespace {

#if defined(__linux__)
// The kernel's flags of the mapping holding `address` (/proc/self/smaps "VmFlags", e.g.
// "rd wr mr mw me ac hg"), space-padded so " hg " finds a whole flag; empty if not found.
std::string VmFlagsAt(const void* address) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.substr(8) + " ";
    }
  }
  return "";
}

// The machine's transparent huge page mode, e.g. "madvise"; empty without THP.
std::string ThpMode() {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  std::getline(setting, text);
  const size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos) return "";
  return text.substr(open + 1, close - open - 1);
}

// Whether this process's environment lets blocks use huge pages.
bool AllowedHere() { return HugePagesAllowedBy(std::getenv("PYFILEINDEX_HUGE_PAGES")); }

// Whether madvise(MADV_HUGEPAGE) reaches the kernel here, asked of a mapping of our own. An
// emulator may answer it without passing it on (qemu-user treats madvise as a hint it can
// drop), and then no mapping ever shows the flag, whatever the library advised.
bool HugePageAdviceReachesTheKernel() {
#if defined(MADV_HUGEPAGE)
  const size_t huge = size_t{2} << 20;
  const size_t size = 2 * huge;
  void* mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return false;
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(mapping) + huge - 1) & ~(huge - 1);
  void* probe = reinterpret_cast<void*>(aligned);
  const bool advised = madvise(probe, huge, MADV_HUGEPAGE) == 0 &&
                       VmFlagsAt(probe).find(" hg ") != std::string::npos;
  munmap(mapping, size);
  return advised;
#else
  return false;
#endif
}

TEST(AdviseHugePages, ScopedAdviceIsWithdrawnAfterwards) {
  // A block someone else mapped: advised for the scope only where THP works on advice.
  const size_t size = size_t{12} << 20;
  void* mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  uint8_t* middle = static_cast<uint8_t*>(mapping) + size / 2;  // inside the aligned part
  const bool on_advice = ThpMode() == "madvise" && AllowedHere();
  if (on_advice && !HugePageAdviceReachesTheKernel()) {
    munmap(mapping, size);
    GTEST_SKIP() << "madvise(MADV_HUGEPAGE) does not reach the kernel here (an emulator?)";
  }
  {
    const ScopedHugePages advice(mapping, size);
    const std::string flags = VmFlagsAt(middle);
    ASSERT_FALSE(flags.empty());
    EXPECT_EQ(flags.find(" hg ") != std::string::npos, on_advice) << flags;
    std::memset(mapping, 7, size);
  }
  const std::string after = VmFlagsAt(middle);
  EXPECT_EQ(after.find(" hg "), std::string::npos) << after;
  EXPECT_EQ(static_cast<uint8_t*>(mapping)[size - 1], 7);
  munmap(mapping, size);
}

TEST(PageBlock, LargeBlocksAreAdvisedWhereTheKernelHasHugePages) {
  PageBlock block = PageBlock::Allocate(size_t{6} << 20);
  uint8_t* room = block.Take(size_t{5} << 20);
  ASSERT_NE(room, nullptr);
  const std::string mode = ThpMode();
  const bool available = !mode.empty() && mode != "never" && AllowedHere();
  if (available && !HugePageAdviceReachesTheKernel()) {
    GTEST_SKIP() << "madvise(MADV_HUGEPAGE) does not reach the kernel here (an emulator?)";
  }
  const std::string flags = VmFlagsAt(room + (size_t{3} << 20));
  EXPECT_EQ(flags.find(" hg ") != std::string::npos, available) << flags;
}
#endif

TEST(AdviseHugePages, TheEnvironmentSettingTurnsItOff) {
  EXPECT_TRUE(HugePagesAllowedBy(nullptr));
  EXPECT_TRUE(HugePagesAllowedBy("on"));
  EXPECT_TRUE(HugePagesAllowedBy(""));
  for (const char* off : {"off", "0", "never", "false"}) EXPECT_FALSE(HugePagesAllowedBy(off));
}

TEST(PageBlock, RoomsAreAlignedDisjointZeroedAndBounded) {
  const std::vector<size_t> rooms = {1, 64, 100, 0, 4096, 333};
  size_t total = 0;
  for (size_t bytes : rooms) total += PageBlock::RoomSize(bytes);
  PageBlock block = PageBlock::Allocate(total);
  ASSERT_FALSE(block.empty());
  std::vector<uint8_t*> taken;
  for (size_t r = 0; r < rooms.size(); ++r) {
    uint8_t* room = block.Take(rooms[r]);
    ASSERT_NE(room, nullptr) << r;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(room) % 64, 0u) << r;
    for (size_t k = 0; k < rooms[r]; ++k) ASSERT_EQ(room[k], 0) << r;
    std::memset(room, static_cast<int>(r + 1), rooms[r]);
    taken.push_back(room);
  }
  // Each room still holds what was written to it: none overlaps another.
  for (size_t r = 0; r < rooms.size(); ++r) {
    for (size_t k = 0; k < rooms[r]; ++k) ASSERT_EQ(taken[r][k], r + 1) << r;
  }
  EXPECT_EQ(block.Take(1), nullptr);  // every byte handed out
}

TEST(PageBlock, LargeBlocksMovedAndFreedKeepTheirRooms) {
  // Above the huge-page size limit: the block is aligned and advised, rooms behave the same.
  const size_t bytes = size_t{9} << 20;
  PageBlock block = PageBlock::Allocate(PageBlock::RoomSize(bytes) + PageBlock::RoomSize(10));
  ASSERT_FALSE(block.empty());
  uint8_t* big = block.Take(bytes);
  ASSERT_NE(big, nullptr);
  for (size_t k = 0; k < bytes; k += 4096) big[k] = static_cast<uint8_t>(k >> 12);
  PageBlock moved = std::move(block);
  EXPECT_TRUE(block.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(block.Take(1), nullptr);
  uint8_t* small = moved.Take(10);
  ASSERT_NE(small, nullptr);
  EXPECT_GE(small, big + bytes);
  for (size_t k = 0; k < bytes; k += 4096) ASSERT_EQ(big[k], static_cast<uint8_t>(k >> 12));
  EXPECT_EQ(moved.Take(1), nullptr);
}

TEST(PageBlock, NothingAskedNothingGiven) {
  PageBlock block = PageBlock::Allocate(0);
  EXPECT_TRUE(block.empty());
  EXPECT_EQ(block.Take(0), nullptr);
}

#if defined(__SANITIZE_ADDRESS__)
TEST(PageBlockDeathTest, AWritePastARoomIsCaughtUnderAddressSanitizer) {
  PageBlock block = PageBlock::Allocate(2 * PageBlock::RoomSize(100));
  uint8_t* room = block.Take(100);
  ASSERT_NE(block.Take(100), nullptr);
  // 100 bytes round up to 128; the red zone follows.
  EXPECT_DEATH(
      {
        volatile uint8_t* p = room;
        p[128] = 1;
      },
      "use-after-poison");
}
#endif

TEST(AdviseHugePages, LeavesTheContentsAlone) {
  // Small, unaligned and large blocks: the advice never changes a byte.
  for (size_t size : {size_t{100}, size_t{5} << 20, size_t{9} << 20}) {
    std::vector<uint8_t> data(size);
    for (size_t k = 0; k < size; ++k) data[k] = static_cast<uint8_t>(k * 7);
    AdviseHugePages(data.data() + 1, size - 1);
    AdviseHugePages(nullptr, size);
    for (size_t k = 0; k < size; ++k) ASSERT_EQ(data[k], static_cast<uint8_t>(k * 7)) << k;
  }
}

// A ZeroedArray reads as zeros even when the heap has just freed dirty blocks of its size, and
// (Linux) only the pages written become resident: a direct key table or the bsi builder's
// room for 64 slices costs what is used of it.
TEST(ZeroedArrayTest, ZerosWithOnlyWrittenPagesResident) {
  constexpr size_t kWords = 64 * 1024;  // 512 KiB
  for (int round = 0; round < 4; ++round) {
    std::vector<uint64_t> dirty(kWords, ~uint64_t{0});  // freed below, reusable heap
    dirty.clear();
    dirty.shrink_to_fit();
    ZeroedArray<uint64_t> words(kWords);
    ASSERT_TRUE(words);
#if defined(__linux__)
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    words[3 * page / sizeof(uint64_t)] = 7;
    std::vector<unsigned char> resident(kWords * sizeof(uint64_t) / page);
    ASSERT_EQ(mincore(words.get(), kWords * sizeof(uint64_t), resident.data()), 0);
    size_t pages = 0;
    for (unsigned char r : resident) pages += r & 1;
    EXPECT_EQ(resident[3] & 1, 1) << "round " << round;
    EXPECT_LE(pages, 2u) << "round " << round << ": untouched pages are resident";
    words[3 * page / sizeof(uint64_t)] = 0;
#endif
    for (size_t i = 0; i < kWords; ++i) ASSERT_EQ(words[i], 0u) << "word " << i;
    ZeroedArray<uint64_t> moved = std::move(words);
    EXPECT_FALSE(words);
    EXPECT_TRUE(moved);
  }
}

// A GrowingVector keeps its elements through every growth, and (Linux) a buffer of a page to
// kMapMaxBytes that it outgrows or releases is no longer mapped: its pages stop counting at
// once (larger ones go back to the heap, their whole pages handed back).
TEST(GrowingVectorTest, OutgrownAndReleasedBuffersAreUnmapped) {
#if defined(__linux__)
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // Whether nothing is mapped at `data` (mincore fails with ENOMEM there). Asked right after
  // the buffer is freed, before anything else is allocated: a later mapping (a larger
  // buffer, a sanitizer's allocator) may take the same addresses.
  auto unmapped = [page](const void* data) {
    unsigned char resident = 0;
    errno = 0;
    return mincore(const_cast<void*>(data), page, &resident) == -1 && errno == ENOMEM;
  };
#else
  auto unmapped = [](const void*) { return true; };
#endif
  struct Outgrown {
    size_t bytes;
    bool page_aligned;
    bool unmapped;
  };
  std::vector<Outgrown> outgrown;
  outgrown.reserve(64);  // no allocation between a growth and its check
  GrowingVector<uint64_t> values;
  for (uint64_t i = 0; i < 100000; ++i) {
    const void* before = values.data();
    const size_t before_bytes = values.capacity() * sizeof(uint64_t);
    values.push_back(i * 3);
    if (values.data() != before && before != nullptr) {
      outgrown.push_back({before_bytes, reinterpret_cast<uintptr_t>(before) % 4096 == 0,
                          unmapped(before)});
    }
  }
  for (uint64_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], i * 3) << i;
  const void* last = values.data();
  const size_t last_bytes = values.capacity() * sizeof(uint64_t);
  ReleaseVector(&values);
  outgrown.push_back({last_bytes, reinterpret_cast<uintptr_t>(last) % 4096 == 0,
                      unmapped(last)});
  EXPECT_TRUE(values.empty());
  EXPECT_EQ(values.capacity(), 0u);
  size_t checked = 0;
  for (const Outgrown& buffer : outgrown) {
    if (!GrowingVectorAllocator<uint64_t>::Maps(buffer.bytes)) continue;
    EXPECT_TRUE(buffer.page_aligned) << buffer.bytes;  // mapped, not from the heap
    EXPECT_TRUE(buffer.unmapped) << buffer.bytes;
    ++checked;
  }
  // 4, 8, 16 and 32 KiB on 4 KiB pages; only the sizes of a page and more on larger pages.
  size_t expected = 0;
  for (size_t bytes = size_t{4} << 10; bytes < GrowingVectorAllocator<uint64_t>::kMapMaxBytes;
       bytes *= 2) {
    if (bytes >= PageSize()) ++expected;
  }
  EXPECT_EQ(checked, expected);
}

#if defined(__SANITIZE_ADDRESS__)
// Past the end of a ZeroedArray: into the slack of its last page (poisoned), or past that
// page (an inaccessible guard page), never silently into memory mapped next to it.
TEST(ZeroedArrayDeathTest, AWritePastTheEndIsCaughtUnderAddressSanitizer) {
  ZeroedArray<uint32_t> small(100);
  EXPECT_DEATH(
      {
        volatile uint32_t* p = small.get();
        p[100] = 1;
      },
      "use-after-poison");
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  ZeroedArray<uint32_t> whole_page(page / sizeof(uint32_t));
  EXPECT_DEATH(
      {
        volatile uint32_t* p = whole_page.get();
        p[page / sizeof(uint32_t)] = 1;
      },
      "SEGV");
}
#endif

}  // namespace
}  // namespace pyfileindex::memory
