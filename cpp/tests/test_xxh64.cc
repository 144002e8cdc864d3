#include "hash/xxh64.h"

#include "hash/xxh64_kernels.h"

#include <gtest/gtest.h>

#include <random>
#include <string_view>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pyfileindex::hash {
namespace {

// Deterministic test input: byte i is (31*i + 7) mod 256.
std::vector<uint8_t> PatternBytes(size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(i * 31 + 7);
  return out;
}

TEST(Xxh64Test, KnownStringsWithSeedZero) {
  // The check values of the bloom-filter spec plus the strings of golden data set B.
  EXPECT_EQ(Xxh64(std::string_view("")), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(Xxh64(std::string_view("a")), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(Xxh64(std::string_view("Alice")), 0xD4A957E0CF31160BULL);
  EXPECT_EQ(Xxh64(std::string_view("Bob")), 0x9CFF2296681AE613ULL);
  EXPECT_EQ(Xxh64(std::string_view("Emily")), 0x7F5CA58804E8B91EULL);
  EXPECT_EQ(Xxh64(std::string_view("Tony")), 0x8C68515DDB99817FULL);
  EXPECT_EQ(Xxh64(std::string_view("Lucy")), 0x617465EA27CAFF81ULL);
  EXPECT_EQ(Xxh64(std::string_view("Zed")), 0xE6F6168AEAF7B6FFULL);
  // "h\u00e9llo w\u00f6rld \u2713" as UTF-8 bytes.
  EXPECT_EQ(Xxh64(std::string_view("h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93")),
            0x34D9919C86F55AC4ULL);
}

TEST(Xxh64Test, EveryTailShapeAndSeed) {
  // Lengths around the 4/8/32-byte boundaries exercise every code path of the tail and stripes.
  struct Case {
    size_t size;
    uint64_t seed;
    uint64_t expected;
  };
  const Case cases[] = {
    {0, 0x0ULL, 0xef46db3751d8e999ULL},
    {1, 0x0ULL, 0xa96c7f0ce858bbb7ULL},
    {3, 0x0ULL, 0x56e6957632a487f9ULL},
    {4, 0x0ULL, 0xc60d15b1e3ff8f04ULL},
    {5, 0x0ULL, 0x808815858624dd4eULL},
    {7, 0x0ULL, 0xafbefc3d6c6f9a8eULL},
    {8, 0x0ULL, 0x3da5c7aa269683e0ULL},
    {9, 0x0ULL, 0x4b17a9ba9e215c09ULL},
    {12, 0x0ULL, 0x8fe8ab1c1fd0666eULL},
    {15, 0x0ULL, 0xae2a37eb9357caa7ULL},
    {16, 0x0ULL, 0xa19ad429b02bc413ULL},
    {17, 0x0ULL, 0xfe9f0feb7eeedc09ULL},
    {31, 0x0ULL, 0x4a74f3a1a39ad4a1ULL},
    {32, 0x0ULL, 0x8d57d6a4671cc43dULL},
    {33, 0x0ULL, 0x62c9fd21ed857664ULL},
    {40, 0x0ULL, 0x49b45332e280f187ULL},
    {63, 0x0ULL, 0x5c320a0d2707057fULL},
    {64, 0x0ULL, 0x7bbabbc45729d17eULL},
    {65, 0x0ULL, 0xf3980c34bae65dc1ULL},
    {100, 0x0ULL, 0xefa0ad2d3e70c151ULL},
    {1000, 0x0ULL, 0x99594f4828043d35ULL},
    {0, 0x1ULL, 0xd5afba1336a3be4bULL},
    {1, 0x1ULL, 0x0766883a0a47a96aULL},
    {3, 0x1ULL, 0x598afe4fbb09d9f6ULL},
    {4, 0x1ULL, 0x5e9f99aa13de2d02ULL},
    {5, 0x1ULL, 0xb15c817d13965acfULL},
    {7, 0x1ULL, 0xbd99f1fa0de7b9a4ULL},
    {8, 0x1ULL, 0x1b4e043a4021aa18ULL},
    {9, 0x1ULL, 0x2a77c6e783fb18b1ULL},
    {12, 0x1ULL, 0xaaf19ec96e7722cdULL},
    {15, 0x1ULL, 0xc88bd84841af8ac9ULL},
    {16, 0x1ULL, 0x78b588afc3e5e956ULL},
    {17, 0x1ULL, 0x9c4d638a8d88a249ULL},
    {31, 0x1ULL, 0xd7ac4f4bea4e460aULL},
    {32, 0x1ULL, 0x8f666909cfd00cc8ULL},
    {33, 0x1ULL, 0xb1575979b72c805aULL},
    {40, 0x1ULL, 0x4ea2e43cf7f9bda8ULL},
    {63, 0x1ULL, 0x61b9cb220da77a86ULL},
    {64, 0x1ULL, 0xee10eee981202ce9ULL},
    {65, 0x1ULL, 0xb99a8864d5005b72ULL},
    {100, 0x1ULL, 0xcd8103aecd2ed5cfULL},
    {1000, 0x1ULL, 0x31db8080bc8eb541ULL},
    {0, 0x9e3779b97f4a7c15ULL, 0xc4349fc93c010000ULL},
    {1, 0x9e3779b97f4a7c15ULL, 0x585882422a6165e7ULL},
    {3, 0x9e3779b97f4a7c15ULL, 0x5acb303e78133c22ULL},
    {4, 0x9e3779b97f4a7c15ULL, 0x7d51d5e2461732b3ULL},
    {5, 0x9e3779b97f4a7c15ULL, 0x7f8b72856a42bb63ULL},
    {7, 0x9e3779b97f4a7c15ULL, 0x2ce9adec2b2c8104ULL},
    {8, 0x9e3779b97f4a7c15ULL, 0x758848f033fa76a2ULL},
    {9, 0x9e3779b97f4a7c15ULL, 0xd4576cf554b7d929ULL},
    {12, 0x9e3779b97f4a7c15ULL, 0xeaa6d4d803d21fd7ULL},
    {15, 0x9e3779b97f4a7c15ULL, 0xa18d5c90d722cee3ULL},
    {16, 0x9e3779b97f4a7c15ULL, 0xe3594f9058b426e7ULL},
    {17, 0x9e3779b97f4a7c15ULL, 0xa0c8a40ef8f3a9f7ULL},
    {31, 0x9e3779b97f4a7c15ULL, 0x8137041f5af88413ULL},
    {32, 0x9e3779b97f4a7c15ULL, 0x184ebcf3745cd46cULL},
    {33, 0x9e3779b97f4a7c15ULL, 0x52fac3c981f3cc2eULL},
    {40, 0x9e3779b97f4a7c15ULL, 0x36758d31812c0e57ULL},
    {63, 0x9e3779b97f4a7c15ULL, 0x64ef99a2e94cc7bdULL},
    {64, 0x9e3779b97f4a7c15ULL, 0xf7f22435fe1ab128ULL},
    {65, 0x9e3779b97f4a7c15ULL, 0x7a0b76a812617c73ULL},
    {100, 0x9e3779b97f4a7c15ULL, 0xbc7ab33be7528c18ULL},
    {1000, 0x9e3779b97f4a7c15ULL, 0xda717f741f399f3fULL},
  };
  for (const Case& c : cases) {
    const std::vector<uint8_t> data = PatternBytes(c.size);
    EXPECT_EQ(Xxh64(data.data(), data.size(), c.seed), c.expected)
        << "size " << c.size << " seed " << c.seed;
  }
}

TEST(Xxh64Test, NullPointerWithZeroSizeIsTheEmptyHash) {
  EXPECT_EQ(Xxh64(nullptr, 0), 0xEF46DB3751D8E999ULL);
}

TEST(Xxh64Test, UnalignedInputGivesTheSameHash) {
  // The hash must not depend on where the bytes sit in memory.
  const std::vector<uint8_t> data = PatternBytes(100);
  std::vector<uint8_t> shifted(data.size() + 3);
  for (size_t offset = 0; offset < 3; ++offset) {
    std::copy(data.begin(), data.end(), shifted.begin() + offset);
    EXPECT_EQ(Xxh64(shifted.data() + offset, data.size()), 0xEFA0AD2D3E70C151ULL);
  }
}

TEST(Xxh64Test, ManyEqualsOneByOne) {
  // Mixed lengths (every tail length, stripes, empty values, a null pointer), one length for
  // all (the no-sorting path), and block sizes from 0 to the maximum.
  std::mt19937_64 rng(99);
  const std::vector<uint8_t> bytes = PatternBytes(4096);
  for (int round = 0; round < 60; ++round) {
    const size_t count = round == 0 ? 0 : 1 + rng() % kXxh64ManyMax;
    const bool same_length = round % 4 == 1;
    const size_t fixed = rng() % 70;
    std::vector<std::string_view> values(count);
    for (size_t i = 0; i < count; ++i) {
      const size_t size = same_length ? fixed : rng() % 70;
      const size_t at = rng() % (bytes.size() - size);
      values[i] = size == 0 && rng() % 2 == 0
                      ? std::string_view()
                      : std::string_view(reinterpret_cast<const char*>(bytes.data()) + at, size);
    }
    std::vector<uint64_t> hashes(count + 1, 0x5A5A5A5A5A5A5A5AULL);
    Xxh64Many(values.data(), count, hashes.data());
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(hashes[i], Xxh64(values[i])) << "round " << round << " value " << i;
    }
    EXPECT_EQ(hashes[count], 0x5A5A5A5A5A5A5A5AULL) << "wrote past the block";
  }
}

TEST(Xxh64Test, ManyShortValuesWithSomeLongOnes) {
  // Mostly values below 32 bytes (with AVX-512: hashed eight lanes at a time, every length
  // mixed in one register) with a few of 32 bytes or more among them, at any address.
  std::mt19937_64 rng(7);
  const std::vector<uint8_t> bytes = PatternBytes(8192);
  for (int round = 0; round < 80; ++round) {
    const size_t count = 1 + rng() % kXxh64ManyMax;
    const size_t short_max = 1 + rng() % 31;
    std::vector<std::string_view> values(count);
    for (size_t i = 0; i < count; ++i) {
      const size_t size = rng() % 10 == 0 ? 32 + rng() % 90 : rng() % (short_max + 1);
      const size_t at = rng() % (bytes.size() - size);
      values[i] = std::string_view(reinterpret_cast<const char*>(bytes.data()) + at, size);
    }
    std::vector<uint64_t> hashes(count + 1, 0x5A5A5A5A5A5A5A5AULL);
    Xxh64Many(values.data(), count, hashes.data());
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(hashes[i], Xxh64(values[i])) << "round " << round << " value " << i << " of "
                                             << values[i].size() << " bytes";
    }
    EXPECT_EQ(hashes[count], 0x5A5A5A5A5A5A5A5AULL) << "wrote past the block";
  }
}

// Each kernel of Xxh64Many, called directly: Xxh64Many itself only runs the one this CPU
// supports best. Only the kernels this CPU can run are instantiated (a machine without
// AVX-512 runs the others; the test names say which ran).
struct Kernel {
  const char* name;
  void (*many)(const std::string_view*, size_t, uint64_t*);
  // The same kernel reading values in Arrow's string layout.
  void (*many_offsets32)(const char*, const int32_t*, size_t, uint64_t*);
  void (*many_offsets64)(const char*, const int64_t*, size_t, uint64_t*);
  bool (*runs_here)();
};

void PrintTo(const Kernel& kernel, std::ostream* os) { *os << kernel.name; }

bool Always() { return true; }

const Kernel kKernels[] = {
    {"Xxh64Many", &Xxh64Many, &Xxh64Many, &Xxh64Many, &Always},
    {"Sorted", &detail::Xxh64ManySorted, &detail::Xxh64ManySorted, &detail::Xxh64ManySorted,
     &Always},
    {"Avx2", &detail::Xxh64ManyAvx2, &detail::Xxh64ManyAvx2, &detail::Xxh64ManyAvx2,
     &detail::HasAvx2Kernel},
    {"Avx512", &detail::Xxh64ManyAvx512, &detail::Xxh64ManyAvx512, &detail::Xxh64ManyAvx512,
     &detail::HasAvx512Kernel},
};

std::vector<Kernel> KernelsOnThisCpu() {
  std::vector<Kernel> out;
  for (const Kernel& kernel : kKernels) {
    if (kernel.runs_here()) out.push_back(kernel);
  }
  return out;
}

class Xxh64KernelTest : public ::testing::TestWithParam<Kernel> {
 protected:
  // Hashes `values` with the kernel and compares each hash with Xxh64's; checks that nothing is
  // written past the block.
  void ExpectEqualsOneByOne(const std::vector<std::string_view>& values, const char* what) {
    std::vector<uint64_t> hashes(values.size() + 1, 0x5A5A5A5A5A5A5A5AULL);
    GetParam().many(values.data(), values.size(), hashes.data());
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(hashes[i], Xxh64(values[i]))
          << what << ": value " << i << " of " << values.size() << ", " << values[i].size()
          << " bytes";
    }
    EXPECT_EQ(hashes[values.size()], 0x5A5A5A5A5A5A5A5AULL) << what << ": wrote past the block";
    std::vector<char> buffer(1 + TotalSize(values));
    ExpectOffsetsEqualOneByOne(values, buffer.data() + 1, what);  // odd addresses
  }

