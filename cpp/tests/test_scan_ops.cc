// The word loops of the top-down range scan: every variant of every ISA computes the same
// sets, answer and live-word count as a word-by-word model of the step.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "index/slice_scan/scan_ops.h"

namespace pyfileindex::index::slice_scan {
namespace {

constexpr int kWords = 1024;

struct Sets {
  std::vector<uint64_t> a, b, in;
};

// The step as scan_ops.h defines it, one word at a time.
uint32_t ModelStep(const std::vector<uint64_t>& s, Sets& sets, const StepMasks& m, bool update_a,
                   bool update_b, bool gains) {
  uint32_t live = 0;
  for (int w = 0; w < kWords; ++w) {
    uint64_t gained = 0;
    uint64_t rest = 0;
    auto update = [&](uint64_t& x, uint64_t flip, uint64_t gain, uint64_t done) {
      const uint64_t keep = s[w] ^ flip;
      const uint64_t kept = x & keep;
      if (gains) {
        gained |= (x & ~keep & gain) | (kept & done);
        x = kept & ~done;
      } else {
        x = kept;
      }
      rest |= x;
    };
    if (update_a) update(sets.a[w], m.a_flip, m.a_gain, m.a_done);
    if (update_b) update(sets.b[w], m.b_flip, m.b_gain, m.b_done);
    if (gains) sets.in[w] |= gained;
    live += rest != 0;
  }
  return live;
}

// Random words, a share of them zero (so that counting live words is tested), one in
// `zero_one_in`.
std::vector<uint64_t> RandomWords(std::mt19937_64& rng, int zero_one_in) {
  std::vector<uint64_t> words(kWords);
  for (uint64_t& w : words) w = rng() % zero_one_in == 0 ? 0 : rng() & rng();
  return words;
}

void CheckDenseSteps(const ScanOps& ops, const char* name) {
  std::mt19937_64 rng(17);
  for (int kind = 1; kind < 8; ++kind) {
    if (kind == 4) continue;  // updates neither set: no such step
    const bool update_a = (kind & 1) != 0, update_b = (kind & 2) != 0, gains = (kind & 4) != 0;
    for (int trial = 0; trial < 64; ++trial) {
      const uint64_t all = ~uint64_t{0};
      const StepMasks m{rng() & 1 ? all : 0, rng() & 1 ? all : 0, rng() % 4 == 0 ? all : 0,
                        rng() & 1 ? all : 0, rng() & 1 ? all : 0, rng() % 4 == 0 ? all : 0};
      const int zeros = 2 + trial % 5;
      const std::vector<uint64_t> s = RandomWords(rng, zeros);
      // The slice is read at any alignment: offset it by a few bytes.
      std::vector<uint8_t> slice_bytes(8 * kWords + 8);
      const size_t shift = static_cast<size_t>(trial % 8);
      std::memcpy(slice_bytes.data() + shift, s.data(), 8 * kWords);
      Sets expected{RandomWords(rng, zeros), RandomWords(rng, zeros), RandomWords(rng, zeros)};
      Sets got = expected;
      const uint32_t expected_live = ModelStep(s, expected, m, update_a, update_b, gains);
      const std::vector<uint8_t> next(8 * kWords, 0);
      const uint32_t live = ops.step[StepKind(update_a, update_b, gains)](
          slice_bytes.data() + shift, got.a.data(), got.b.data(), got.in.data(), m, next.data());
      ASSERT_EQ(live, expected_live) << name << " kind " << kind << " trial " << trial;
      ASSERT_EQ(got.a, expected.a) << name << " kind " << kind << " trial " << trial;
      ASSERT_EQ(got.b, expected.b) << name << " kind " << kind << " trial " << trial;
      ASSERT_EQ(got.in, expected.in) << name << " kind " << kind << " trial " << trial;
    }
  }
}

TEST(ScanOpsTest, BaselineStepsMatchTheModel) {
  CheckDenseSteps(detail::BaselineScanOps(), "baseline");
}

TEST(ScanOpsTest, Avx2StepsMatchTheModel) {
  const ScanOps* avx2 = detail::Avx2ScanOps();
  if (avx2 == nullptr) GTEST_SKIP() << "no AVX2 on this CPU or in this build";
  CheckDenseSteps(*avx2, "avx2");
}

TEST(ScanOpsTest, TheChosenVariantIsOneOfThem) {
  const ScanOps& chosen = ScanOpsForCpu();
  const ScanOps* avx2 = detail::Avx2ScanOps();
  EXPECT_TRUE(&chosen == &detail::BaselineScanOps() || &chosen == avx2);
  if (avx2 != nullptr) {
    EXPECT_EQ(&chosen, avx2);
  }
}

}  // namespace
}  // namespace pyfileindex::index::slice_scan
