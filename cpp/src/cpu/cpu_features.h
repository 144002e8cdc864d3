// What the CPU this process runs on can execute, read once, and the target attributes of the
// kernels written for each level. The one place the library asks the processor anything:
// every dispatch (hashing, column copies, block operations, slice scans, bloom probes) picks
// its kernel from Features(), so a cap set here reaches all of them.
#pragma once

#include <cstdint>

namespace pyfileindex::cpu {

// The kernel levels, lowest first. kAvx512 needs the Skylake-X set (F, DQ, BW, VL);
// kAvx512Icelake adds the byte and population-count instructions of Ice Lake and later.
enum class SimdLevel : uint8_t { kScalar = 0, kAvx2 = 1, kAvx512 = 2, kAvx512Icelake = 3 };

struct CpuFeatures {
  bool popcnt = false;
  bool bmi2 = false;
  bool avx2 = false;
  bool avx512f = false;
  bool avx512dq = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512vbmi = false;
  bool avx512vbmi2 = false;
  bool avx512vpopcntdq = false;

  // The levels the kernels are gated on; each implies the ones below it.
  bool HasAvx2() const { return avx2 && bmi2 && popcnt; }
  bool HasAvx512() const { return HasAvx2() && avx512f && avx512dq && avx512bw && avx512vl; }
  bool HasAvx512Icelake() const {
    return HasAvx512() && avx512vbmi && avx512vbmi2 && avx512vpopcntdq;
  }
  SimdLevel Level() const;
};

// What the processor and the operating system support (CPUID, and XGETBV for the register
// state the OS saves), lowered to the level named by the PYFILEINDEX_SIMD environment
// variable when it is set ("scalar", "avx2", "avx512", "avx512-icelake"): a host with
// AVX-512 can run its scalar and AVX2 kernels too. Read on first use, then fixed for the
// process. Not a compiler builtin: some toolchains (zig's compiler-rt) never initialise
// __builtin_cpu_supports in a shared library and would report no feature at all.
const CpuFeatures& Features();

// The features of the processor before any cap (what the kernels could use).
const CpuFeatures& HardwareFeatures();

// "scalar", "avx2", "avx512" or "avx512-icelake".
const char* SimdLevelName(SimdLevel level);

// The level a name stands for (as SimdLevelName writes it); false for any other text.
bool ParseSimdLevel(const char* name, SimdLevel* level);

// `features` with everything above `level` cleared, so each kernel gated higher stands down.
CpuFeatures CappedAt(CpuFeatures features, SimdLevel level);

}  // namespace pyfileindex::cpu

// x86-64 kernels are compiled with per-function target attributes (never -march), so one
// binary runs everywhere and chooses at run time. Elsewhere only the portable kernels exist.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PFI_X86_KERNELS 1
#define PFI_TARGET_AVX2 __attribute__((target("avx2,bmi2,popcnt")))
#define PFI_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,bmi2,popcnt")))
#define PFI_TARGET_AVX512_ICELAKE                                                           \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,"      \
                        "avx512vpopcntdq,avx2,bmi2,popcnt")))
#endif