  static size_t TotalSize(const std::vector<std::string_view>& values) {
    size_t total = 0;
    for (std::string_view v : values) total += v.size();
    return total;
  }

  // The values copied back to back to `buffer` (TotalSize bytes of room) as an Arrow string
  // column, then hashed by the kernel's int32 and int64 offsets forms.
  void ExpectOffsetsEqualOneByOne(const std::vector<std::string_view>& values, char* buffer,
                                  const char* what) {
    std::vector<int32_t> offsets32 = {0};
    std::vector<int64_t> offsets64 = {0};
    for (std::string_view v : values) {
      if (!v.empty()) std::memcpy(buffer + offsets64.back(), v.data(), v.size());
      offsets64.push_back(offsets64.back() + static_cast<int64_t>(v.size()));
      offsets32.push_back(static_cast<int32_t>(offsets64.back()));
    }
    std::vector<uint64_t> hashes32(values.size() + 1, 0x5A5A5A5A5A5A5A5AULL);
    std::vector<uint64_t> hashes64(values.size() + 1, 0x5A5A5A5A5A5A5A5AULL);
    GetParam().many_offsets32(buffer, offsets32.data(), values.size(), hashes32.data());
    GetParam().many_offsets64(buffer, offsets64.data(), values.size(), hashes64.data());
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(hashes32[i], Xxh64(values[i])) << what << ", int32 offsets: value " << i;
      ASSERT_EQ(hashes64[i], Xxh64(values[i])) << what << ", int64 offsets: value " << i;
    }
    EXPECT_EQ(hashes32[values.size()], 0x5A5A5A5A5A5A5A5AULL) << what << ": wrote past";
    EXPECT_EQ(hashes64[values.size()], 0x5A5A5A5A5A5A5A5AULL) << what << ": wrote past";
  }
};

