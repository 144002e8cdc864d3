#include "index/slice_scan/scan_ops.h"

#include "io/endian.h"

#include "cpu/cpu_features.h"

#if defined(PFI_X86_KERNELS)
#include <immintrin.h>
#endif

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

#if defined(PFI_X86_KERNELS)

PFI_TARGET_AVX2 inline __m256i Splat(uint64_t v) {
  return _mm256_set1_epi64x(static_cast<long long>(v));
}

// One set's update over four words; returns the set after it, adding the rows that leave it
// on the inside of the range to `gained` (kIn).
template <bool kIn>
PFI_TARGET_AVX2 inline __m256i UpdateSet(uint64_t* set, __m256i slice, __m256i flip, __m256i gain,
                                         __m256i done, __m256i* gained) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(set));
  const __m256i keep = _mm256_xor_si256(slice, flip);
  __m256i kept = _mm256_and_si256(x, keep);
  if (kIn) {
    const __m256i left = _mm256_andnot_si256(keep, _mm256_and_si256(x, gain));
    *gained = _mm256_or_si256(*gained, _mm256_or_si256(left, _mm256_and_si256(kept, done)));
    kept = _mm256_andnot_si256(done, kept);
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(set), kept);
  return kept;
}

// StepBody written with AVX2 intrinsics, four words a register. Left to the compiler, the
// count of live words became a sum across the register on every line (a dozen dependent
// instructions per 8 words, half the step's time); here the empty words are counted per lane
// and summed once.
template <bool kA, bool kB, bool kIn>
PFI_TARGET_AVX2 uint32_t Avx2StepBody(const uint8_t* __restrict s, uint64_t* __restrict a,
                                      uint64_t* __restrict b, uint64_t* __restrict in,
                                      const StepMasks& m, const uint8_t* next) {
  const __m256i a_flip = Splat(m.a_flip), a_gain = Splat(m.a_gain), a_done = Splat(m.a_done);
  const __m256i b_flip = Splat(m.b_flip), b_gain = Splat(m.b_gain), b_done = Splat(m.b_done);
  const __m256i zero = _mm256_setzero_si256();
  __m256i empty = zero;  // per lane: minus the number of words left empty
  for (int line = 0; line < kWords / 8; ++line) {
    __builtin_prefetch(next + 64 * line);
    for (int half = 0; half < 2; ++half) {
      const int w = 8 * line + 4 * half;
      const __m256i slice = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 8 * w));
      __m256i gained = zero;
      __m256i rest = zero;
      if (kA) {
        rest = _mm256_or_si256(rest, UpdateSet<kIn>(a + w, slice, a_flip, a_gain, a_done, &gained));
      }
      if (kB) {
        rest = _mm256_or_si256(rest, UpdateSet<kIn>(b + w, slice, b_flip, b_gain, b_done, &gained));
      }
      if (kIn) {
        __m256i* out = reinterpret_cast<__m256i*>(in + w);
        _mm256_storeu_si256(out, _mm256_or_si256(_mm256_loadu_si256(out), gained));
      }
      empty = _mm256_add_epi64(empty, _mm256_cmpeq_epi64(rest, zero));  // -1 per empty word
    }
  }
  alignas(32) int64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), empty);
  return static_cast<uint32_t>(kWords + lanes[0] + lanes[1] + lanes[2] + lanes[3]);
}
#endif

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

// Defines one ISA's table; ATTR is its target attribute (empty for the baseline), BODY the
// dense step's body.
#define PFI_SCAN_OPS(NAME, ATTR, BODY)                                                       \
  template <bool kA, bool kB, bool kIn>                                                      \
  ATTR uint32_t NAME##Step(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,         \
                           const StepMasks& m, const uint8_t* next) {                        \
    return BODY<kA, kB, kIn>(s, a, b, in, m, next);                                          \
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

PFI_SCAN_OPS(Baseline, , StepBody)

#if defined(PFI_X86_KERNELS)
PFI_SCAN_OPS(Avx2, PFI_TARGET_AVX2, Avx2StepBody)
#endif

}  // namespace

const ScanOps& ScanOpsForCpu() {
  static const ScanOps& ops =
      detail::Avx2ScanOps() != nullptr ? *detail::Avx2ScanOps() : detail::BaselineScanOps();
  return ops;
}

namespace detail {
const ScanOps& BaselineScanOps() { return kBaseline; }
const ScanOps* Avx2ScanOps() {
#if defined(PFI_X86_KERNELS)
  return cpu::Features().HasAvx2() ? &kAvx2 : nullptr;
#else
  return nullptr;
#endif
}
}  // namespace detail

}  // namespace pyfileindex::index::slice_scan
