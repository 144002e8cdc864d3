#include "roaring/block_ops.h"

#include <cstring>

#include "cpu/cpu_features.h"

#if defined(PFI_X86_KERNELS)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/bit_count.h"
#include "io/endian.h"

namespace pyfileindex::roaring {

namespace {

constexpr int kWords = static_cast<int>(kBlockWords);

#define PFI_INLINE inline __attribute__((always_inline))

// The loop bodies, inlined into each variant below and compiled for its ISA.
template <bool kHardware>
PFI_INLINE uint32_t Count(uint64_t x) {
  if (kHardware) return static_cast<uint32_t>(__builtin_popcountll(x));
  return io::PortablePopcount(x);  // a libgcc call otherwise
}
// Four running sums: with one, each word's add waits for the previous word's (one word a
// cycle, where the CPU can count four words a cycle). Words are read as
// little-endian bytes at any alignment; host-order words count the same (a word's bit count
// does not depend on its byte order).
template <bool kHardware>
PFI_INLINE uint32_t CardinalityOfBytesBody(const uint8_t* s) {
  uint32_t card[4] = {0, 0, 0, 0};
  for (int w = 0; w < kWords; w += 4) {
    card[0] += Count<kHardware>(io::LoadU64LE(s + 8 * w));
    card[1] += Count<kHardware>(io::LoadU64LE(s + 8 * w + 8));
    card[2] += Count<kHardware>(io::LoadU64LE(s + 8 * w + 16));
    card[3] += Count<kHardware>(io::LoadU64LE(s + 8 * w + 24));
  }
  return card[0] + card[1] + card[2] + card[3];
}
template <bool kHardware>
PFI_INLINE void CardinalityAndRunsBody(const uint64_t* words, uint32_t* cardinality,
                                       uint32_t* runs) {
  // Two words a step into separate sums (see CardinalityBody).
  uint32_t card[2] = {0, 0};
  uint32_t starts[2] = {0, 0};
  uint64_t carry = 0;  // top bit of the previous word: a run continuing across words
  for (int w = 0; w < kWords; w += 2) {
    const uint64_t x = words[w];
    const uint64_t y = words[w + 1];
    card[0] += Count<kHardware>(x);
    card[1] += Count<kHardware>(y);
    starts[0] += Count<kHardware>(x & ~((x << 1) | carry));
    starts[1] += Count<kHardware>(y & ~((y << 1) | (x >> 63)));
    carry = y >> 63;
  }
  *cardinality = card[0] + card[1];
  *runs = starts[0] + starts[1];
}

// The positions of word i's set bits to `out`; returns the position after them. Two
// unconditional extractions (a ctz of the word with its top bit forced, which the next word
// overwrites when not needed): a sparse block has 0..2 set bits per word at random, and a
// loop per set bit mispredicted its exit once per word. Writes up to two entries past them.
template <bool kHardware>
PFI_INLINE uint16_t* WordPositions(uint64_t w, int i, uint16_t* out) {
  constexpr uint64_t kTop = uint64_t{1} << 63;
  const uint32_t base = static_cast<uint32_t>(i) * 64;
  const uint32_t count = Count<kHardware>(w);
  out[0] = static_cast<uint16_t>(base + __builtin_ctzll(w | kTop));
  w &= w - 1;
  out[1] = static_cast<uint16_t>(base + __builtin_ctzll(w | kTop));
  w &= w - 1;
  for (uint16_t* more = out + 2; w != 0; w &= w - 1) {
    *more++ = static_cast<uint16_t>(base + __builtin_ctzll(w));
  }
  return out + count;
}

template <bool kHardware>
PFI_INLINE void PositionsBody(const uint64_t* words, uint16_t* out) {
  for (int i = 0; i < kWords; ++i) out = WordPositions<kHardware>(words[i], i, out);
}

// The positions of the flagged words' set bits, by `word_positions` (a variant's
// WordPositions). Eight flag bytes (each 0 or 1) become eight bits with one multiply: each
// byte's bit lands in the top byte at the byte's index.
template <typename WordPositionsFn>
PFI_INLINE uint32_t TakePositionsBody(uint64_t* words, uint8_t* flags, uint16_t* out,
                                      WordPositionsFn word_positions) {
  constexpr uint64_t kGatherBytes = 0x0102040810204080ULL;
  const uint16_t* const begin = out;
  for (int base = 0; base < kWords; base += 64) {
    uint64_t flagged = 0;
    for (int k = 0; k < 8; ++k) {
      flagged |= ((io::LoadU64LE(flags + base + 8 * k) * kGatherBytes) >> 56) << (8 * k);
    }
    if (flagged == 0) continue;
    std::memset(flags + base, 0, 64);
    for (; flagged != 0; flagged &= flagged - 1) {
      const int i = base + __builtin_ctzll(flagged);
      out = word_positions(words[i], i, out);
      words[i] = 0;
    }
  }
  return static_cast<uint32_t>(out - begin);
}

template <bool kHardware>
PFI_INLINE uint32_t AndFlippedBody(const uint8_t* s, uint64_t flip, const uint64_t* e,
                                   uint64_t* out) {
  uint32_t card[2] = {0, 0};  // two sums (see CardinalityBody)
  for (int w = 0; w < kWords; w += 2) {
    const uint64_t x = e[w] & (io::LoadU64LE(s + 8 * w) ^ flip);
    const uint64_t y = e[w + 1] & (io::LoadU64LE(s + 8 * w + 8) ^ flip);
    out[w] = x;
    out[w + 1] = y;
    card[0] += Count<kHardware>(x);
    card[1] += Count<kHardware>(y);
  }
  return card[0] + card[1];
}

template <bool kHardware>
PFI_INLINE uint32_t AndFlippedAtBody(const uint8_t* s, uint64_t flip, const uint64_t* e,
                                     uint64_t* out, const uint16_t* idx, uint32_t n) {
  uint32_t card = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t w = idx[i];
    const uint64_t x = e[w] & (io::LoadU64LE(s + 8 * w) ^ flip);
    out[w] = x;
    card += Count<kHardware>(x);
  }
  return card;
}

// Sets the bits of `count` little-endian 16-bit values (any alignment). One OR into memory a
// value; the variable shift is where the ISA matters: x86-64's `shl %cl` is three micro-ops,
// BMI2's `shlx` one.
PFI_INLINE void SetValuesBody(uint64_t* words, const uint8_t* values, uint32_t count) {
  if (count == 0) return;
  // An array container's values ascend: a word's bits are gathered in a register and stored
  // once, rather than read, modified and written per value (each such write waits for the
  // previous one to the same word). Any order still sets every bit.
  uint32_t current = io::LoadU16LE(values) >> 6;
  uint64_t bits = 0;
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t v = io::LoadU16LE(values + 2 * j);
    const uint32_t word = v >> 6;
    if (word != current) {
      words[current] |= bits;
      current = word;
      bits = 0;
    }
    bits |= uint64_t{1} << (v & 63);
  }
  words[current] |= bits;
}