TEST_P(Xxh64KernelTest, EveryLengthInEveryLaneAtAnyAlignment) {
  // One length for the whole block (every lane of every chain takes the same steps), then the
  // same with every fourth value of another length (lanes of one register take different steps),
  // for counts that fill no whole group of lanes as well as ones that do, and ones that leave a
  // partial group after whole ones (with AVX-512 a group is 32 lanes).
  const std::vector<uint8_t> bytes = PatternBytes(2048);
  const char* const base = reinterpret_cast<const char*>(bytes.data());
  for (size_t size = 0; size <= 40; ++size) {
    for (size_t count = 1; count <= 70; ++count) {
      std::vector<std::string_view> same(count);
      std::vector<std::string_view> mixed(count);
      for (size_t i = 0; i < count; ++i) {
        const size_t at = (7 * i + size) % 61;  // mostly unaligned
        same[i] = std::string_view(base + at, size);
        mixed[i] = std::string_view(base + 100 + at, i % 4 == 3 ? (size * 7 + i) % 32 : size);
      }
      ExpectEqualsOneByOne(same, "one length");
      ExpectEqualsOneByOne(mixed, "mixed lengths");
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(Xxh64KernelTest, RandomBlocks) {
  // Any length mix: all short, short with a few long ones (hashed one by one beside the
  // lanes), mostly long (the scalar fallback), empty values with a null pointer.
  std::mt19937_64 rng(11);
  const std::vector<uint8_t> bytes = PatternBytes(8192);
  for (int round = 0; round < 120; ++round) {
    const size_t count = round < 40 ? static_cast<size_t>(round) : 1 + rng() % kXxh64ManyMax;
    const size_t short_max = rng() % 32;
    const int long_percent = std::vector<int>{0, 5, 20, 30, 90}[rng() % 5];
    std::vector<std::string_view> values(count);
    for (size_t i = 0; i < count; ++i) {
      const size_t size = static_cast<int>(rng() % 100) < long_percent ? 32 + rng() % 90
                                                                       : rng() % (short_max + 1);
      const size_t at = rng() % (bytes.size() - size);
      values[i] = size == 0 && rng() % 2 == 0
                      ? std::string_view()
                      : std::string_view(reinterpret_cast<const char*>(bytes.data()) + at, size);
    }
    ExpectEqualsOneByOne(values, ("round " + std::to_string(round)).c_str());
    if (HasFatalFailure()) return;
  }
}

#if defined(__linux__)
// Pages [0, readable) readable and filled with the pattern, page `readable` PROT_NONE.
class GuardedPages {
 public:
  explicit GuardedPages(size_t readable) : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))),
                                           size_((readable + 1) * page_) {
    void* mapped = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return;
    start_ = static_cast<uint8_t*>(mapped);
    const std::vector<uint8_t> pattern = PatternBytes(readable * page_);
    std::copy(pattern.begin(), pattern.end(), start_);
    if (mprotect(start_ + readable * page_, page_, PROT_NONE) != 0) {
      munmap(start_, size_);
      start_ = nullptr;
    }
  }
  ~GuardedPages() {
    if (start_ != nullptr) munmap(start_, size_);
  }
  bool ok() const { return start_ != nullptr; }
  size_t page() const { return page_; }
  // The address where page `i` starts.
  const char* at_page(size_t i) const { return reinterpret_cast<const char*>(start_ + i * page_); }

 private:
  size_t page_;
  size_t size_;
  uint8_t* start_ = nullptr;
};

