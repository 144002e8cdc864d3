#include "cpu/cpu_features.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

#if defined(PFI_X86_KERNELS)
#include <cpuid.h>
#endif

namespace pyfileindex::cpu {

namespace {

#if defined(PFI_X86_KERNELS)
bool Bit(unsigned value, int bit) { return ((value >> bit) & 1u) != 0; }

// XCR0: which register states the OS saves on a context switch. A CPU with AVX whose OS does
// not save the upper halves must not run AVX code.
uint64_t ReadXcr0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

CpuFeatures Probe() {
  CpuFeatures f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return f;
  f.popcnt = Bit(ecx, 23);
  const bool osxsave = Bit(ecx, 27);
  const bool avx = Bit(ecx, 28);
  const uint64_t xcr0 = osxsave ? ReadXcr0() : 0;
  const bool os_ymm = (xcr0 & 0x6) == 0x6;            // SSE and AVX state
  const bool os_zmm = os_ymm && (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM0-15 upper, ZMM16-31
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return f;
  f.bmi2 = Bit(ebx, 8);
  f.avx2 = avx && os_ymm && Bit(ebx, 5);
  if (os_zmm) {
    f.avx512f = Bit(ebx, 16);
    f.avx512dq = Bit(ebx, 17);
    f.avx512bw = Bit(ebx, 30);
    f.avx512vl = Bit(ebx, 31);
    f.avx512vbmi = Bit(ecx, 1);
    f.avx512vbmi2 = Bit(ecx, 6);
    f.avx512vpopcntdq = Bit(ecx, 14);
  }
  return f;
}
#else
CpuFeatures Probe() { return CpuFeatures{}; }
#endif

// The cap from PYFILEINDEX_SIMD; an unknown name caps nothing (the variable is a testing aid,
// and failing the whole library over a typo in it would be worse than ignoring it).
SimdLevel RequestedCap() {
  SimdLevel level = SimdLevel::kAvx512Icelake;
  const char* text = std::getenv("PYFILEINDEX_SIMD");
  if (text != nullptr && !ParseSimdLevel(text, &level)) return SimdLevel::kAvx512Icelake;
  return level;
}

}  // namespace

CpuFeatures CappedAt(CpuFeatures f, SimdLevel level) {
  if (level < SimdLevel::kAvx512Icelake) {
    f.avx512vbmi = f.avx512vbmi2 = f.avx512vpopcntdq = false;
  }
  if (level < SimdLevel::kAvx512) {
    f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = false;
  }
  if (level < SimdLevel::kAvx2) {
    f.avx2 = f.bmi2 = false;
  }
  return f;
}

bool ParseSimdLevel(const char* name, SimdLevel* level) {
  for (SimdLevel candidate : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512,
                              SimdLevel::kAvx512Icelake}) {
    if (std::strcmp(name, SimdLevelName(candidate)) == 0) {
      *level = candidate;
      return true;
    }
  }
  return false;
}

SimdLevel CpuFeatures::Level() const {
  if (HasAvx512Icelake()) return SimdLevel::kAvx512Icelake;
  if (HasAvx512()) return SimdLevel::kAvx512;
  if (HasAvx2()) return SimdLevel::kAvx2;
  return SimdLevel::kScalar;
}

const CpuFeatures& HardwareFeatures() {
  static const CpuFeatures features = Probe();
  return features;
}

const CpuFeatures& Features() {
  static const CpuFeatures features = CappedAt(HardwareFeatures(), RequestedCap());
  return features;
}

const char* SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
    case SimdLevel::kAvx512Icelake:
      return "avx512-icelake";
  }
  return "scalar";
}

}  // namespace pyfileindex::cpu