// The values from `k` on, one at a time (a vector loop's tail).
PFI_INLINE bool StrictlyAscendingFrom(const uint8_t* values, uint32_t k, uint32_t count) {
  bool ascending = true;
  for (; k < count; ++k) {
    ascending &= io::LoadU16LE(values + 2 * k - 2) < io::LoadU16LE(values + 2 * k);
  }
  return ascending;
}

// Baseline variant.
#if defined(__x86_64__) && !defined(__POPCNT__)
constexpr bool kBaselinePopcount = false;
#else
constexpr bool kBaselinePopcount = true;
#endif
uint32_t Cardinality(const uint64_t* words) {
  return CardinalityOfBytesBody<kBaselinePopcount>(reinterpret_cast<const uint8_t*>(words));
}
uint32_t CardinalityOfBytes(const uint8_t* words) {
  return CardinalityOfBytesBody<kBaselinePopcount>(words);
}
void CardinalityAndRuns(const uint64_t* words, uint32_t* card, uint32_t* runs) {
  CardinalityAndRunsBody<kBaselinePopcount>(words, card, runs);
}
void Positions(const uint64_t* words, uint16_t* out) {
  PositionsBody<kBaselinePopcount>(words, out);
}
uint32_t TakePositions(uint64_t* words, uint8_t* flags, uint16_t* out) {
  return TakePositionsBody(words, flags, out, WordPositions<kBaselinePopcount>);
}