TEST_P(Xxh64KernelTest, ManyReadsNoByteAfterAValue) {
  // Every value ends exactly at a page that cannot be read: a kernel that loads past a
  // value's last byte (e.g. a whole word for a 1-3 byte remainder) faults.
  GuardedPages pages(1);
  ASSERT_TRUE(pages.ok());
  const char* const guard = pages.at_page(1);
  std::mt19937_64 rng(5);
  for (size_t size = 0; size < 70; ++size) {
    // Many values of this length (so the vector kernels run), each ending at the guard page,
    // and mixed with others ending there.
    std::vector<std::string_view> values(40);
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t n = i % 5 == 4 ? rng() % 70 : size;
      values[i] = std::string_view(guard - n, n);
    }
    ExpectEqualsOneByOne(values, "ending at the guard page");
    if (HasFatalFailure()) return;
  }
}

TEST_P(Xxh64KernelTest, OffsetsReadNoByteAfterTheLastValue) {
  // An Arrow string column whose data ends exactly at a page that cannot be read.
  GuardedPages pages(2);
  ASSERT_TRUE(pages.ok());
  char* const guard = const_cast<char*>(pages.at_page(2));
  const std::vector<uint8_t> bytes = PatternBytes(4096);
  std::mt19937_64 rng(9);
  for (size_t last = 0; last < 40; ++last) {
    std::vector<std::string_view> values(30);
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t n = i + 1 == values.size() ? last : rng() % 40;
      values[i] = std::string_view(reinterpret_cast<const char*>(bytes.data()) + i, n);
    }
    ExpectOffsetsEqualOneByOne(values, guard - TotalSize(values), "data ending at the guard");
    if (HasFatalFailure()) return;
  }
}

