#include "index/slice_scan/scan_ops.h"

#include "io/endian.h"

namespace pyfileindex::index::slice_scan {

namespace {

constexpr int kWords = 1024;

#define PFI_INLINE inline __attribute__((always_inline))

PFI_INLINE uint64_t Load(const uint8_t* src, uint32_t w) { return io::LoadU64LE(src + 8 * w); }

// One word of a step; returns A | B after it.
template <bool kA, bool kB, bool kIn>
PFI_INLINE uint64_t StepWord(uint64_t s, uint64_t* __restrict a, uint64_t* __restrict b,
                             uint64_t* __restrict in, const StepMasks& m) {
  uint64_t gained = 0;
  uint64_t rest = 0;
  if (kA) {
    const uint64_t x = *a;
    const uint64_t keep = s ^ m.a_flip;
    const uint64_t kept = x & keep;
    if (kIn) {
      gained |= (x & ~keep & m.a_gain) | (kept & m.a_done);
      *a = kept & ~m.a_done;
    } else {
      *a = kept;
    }
    rest |= *a;
  }
  if (kB) {
    const uint64_t x = *b;
    const uint64_t keep = s ^ m.b_flip;
    const uint64_t kept = x & keep;
    if (kIn) {
      gained |= (x & ~keep & m.b_gain) | (kept & m.b_done);
      *b = kept & ~m.b_done;
    } else {
      *b = kept;
    }
    rest |= *b;
  }
  if (kIn) *in |= gained;
  return rest;
}

// One 64-byte line (8 words) at a time, prefetching the next step's line: each step reads
// only 8 KB of a slice, too short a stream for the hardware prefetcher to ramp up.
template <bool kA, bool kB, bool kIn>
PFI_INLINE uint32_t StepBody(const uint8_t* __restrict s, uint64_t* __restrict a,
                             uint64_t* __restrict b, uint64_t* __restrict in,
                             const StepMasks& m, const uint8_t* next) {
  const StepMasks masks = m;  // in registers, not re-read through the pointer
  uint32_t live = 0;
  for (int line = 0; line < kWords / 8; ++line) {
    __builtin_prefetch(next + 64 * line);
    for (int w = 8 * line; w < 8 * line + 8; ++w) {
      live += StepWord<kA, kB, kIn>(Load(s, w), a + w, b + w, in + w, masks) != 0;
    }
  }
  return live;
}

template <bool kA, bool kB, bool kIn>
PFI_INLINE uint32_t StepSparseBody(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,
                                   const StepMasks& m, uint16_t* idx, uint32_t n,
                                   const uint8_t* next) {
  const StepMasks masks = m;
  uint32_t kept = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t w = idx[k];
    __builtin_prefetch(next + 8 * w);
    const uint64_t rest = StepWord<kA, kB, kIn>(Load(s, w), a + w, b + w, in + w, masks);
    idx[kept] = static_cast<uint16_t>(w);
    kept += rest != 0;
  }
  return kept;
}

// Defines one ISA's table; ATTR is its target attribute (empty for the baseline).
#define PFI_SCAN_OPS(NAME, ATTR)                                                             \
  template <bool kA, bool kB, bool kIn>                                                      \
  ATTR uint32_t NAME##Step(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,         \
                           const StepMasks& m, const uint8_t* next) {                        \
    return StepBody<kA, kB, kIn>(s, a, b, in, m, next);                                      \
  }                                                                                          \
  template <bool kA, bool kB, bool kIn>                                                      \
  ATTR uint32_t NAME##StepSparse(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,   \
                                 const StepMasks& m, uint16_t* idx, uint32_t n,              \
                                 const uint8_t* next) {                                      \
    return StepSparseBody<kA, kB, kIn>(s, a, b, in, m, idx, n, next);                        \
  }                                                                                          \
  const ScanOps k##NAME = {                                                                  \
      {nullptr, NAME##Step<true, false, false>, NAME##Step<false, true, false>,              \
       NAME##Step<true, true, false>, nullptr, NAME##Step<true, false, true>,                \
       NAME##Step<false, true, true>, NAME##Step<true, true, true>},                         \
      {nullptr, NAME##StepSparse<true, false, false>, NAME##StepSparse<false, true, false>,  \
       NAME##StepSparse<true, true, false>, nullptr, NAME##StepSparse<true, false, true>,    \
       NAME##StepSparse<false, true, true>, NAME##StepSparse<true, true, true>}};

PFI_SCAN_OPS(Baseline, )

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
PFI_SCAN_OPS(Avx2, __attribute__((target("avx2"))))

const ScanOps& Choose() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return kAvx2;
  return kBaseline;
}
#else
const ScanOps& Choose() { return kBaseline; }
#endif

}  // namespace

const ScanOps& ScanOpsForCpu() {
  static const ScanOps& ops = Choose();
  return ops;
}

}  // namespace pyfileindex::index::slice_scan