uint32_t AndFlipped(const uint8_t* s, uint64_t flip, const uint64_t* e, uint64_t* out) {
  return AndFlippedBody<kBaselinePopcount>(s, flip, e, out);
}
uint32_t AndFlippedAt(const uint8_t* s, uint64_t flip, const uint64_t* e, uint64_t* out,
                      const uint16_t* idx, uint32_t n) {
  return AndFlippedAtBody<kBaselinePopcount>(s, flip, e, out, idx, n);
}

void SetValues(uint64_t* words, const uint8_t* values, uint32_t count) {
  SetValuesBody(words, values, count);
}

// Each value against the one before, 8 at a time where SSE2 exists (every x86-64 CPU): b <= a
// exactly where the saturating difference b - a is 0 (SSE2 has no unsigned compare).
bool StrictlyAscending(const uint8_t* values, uint32_t count) {
  uint32_t k = 1;
  bool ascending = true;
#if defined(__SSE2__)
  __m128i descents = _mm_setzero_si128();
  for (; k + 8 <= count; k += 8) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + 2 * k - 2));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + 2 * k));
    descents = _mm_or_si128(descents,
                            _mm_cmpeq_epi16(_mm_subs_epu16(b, a), _mm_setzero_si128()));
  }
  ascending = _mm_movemask_epi8(descents) == 0;
#endif
  return StrictlyAscendingFrom(values, k, count) && ascending;
}

constexpr BlockOps kBaseline = {Cardinality, CardinalityOfBytes, CardinalityAndRuns, Positions,
                                AndFlipped,  AndFlippedAt,       TakePositions,      SetValues,
                                StrictlyAscending, "baseline"};

#if defined(PFI_X86_KERNELS)
PFI_TARGET_AVX2 uint32_t CardinalityAvx2(const uint64_t* words) {
  return CardinalityOfBytesBody<true>(reinterpret_cast<const uint8_t*>(words));
}
PFI_TARGET_AVX2 uint32_t CardinalityOfBytesAvx2(const uint8_t* words) {
  return CardinalityOfBytesBody<true>(words);
}
PFI_TARGET_AVX2 void CardinalityAndRunsAvx2(const uint64_t* words, uint32_t* card, uint32_t* runs) {
  CardinalityAndRunsBody<true>(words, card, runs);
}
PFI_TARGET_AVX2 void PositionsAvx2(const uint64_t* words, uint16_t* out) {
  PositionsBody<true>(words, out);
}
PFI_TARGET_AVX2 uint32_t TakePositionsAvx2(uint64_t* words, uint8_t* flags, uint16_t* out) {
  return TakePositionsBody(words, flags, out, WordPositions<true>);
}
PFI_TARGET_AVX2 void SetValuesAvx2(uint64_t* words, const uint8_t* values, uint32_t count) {
  SetValuesBody(words, values, count);
}
PFI_TARGET_AVX2 uint32_t AndFlippedAvx2(const uint8_t* s, uint64_t flip, const uint64_t* e,
                                        uint64_t* out) {
  return AndFlippedBody<true>(s, flip, e, out);
}
PFI_TARGET_AVX2 uint32_t AndFlippedAtAvx2(const uint8_t* s, uint64_t flip, const uint64_t* e,
                                          uint64_t* out, const uint16_t* idx, uint32_t n) {
  return AndFlippedAtBody<true>(s, flip, e, out, idx, n);
}
// The baseline's comparison 16 values at a time.
PFI_TARGET_AVX2 bool StrictlyAscendingAvx2(const uint8_t* values, uint32_t count) {
  uint32_t k = 1;
  __m256i descents = _mm256_setzero_si256();
  for (; k + 16 <= count; k += 16) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + 2 * k - 2));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + 2 * k));
    descents = _mm256_or_si256(
        descents, _mm256_cmpeq_epi16(_mm256_subs_epu16(b, a), _mm256_setzero_si256()));
  }
  return StrictlyAscendingFrom(values, k, count) && _mm256_testz_si256(descents, descents);
}
constexpr BlockOps kAvx2 = {CardinalityAvx2, CardinalityOfBytesAvx2, CardinalityAndRunsAvx2,
                            PositionsAvx2,   AndFlippedAvx2,         AndFlippedAtAvx2,
                            TakePositionsAvx2, SetValuesAvx2,        StrictlyAscendingAvx2,
                            "avx2"};