TEST_P(Xxh64KernelTest, ValuesNearAPageEnd) {
  // Values ending 0-40 bytes before an unreadable page, and values across the boundary of two
  // readable pages: a kernel that reads whole 32-byte blocks must read around the page end
  // only where the next page is the value's own (AVX2 reads a block where it stays on the page
  // of the value's last byte, and copies the value out otherwise).
  GuardedPages pages(2);
  ASSERT_TRUE(pages.ok());
  const char* const guard = pages.at_page(2);
  const char* const boundary = pages.at_page(1);
  for (size_t size = 0; size < 32; ++size) {
    std::vector<std::string_view> before_guard;
    std::vector<std::string_view> across;
    for (size_t gap = 0; gap <= 40; ++gap) {
      before_guard.emplace_back(guard - gap - size, size);
      across.emplace_back(boundary - gap % (size + 1), size);  // 0 to size bytes before it
    }
    ExpectEqualsOneByOne(before_guard, "before the guard page");
    ExpectEqualsOneByOne(across, "across two pages");
    if (HasFatalFailure()) return;
  }
}
#endif

INSTANTIATE_TEST_SUITE_P(Xxh64, Xxh64KernelTest, ::testing::ValuesIn(KernelsOnThisCpu()),
                         [](const ::testing::TestParamInfo<Kernel>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace pyfileindex::hash
