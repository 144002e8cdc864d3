#include "cpu/cpu_features.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>

#include "pyfileindex/build_info.h"

namespace pyfileindex::cpu {
namespace {

CpuFeatures Everything() {
  CpuFeatures f;
  f.popcnt = f.bmi2 = f.avx2 = true;
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = true;
  f.avx512vbmi = f.avx512vbmi2 = f.avx512vpopcntdq = true;
  return f;
}

TEST(CpuFeaturesTest, EachCapLowersTheLevelToItself) {
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512,
                          SimdLevel::kAvx512Icelake}) {
    EXPECT_EQ(CappedAt(Everything(), level).Level(), level) << SimdLevelName(level);
  }
}

TEST(CpuFeaturesTest, ACapNeverRaisesTheLevel) {
  CpuFeatures avx2_only;
  avx2_only.popcnt = avx2_only.bmi2 = avx2_only.avx2 = true;
  EXPECT_EQ(CappedAt(avx2_only, SimdLevel::kAvx512Icelake).Level(), SimdLevel::kAvx2);
  EXPECT_EQ(CappedAt(CpuFeatures{}, SimdLevel::kAvx512).Level(), SimdLevel::kScalar);
}

TEST(CpuFeaturesTest, LevelsNeedEveryInstructionTheirKernelsUse) {
  CpuFeatures f = Everything();
  f.bmi2 = false;  // AVX2 kernels use BMI2's shifts and bit extracts
  EXPECT_EQ(f.Level(), SimdLevel::kScalar);
  f = Everything();
  f.avx512vl = false;
  EXPECT_EQ(f.Level(), SimdLevel::kAvx2);
  f = Everything();
  f.avx512vpopcntdq = false;
  EXPECT_EQ(f.Level(), SimdLevel::kAvx512);
}

TEST(CpuFeaturesTest, NamesRoundTrip) {
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512,
                          SimdLevel::kAvx512Icelake}) {
    SimdLevel parsed = SimdLevel::kScalar;
    ASSERT_TRUE(ParseSimdLevel(SimdLevelName(level), &parsed));
    EXPECT_EQ(parsed, level);
  }
  SimdLevel untouched = SimdLevel::kAvx2;
  EXPECT_FALSE(ParseSimdLevel("AVX2", &untouched));
  EXPECT_FALSE(ParseSimdLevel("", &untouched));
  EXPECT_EQ(untouched, SimdLevel::kAvx2);
}

// The process's features are the hardware's under the cap from the environment: the capped
// ctest runs set PYFILEINDEX_SIMD, and every kernel below the cap must then be what runs.
TEST(CpuFeaturesTest, ProcessFeaturesFollowTheEnvironmentCap) {
  const char* cap = std::getenv("PYFILEINDEX_SIMD");
  SimdLevel level = SimdLevel::kAvx512Icelake;
  if (cap != nullptr) {
    ASSERT_TRUE(ParseSimdLevel(cap, &level)) << cap;
  }
  const SimdLevel expected = CappedAt(HardwareFeatures(), level).Level();
  EXPECT_EQ(Features().Level(), expected);
  EXPECT_LE(Features().Level(), HardwareFeatures().Level());
  EXPECT_EQ(std::string(SimdLevelInUse()), SimdLevelName(expected));
}

#if !defined(PFI_X86_KERNELS)
TEST(CpuFeaturesTest, OffX86OnlyThePortableKernelsRun) {
  EXPECT_EQ(HardwareFeatures().Level(), SimdLevel::kScalar);
}
#endif

}  // namespace
}  // namespace pyfileindex::cpu