// AVX-512 with its vector popcount: counting a block, the check of every bitmap container read
// from bytes and of every block committed, takes 128 vector counts instead of 1024 scalar ones
// (the scalar popcnt issues once a cycle). Positions are extracted by compressing bytes (below);
// the other loops keep their AVX2 variants.
PFI_TARGET_AVX512_ICELAKE uint32_t CardinalityOfBytesAvx512(const uint8_t* words) {
  __m512i sum[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  for (int w = 0; w < kWords; w += 16) {
    sum[0] = _mm512_add_epi64(sum[0], _mm512_popcnt_epi64(_mm512_loadu_si512(words + 8 * w)));
    sum[1] = _mm512_add_epi64(sum[1],
                              _mm512_popcnt_epi64(_mm512_loadu_si512(words + 8 * w + 64)));
  }
  // (GCC 12's _mm512_reduce_add_epi64 trips -Wuninitialized in its own header.)
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, _mm512_add_epi64(sum[0], sum[1]));
  uint64_t total = 0;
  for (uint64_t lane : lanes) total += lane;
  return static_cast<uint32_t>(total);
}
PFI_TARGET_AVX512_ICELAKE uint32_t CardinalityAvx512(const uint64_t* words) {
  return CardinalityOfBytesAvx512(reinterpret_cast<const uint8_t*>(words));
}

// A word's set-bit positions without a branch per bit: VBMI2's byte compress packs the indexes
// 0..63 of its set bits to the front of a vector, a byte permute (VBMI) widens them to 16-bit
// lanes (the odd bytes zeroed), and adding the word's base gives the positions, stored under
// a mask of exactly `count` lanes (nothing past them). A scalar extraction mispredicts where
// words hold 1, 2 or 3 bits at random (the sparse block of an IN list's union); this path has
// no branch that depends on the bits.
// Byte 2k of a widened half is packed byte k (low half) or 32 + k (high half).
struct WideningTables {
  alignas(64) uint8_t bytes[3][64];
  constexpr WideningTables() : bytes() {
    for (int k = 0; k < 64; ++k) bytes[0][k] = static_cast<uint8_t>(k);
    for (int k = 0; k < 32; ++k) {
      bytes[1][2 * k] = static_cast<uint8_t>(k);
      bytes[2][2 * k] = static_cast<uint8_t>(32 + k);
    }
  }
};
constexpr WideningTables kWidening;
constexpr uint64_t kEvenBytes = 0x5555555555555555ULL;

PFI_TARGET_AVX512_ICELAKE PFI_INLINE uint16_t* WordPositionsAvx512(uint64_t w, int i,
                                                                   uint16_t* out) {
  const __m512i base = _mm512_set1_epi16(static_cast<int16_t>(i * 64));
  const uint32_t count = static_cast<uint32_t>(__builtin_popcountll(w));
  const __m512i packed =
      _mm512_maskz_compress_epi8(w, _mm512_load_si512(kWidening.bytes[0]));
  const __m512i low = _mm512_add_epi16(
      _mm512_maskz_permutexvar_epi8(kEvenBytes, _mm512_load_si512(kWidening.bytes[1]), packed),
      base);
  if (count <= 32) {
    _mm512_mask_storeu_epi16(out, _bzhi_u32(~0u, count), low);
  } else {
    _mm512_storeu_si512(out, low);
    const __m512i high = _mm512_add_epi16(
        _mm512_maskz_permutexvar_epi8(kEvenBytes, _mm512_load_si512(kWidening.bytes[2]), packed),
        base);
    _mm512_mask_storeu_epi16(out + 32, _bzhi_u32(~0u, count - 32), high);
  }
  return out + count;
}
// Only the nonzero words, found 64 at a time: a compress costs more than a zero word's scalar
// pass, and a block of at most 4096 values (an array to be) leaves most words zero.
PFI_TARGET_AVX512_ICELAKE void PositionsAvx512(const uint64_t* words, uint16_t* out) {
  for (uint32_t base = 0; base < kBlockWords; base += 64) {
    uint64_t nonzero = 0;
    for (uint32_t k = 0; k < 8; ++k) {
      const __m512i eight = _mm512_loadu_si512(words + base + 8 * k);
      nonzero |= uint64_t{_mm512_test_epi64_mask(eight, eight)} << (8 * k);
    }
    for (; nonzero != 0; nonzero &= nonzero - 1) {
      const int i = static_cast<int>(base) + __builtin_ctzll(nonzero);
      out = WordPositionsAvx512(words[i], i, out);
    }
  }
}
PFI_TARGET_AVX512_ICELAKE uint32_t TakePositionsAvx512(uint64_t* words, uint8_t* flags,
                                                       uint16_t* out) {
  return TakePositionsBody(words, flags, out, WordPositionsAvx512);
}

// 32 values at a time, with AVX-512's unsigned compare into a mask.
PFI_TARGET_AVX512_ICELAKE bool StrictlyAscendingAvx512(const uint8_t* values, uint32_t count) {
  uint32_t k = 1;
  __mmask32 descents = 0;
  for (; k + 32 <= count; k += 32) {
    const __m512i a = _mm512_loadu_si512(values + 2 * k - 2);
    const __m512i b = _mm512_loadu_si512(values + 2 * k);
    descents |= _mm512_cmple_epu16_mask(b, a);
  }
  return StrictlyAscendingFrom(values, k, count) && descents == 0;
}

constexpr BlockOps kAvx512 = {CardinalityAvx512, CardinalityOfBytesAvx512, CardinalityAndRunsAvx2,
                              PositionsAvx512,   AndFlippedAvx2,           AndFlippedAtAvx2,
                              TakePositionsAvx512, SetValuesAvx2,       StrictlyAscendingAvx512,
                              "avx512"};

std::vector<const BlockOps*> Supported() {
  const cpu::CpuFeatures& cpu = cpu::Features();
  std::vector<const BlockOps*> out = {&kBaseline};
  if (cpu.HasAvx2()) out.push_back(&kAvx2);
  if (cpu.HasAvx512Icelake()) out.push_back(&kAvx512);
  return out;
}
#else
std::vector<const BlockOps*> Supported() { return {&kBaseline}; }
#endif

const BlockOps& Choose() { return *Supported().back(); }

}  // namespace

const BlockOps& Ops() {
  static const BlockOps& ops = Choose();
  return ops;
}

std::vector<const BlockOps*> SupportedOps() { return Supported(); }

}  // namespace pyfileindex::roaring
