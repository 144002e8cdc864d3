#include "hash/xxh64.h"

#include "hash/xxh64_kernels.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "io/bit_count.h"

#include "cpu/cpu_features.h"

#if defined(PFI_X86_KERNELS)
#include <immintrin.h>
#endif

namespace pyfileindex::hash {
namespace {

// The five 64-bit primes of the algorithm.
constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

inline uint64_t RotateLeft(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

// Input words are little-endian regardless of the host.
inline uint64_t LoadWord64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

inline uint32_t LoadWord32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

// One lane step: mixes 8 input bytes into an accumulator.
inline uint64_t Round(uint64_t acc, uint64_t input) {
  acc += input * kPrime2;
  acc = RotateLeft(acc, 31);
  return acc * kPrime1;
}

// Folds a finished lane into the combined hash.
inline uint64_t MergeLane(uint64_t hash, uint64_t lane) {
  hash ^= Round(0, lane);
  return hash * kPrime1 + kPrime4;
}

inline uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

// The last `N` (< 32) bytes at `p` folded into `h`, then the avalanche: XXH64's tail steps
// (8-byte words, one 4-byte word, single bytes), unrolled for a length known at compile time.
template <size_t N>
uint64_t Tail(const uint8_t* p, uint64_t h) {
  for (size_t i = 0; i < N / 8; ++i, p += 8) {
    h ^= Round(0, LoadWord64(p));
    h = RotateLeft(h, 27) * kPrime1 + kPrime4;
  }
  if constexpr (N % 8 >= 4) {
    h ^= static_cast<uint64_t>(LoadWord32(p)) * kPrime1;
    h = RotateLeft(h, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (size_t i = 0; i < N % 4; ++i, ++p) {
    h ^= static_cast<uint64_t>(*p) * kPrime5;
    h = RotateLeft(h, 11) * kPrime1;
  }
  return Avalanche(h);
}

using TailFn = uint64_t (*)(const uint8_t*, uint64_t);

template <size_t... N>
constexpr std::array<TailFn, sizeof...(N)> MakeTails(std::index_sequence<N...>) {
  return {&Tail<N>...};
}

// One indirect jump by the tail's length: short keys of varying length (typical strings)
// otherwise mispredict the exit of every tail loop.
constexpr std::array<TailFn, 32> kTails = MakeTails(std::make_index_sequence<32>());

// XXH64 up to its tail: the 32-byte stripes and the length. Leaves `p` at the tail, which
// has fewer than 32 bytes.
inline uint64_t Head(const uint8_t*& p, size_t size, uint64_t seed) {
  if (size < 32) return seed + kPrime5 + static_cast<uint64_t>(size);
  const uint8_t* const last_stripe = p + size - 32;
  // Four independent lanes over 32-byte stripes.
  uint64_t lane1 = seed + kPrime1 + kPrime2;
  uint64_t lane2 = seed + kPrime2;
  uint64_t lane3 = seed;
  uint64_t lane4 = seed - kPrime1;
  do {
    lane1 = Round(lane1, LoadWord64(p));
    lane2 = Round(lane2, LoadWord64(p + 8));
    lane3 = Round(lane3, LoadWord64(p + 16));
    lane4 = Round(lane4, LoadWord64(p + 24));
    p += 32;
  } while (p <= last_stripe);
  uint64_t h = RotateLeft(lane1, 1) + RotateLeft(lane2, 7) + RotateLeft(lane3, 12) +
               RotateLeft(lane4, 18);
  h = MergeLane(h, lane1);
  h = MergeLane(h, lane2);
  h = MergeLane(h, lane3);
  h = MergeLane(h, lane4);
  return h + static_cast<uint64_t>(size);
}

// Hashes values[order[k]] for k in [begin, end), all with a tail of N bytes, into out.
// `order` null: the identity.
template <size_t N>
void HashSameTail(const std::string_view* values, const uint16_t* order, size_t begin,
                  size_t end, uint64_t* out) {
  for (size_t k = begin; k < end; ++k) {
    const size_t i = order != nullptr ? order[k] : k;
    const uint8_t* p = reinterpret_cast<const uint8_t*>(values[i].data());
    const uint64_t h = Head(p, values[i].size(), 0);
    out[i] = Tail<N>(p, h);
  }
}

using SameTailFn = void (*)(const std::string_view*, const uint16_t*, size_t, size_t, uint64_t*);

template <size_t... N>
constexpr std::array<SameTailFn, sizeof...(N)> MakeSameTails(std::index_sequence<N...>) {
  return {&HashSameTail<N>...};
}

constexpr std::array<SameTailFn, 32> kSameTails = MakeSameTails(std::make_index_sequence<32>());

}  // namespace

uint64_t Xxh64(const void* data, size_t size, uint64_t seed) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint64_t h = Head(p, size, seed);
  return kTails[size & 31](p, h);  // fewer than 32 bytes are left
}

namespace {
// Where the block drivers read value k: an array of views, or Arrow's string layout (one
// buffer, value k from offsets[k] to offsets[k + 1]), read in place without making views.
struct ViewValues {
  const std::string_view* values;
  const uint8_t* data(size_t k) const { return reinterpret_cast<const uint8_t*>(values[k].data()); }
  size_t size(size_t k) const { return values[k].size(); }
};

template <typename Offset>
struct OffsetValues {
  const uint8_t* base;
  const Offset* offsets;
  const uint8_t* data(size_t k) const { return base + offsets[k]; }
  size_t size(size_t k) const { return static_cast<size_t>(offsets[k + 1] - offsets[k]); }
};

template <typename Offset>
OffsetValues<Offset> ArrowValues(const char* data, const Offset* offsets) {
  return OffsetValues<Offset>{reinterpret_cast<const uint8_t*>(data), offsets};
}
}  // namespace

#if defined(PFI_X86_KERNELS)
namespace {
// A vector kernel: the hashes of kLanes values below 32 bytes each (a lane of size 0 reads
// nothing), written to out[0, kLanes).
using LanesKernel = void (*)(const uint8_t* const* pointers, const uint64_t* sizes,
                             uint64_t* out);

// The lane pointers and sizes of values [k, k + lanes), one value at a time. A value of 32
// bytes or more gets size 0 (its lane reads nothing); returns a bit per such lane.
template <typename Values>
uint32_t LanesOneByOne(const Values& values, size_t k, size_t lanes, const uint8_t** pointers,
                       uint64_t* sizes) {
  uint32_t long_values = 0;
  for (size_t j = 0; j < lanes; ++j) {
    const size_t size = values.size(k + j);
    const bool is_long = size >= 32;
    long_values |= static_cast<uint32_t>(is_long) << j;
    pointers[j] = values.data(k + j);
    sizes[j] = is_long ? 0 : size;
  }
  return long_values;
}

// Xxh64Many through `kernel`, kLanes values at a time; a value of 32 bytes or more goes
// through Xxh64 (its lane reads nothing), and so do groups of mostly long values. The last
// count % kLanes values fill a group padded with empty lanes, unless they are so few that
// Xxh64 one by one costs less. A whole group's lanes come from full_lanes(k, pointers, sizes)
// (LanesOneByOne's contract), a faster way to make them where the caller has one.
// The choice is made per group, not by a first pass over the block's lengths: that pass
// would read every length twice, and a block's mix of lengths varies group by group.
template <size_t kLanes, typename Values, typename FullLanes>
void HashInLanes(LanesKernel kernel, const Values& values, size_t count, uint64_t* out,
                 FullLanes&& full_lanes) {
  static_assert(kLanes <= 32, "long_values has a bit per lane");
  constexpr size_t kMinPadded = kLanes / 4;
  alignas(64) const uint8_t* pointers[kLanes];
  alignas(64) uint64_t sizes[kLanes];
  for (size_t k = 0; k < count; k += kLanes) {
    const size_t lanes = std::min(kLanes, count - k);
    if (lanes < kMinPadded) {
      for (size_t j = 0; j < lanes; ++j) {
        out[k + j] = Xxh64(values.data(k + j), values.size(k + j), 0);
      }
      break;
    }
    uint32_t long_values = lanes == kLanes ? full_lanes(k, pointers, sizes)
                                           : LanesOneByOne(values, k, lanes, pointers, sizes);
    if (2 * static_cast<size_t>(io::PortablePopcount(long_values)) > lanes) {
      for (size_t j = 0; j < lanes; ++j) {
        out[k + j] = Xxh64(values.data(k + j), values.size(k + j), 0);
      }
      continue;
    }
    if (lanes == kLanes) {
      kernel(pointers, sizes, out + k);
    } else {
      for (size_t j = lanes; j < kLanes; ++j) {
        pointers[j] = pointers[0];  // an empty lane reads nothing
        sizes[j] = 0;
      }
      uint64_t padded[kLanes];
      kernel(pointers, sizes, padded);
      std::copy(padded, padded + lanes, out + k);
    }
    for (; long_values != 0; long_values &= long_values - 1) {
      const size_t j = static_cast<size_t>(__builtin_ctz(long_values));
      out[k + j] = Xxh64(values.data(k + j), values.size(k + j), 0);
    }
  }
}

template <size_t kLanes, typename Values>
void HashInLanes(LanesKernel kernel, const Values& values, size_t count, uint64_t* out) {
  HashInLanes<kLanes>(kernel, values, count, out,
                      [&values](size_t k, const uint8_t** pointers, uint64_t* sizes) {
                        return LanesOneByOne(values, k, kLanes, pointers, sizes);
                      });
}
}  // namespace

// Values below 32 bytes hashed side by side, one per 64-bit lane: XXH64 is a chain of 64-bit
// multiplies per value, which AVX-512 does for eight lanes at once. Each value is read with one
// masked load of its own bytes (no byte past it is touched, none can fault), eight values are
// transposed so that register w holds every value's word w, and each step of the algorithm
// applies to the lanes whose length calls for it: no sorting by length.
// GCC 12's AVX-512 headers start some intrinsics from an "undefined" register, which
// -Wmaybe-uninitialized reports inside the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
namespace {
namespace avx512 {

PFI_TARGET_AVX512 inline __m512i Splat(uint64_t v) {
  return _mm512_set1_epi64(static_cast<long long>(v));
}

PFI_TARGET_AVX512 inline __m512i MulV(__m512i a, uint64_t prime) {
  return _mm512_mullo_epi64(a, Splat(prime));
}

// Lanes of kChains x 8 values: each hash is a long chain of dependent multiplies (vpmullq
// takes 15 cycles on Intel's cores), so independent registers are interleaved to keep the
// multiplier busy. Four chains cover the multiply's latency; more would spill registers.
constexpr size_t kChains = 4;
constexpr size_t kLanes = 8 * kChains;

// `sizes` < 32 each; writes the kLanes hashes to out[0, kLanes).
PFI_TARGET_AVX512 void HashShortLanes(const uint8_t* const* pointers, const uint64_t* sizes,
                                      uint64_t* out) {
  const __m512i w01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i w23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  __m512i words[kChains][4];
  __m512i size[kChains];
  __m512i h[kChains];
  __m512i tail[kChains];
  __m512i rest[kChains];
  for (size_t c = 0; c < kChains; ++c) {
    // Value j's words w0..w3 (zero past its bytes) in a 256-bit half; two values a register.
    __m512i pairs[4];
    for (size_t p = 0; p < 4; ++p) {
      const size_t j = 8 * c + 2 * p;
      const __m256i first = _mm256_maskz_loadu_epi8(
          _bzhi_u32(~0u, static_cast<unsigned>(sizes[j])), pointers[j]);
      const __m256i second = _mm256_maskz_loadu_epi8(
          _bzhi_u32(~0u, static_cast<unsigned>(sizes[j + 1])), pointers[j + 1]);
      pairs[p] = _mm512_inserti64x4(_mm512_castsi256_si512(first), second, 1);
    }
    // Transposed: words[c][w] = (word w of value 0, ..., word w of value 7).
    const __m512i w01_a = _mm512_permutex2var_epi64(pairs[0], w01, pairs[1]);
    const __m512i w01_b = _mm512_permutex2var_epi64(pairs[2], w01, pairs[3]);
    const __m512i w23_a = _mm512_permutex2var_epi64(pairs[0], w23, pairs[1]);
    const __m512i w23_b = _mm512_permutex2var_epi64(pairs[2], w23, pairs[3]);
    words[c][0] = _mm512_shuffle_i64x2(w01_a, w01_b, 0x44);
    words[c][1] = _mm512_shuffle_i64x2(w01_a, w01_b, 0xEE);
    words[c][2] = _mm512_shuffle_i64x2(w23_a, w23_b, 0x44);
    words[c][3] = _mm512_shuffle_i64x2(w23_a, w23_b, 0xEE);
    size[c] = _mm512_loadu_si512(sizes + 8 * c);
    h[c] = _mm512_add_epi64(size[c], Splat(kPrime5));  // seed 0
    tail[c] = words[c][0];
  }
  // Whole 8-byte words; `tail` ends as each lane's word after its last whole one.
  // The loops stop where no lane has more (values of one length skip the masked-off steps).
  for (size_t w = 0; w < 3; ++w) {
    __mmask8 whole[kChains];
    unsigned any = 0;
    for (size_t c = 0; c < kChains; ++c) {
      whole[c] = _mm512_cmpge_epu64_mask(size[c], Splat(8 * (w + 1)));
      any |= whole[c];
    }
    if (any == 0) break;
    for (size_t c = 0; c < kChains; ++c) {
      const __m512i k = MulV(_mm512_rol_epi64(MulV(words[c][w], kPrime2), 31), kPrime1);
      const __m512i next = _mm512_add_epi64(
          MulV(_mm512_rol_epi64(_mm512_xor_si512(h[c], k), 27), kPrime1), Splat(kPrime4));
      h[c] = _mm512_mask_mov_epi64(h[c], whole[c], next);
      tail[c] = _mm512_mask_mov_epi64(tail[c], whole[c], words[c][w + 1]);
    }
  }
  // One 4-byte word where 4 or more bytes are left, then the last 0-3 bytes one at a time.
  for (size_t c = 0; c < kChains; ++c) {
    rest[c] = _mm512_and_si512(size[c], Splat(7));
    const __mmask8 four = _mm512_cmpge_epu64_mask(rest[c], Splat(4));
    const __m512i word = _mm512_and_si512(tail[c], Splat(0xFFFFFFFFu));
    const __m512i next = _mm512_add_epi64(
        MulV(_mm512_rol_epi64(_mm512_xor_si512(h[c], MulV(word, kPrime1)), 23), kPrime2),
        Splat(kPrime3));
    h[c] = _mm512_mask_mov_epi64(h[c], four, next);
    tail[c] = _mm512_mask_srli_epi64(tail[c], four, tail[c], 32);
    rest[c] = _mm512_mask_sub_epi64(rest[c], four, rest[c], Splat(4));
  }
  for (uint64_t b = 0; b < 3; ++b) {
    __mmask8 more[kChains];
    unsigned any = 0;
    for (size_t c = 0; c < kChains; ++c) {
      more[c] = _mm512_cmpgt_epu64_mask(rest[c], Splat(b));
      any |= more[c];
    }
    if (any == 0) break;
    for (size_t c = 0; c < kChains; ++c) {
      const __m512i byte = _mm512_and_si512(tail[c], Splat(0xFF));
      const __m512i next =
          MulV(_mm512_rol_epi64(_mm512_xor_si512(h[c], MulV(byte, kPrime5)), 11), kPrime1);
      h[c] = _mm512_mask_mov_epi64(h[c], more[c], next);
      tail[c] = _mm512_srli_epi64(tail[c], 8);
    }
  }
  for (size_t c = 0; c < kChains; ++c) {
    __m512i x = h[c];
    x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 33));
    x = MulV(x, kPrime2);
    x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 29));
    x = MulV(x, kPrime3);
    x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 32));
    _mm512_storeu_si512(out + 8 * c, x);
  }
}

// Eight offsets widened to 64-bit lanes (offsets do not decrease from 0: unsigned).
PFI_TARGET_AVX512 inline __m512i LoadOffsets(const int32_t* p) {
  return _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
PFI_TARGET_AVX512 inline __m512i LoadOffsets(const int64_t* p) { return _mm512_loadu_si512(p); }

// What LanesOneByOne makes for a whole group (`offsets` at its first value), from Arrow's
// offsets eight lanes at a time: made one by one they took a fifth of the hashing time.
template <typename Offset>
PFI_TARGET_AVX512 uint32_t OffsetLanes(const char* data, const Offset* offsets,
                                       const uint8_t** pointers, uint64_t* sizes) {
  const __m512i base = Splat(reinterpret_cast<uintptr_t>(data));
  uint32_t long_values = 0;
  for (size_t g = 0; g < kLanes; g += 8) {
    const __m512i begin = LoadOffsets(offsets + g);
    const __m512i size = _mm512_sub_epi64(LoadOffsets(offsets + g + 1), begin);
    const __mmask8 is_long = _mm512_cmpge_epu64_mask(size, Splat(32));
    long_values |= static_cast<uint32_t>(is_long) << g;
    _mm512_storeu_si512(sizes + g, _mm512_maskz_mov_epi64(static_cast<__mmask8>(~is_long), size));
    _mm512_storeu_si512(pointers + g, _mm512_add_epi64(base, begin));
  }
  return long_values;
}

template <typename Offset>
void HashOffsetsInLanes(const char* data, const Offset* offsets, size_t count, uint64_t* out) {
  HashInLanes<kLanes>(HashShortLanes, ArrowValues(data, offsets), count, out,
                      [data, offsets](size_t k, const uint8_t** pointers, uint64_t* sizes) {
                        return OffsetLanes(data, offsets + k, pointers, sizes);
                      });
}

}  // namespace avx512
}  // namespace

namespace detail {
PFI_TARGET_AVX512 void Xxh64ManyAvx512(const std::string_view* values, size_t count,
                                       uint64_t* out) {
  HashInLanes<avx512::kLanes>(avx512::HashShortLanes, ViewValues{values}, count, out);
}
PFI_TARGET_AVX512 void Xxh64ManyAvx512(const char* data, const int32_t* offsets, size_t count,
                                       uint64_t* out) {
  avx512::HashOffsetsInLanes(data, offsets, count, out);
}
PFI_TARGET_AVX512 void Xxh64ManyAvx512(const char* data, const int64_t* offsets, size_t count,
                                       uint64_t* out) {
  avx512::HashOffsetsInLanes(data, offsets, count, out);
}
}  // namespace detail
#pragma GCC diagnostic pop

// The same lanes with AVX2, four values a register: for CPUs without AVX-512, or whose
// hypervisor hides it (the production Zen 4 VMs report avx2 and bmi2 only). AVX2 has neither a
// 64-bit multiply nor a rotate, so a multiply by a prime is made of 32-bit ones and a
// rotate of two shifts; three chains of registers are interleaved to keep the multipliers busy
// (two leave them idle). One kernel serves every length below 32 bytes, with blends: a kernel
// per exact length would need the values grouped by length first, which costs more than the
// blends and wasted steps it saves.
namespace {
namespace avx2 {

PFI_TARGET_AVX2 inline __m256i Splat(uint64_t v) {
  return _mm256_set1_epi64x(static_cast<long long>(v));
}

// a * prime (mod 2^64) from 32-bit halves: lo*lo + ((hi*lo + lo*hi) << 32); hi*hi only
// reaches bits past 64. Both cross products come from one 32-bit multiply against the prime's
// swapped halves: on Zen (the target) vpmulld is as fast as vpmuludq, so one vpmulld gives both
// cross products where another vpmuludq and its shuffles would be needed.
PFI_TARGET_AVX2 inline __m256i MulV(__m256i a, uint64_t prime) {
  const __m256i prime_lo = Splat(prime & 0xFFFFFFFFu);
  const __m256i swapped = Splat((prime << 32) | (prime >> 32));
  const __m256i cross = _mm256_mullo_epi32(a, swapped);  // (lo*hi, hi*lo) mod 2^32 each
  const __m256i cross_sum = _mm256_add_epi64(
      _mm256_slli_epi64(cross, 32), _mm256_and_si256(cross, Splat(0xFFFFFFFF00000000ULL)));
  return _mm256_add_epi64(_mm256_mul_epu32(a, prime_lo), cross_sum);
}

// Same for a < 2^32 (only each lane's low half is read): a*hi is the only cross term.
PFI_TARGET_AVX2 inline __m256i MulLowHalf(__m256i a, uint64_t prime) {
  return _mm256_add_epi64(_mm256_mul_epu32(a, Splat(prime & 0xFFFFFFFFu)),
                          _mm256_slli_epi64(_mm256_mul_epu32(a, Splat(prime >> 32)), 32));
}

template <int kBits>
PFI_TARGET_AVX2 inline __m256i RotateLeftV(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi64(x, kBits), _mm256_srli_epi64(x, 64 - kBits));
}

// Lanes of `mask` (all ones or all zeros each) from `yes`, the others from `no`.
PFI_TARGET_AVX2 inline __m256i Select(__m256i mask, __m256i yes, __m256i no) {
  return _mm256_blendv_epi8(no, yes, mask);
}

PFI_TARGET_AVX2 inline bool AnyLane(__m256i mask) {
  return _mm256_movemask_pd(_mm256_castsi256_pd(mask)) != 0;
}

// The 32 bytes from `p`, of which the first `size` (< 32) are the value's; the steps below never
// use the others. AVX2 cannot mask a load by byte, so this reads past the value: only where that
// cannot fault, i.e. the 32 bytes end on the page of the value's last byte (pages are 4 KiB or
// a multiple). Otherwise (only a value within 31 bytes of a page's end) it is copied out
// first. Reading those extra bytes is intended, so ASan does not check this load (the copy is
// checked).
constexpr uintptr_t kMinPageSize = 4096;

PFI_TARGET_AVX2 __attribute__((no_sanitize_address)) inline __m256i LoadShort(const uint8_t* p,
                                                                              size_t size) {
  if (size == 0) return _mm256_setzero_si256();  // `p` may be null or point anywhere
  const uintptr_t last_byte = reinterpret_cast<uintptr_t>(p) + size - 1;
  const uintptr_t last_loaded = reinterpret_cast<uintptr_t>(p) + 31;
  if ((last_byte ^ last_loaded) < kMinPageSize) {  // same page
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  alignas(32) uint8_t copy[32] = {};
  std::memcpy(copy, p, size);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(copy));
}

constexpr size_t kChains = 3;
constexpr size_t kLanes = 4 * kChains;

// `sizes` < 32 each (0 for a lane to skip); writes the kLanes hashes to out[0, kLanes).
// The steps follow avx512::HashShortLanes, a blend by a compare mask in place of a mask register.
PFI_TARGET_AVX2 void HashShortLanes(const uint8_t* const* pointers, const uint64_t* sizes,
                                    uint64_t* out) {
  __m256i words[kChains][4];
  __m256i size[kChains];
  __m256i h[kChains];
  __m256i tail[kChains];
  __m256i rest[kChains];
  for (size_t c = 0; c < kChains; ++c) {
    const size_t j = 4 * c;
    const __m256i v0 = LoadShort(pointers[j], sizes[j]);
    const __m256i v1 = LoadShort(pointers[j + 1], sizes[j + 1]);
    const __m256i v2 = LoadShort(pointers[j + 2], sizes[j + 2]);
    const __m256i v3 = LoadShort(pointers[j + 3], sizes[j + 3]);
    // Transposed: words[c][w] = (word w of value 0, ..., word w of value 3).
    const __m256i even01 = _mm256_unpacklo_epi64(v0, v1);  // words 0 and 2 of values 0, 1
    const __m256i odd01 = _mm256_unpackhi_epi64(v0, v1);   // words 1 and 3
    const __m256i even23 = _mm256_unpacklo_epi64(v2, v3);
    const __m256i odd23 = _mm256_unpackhi_epi64(v2, v3);
    words[c][0] = _mm256_permute2x128_si256(even01, even23, 0x20);
    words[c][1] = _mm256_permute2x128_si256(odd01, odd23, 0x20);
    words[c][2] = _mm256_permute2x128_si256(even01, even23, 0x31);
    words[c][3] = _mm256_permute2x128_si256(odd01, odd23, 0x31);
    size[c] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sizes + j));
    h[c] = _mm256_add_epi64(size[c], Splat(kPrime5));  // seed 0
    tail[c] = words[c][0];
  }
  // Whole 8-byte words; `tail` ends as each lane's word after its last whole one. Sizes are
  // below 32, so the signed compares are exact.
  for (size_t w = 0; w < 3; ++w) {
    __m256i whole[kChains];
    bool any = false;
    for (size_t c = 0; c < kChains; ++c) {
      whole[c] = _mm256_cmpgt_epi64(size[c], Splat(8 * (w + 1) - 1));
      any |= AnyLane(whole[c]);
    }
    if (!any) break;
    for (size_t c = 0; c < kChains; ++c) {
      const __m256i k = MulV(RotateLeftV<31>(MulV(words[c][w], kPrime2)), kPrime1);
      const __m256i next = _mm256_add_epi64(
          MulV(RotateLeftV<27>(_mm256_xor_si256(h[c], k)), kPrime1), Splat(kPrime4));
      h[c] = Select(whole[c], next, h[c]);
      tail[c] = Select(whole[c], words[c][w + 1], tail[c]);
    }
  }
  // One 4-byte word where 4 or more bytes are left, then the last 0-3 bytes one at a time.
  {
    __m256i four[kChains];
    bool any = false;
    for (size_t c = 0; c < kChains; ++c) {
      rest[c] = _mm256_and_si256(size[c], Splat(7));
      four[c] = _mm256_cmpgt_epi64(rest[c], Splat(3));
      any |= AnyLane(four[c]);
    }
    if (any) {
      for (size_t c = 0; c < kChains; ++c) {
        const __m256i next = _mm256_add_epi64(
            MulV(RotateLeftV<23>(_mm256_xor_si256(h[c], MulLowHalf(tail[c], kPrime1))),
                 kPrime2),
            Splat(kPrime3));
        h[c] = Select(four[c], next, h[c]);
        tail[c] = Select(four[c], _mm256_srli_epi64(tail[c], 32), tail[c]);
        rest[c] = _mm256_sub_epi64(rest[c], _mm256_and_si256(four[c], Splat(4)));
      }
    }
  }
  for (uint64_t b = 0; b < 3; ++b) {
    __m256i more[kChains];
    bool any = false;
    for (size_t c = 0; c < kChains; ++c) {
      more[c] = _mm256_cmpgt_epi64(rest[c], Splat(b));
      any |= AnyLane(more[c]);
    }
    if (!any) break;
    for (size_t c = 0; c < kChains; ++c) {
      const __m256i byte = _mm256_and_si256(tail[c], Splat(0xFF));
      const __m256i next = MulV(
          RotateLeftV<11>(_mm256_xor_si256(h[c], MulLowHalf(byte, kPrime5))), kPrime1);
      h[c] = Select(more[c], next, h[c]);
      tail[c] = _mm256_srli_epi64(tail[c], 8);
    }
  }
  for (size_t c = 0; c < kChains; ++c) {
    __m256i x = h[c];
    x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 33));
    x = MulV(x, kPrime2);
    x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 29));
    x = MulV(x, kPrime3);
    x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 32));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4 * c), x);
  }
}

}  // namespace avx2
}  // namespace

namespace detail {
PFI_TARGET_AVX2 void Xxh64ManyAvx2(const std::string_view* values, size_t count, uint64_t* out) {
  HashInLanes<avx2::kLanes>(avx2::HashShortLanes, ViewValues{values}, count, out);
}
PFI_TARGET_AVX2 void Xxh64ManyAvx2(const char* data, const int32_t* offsets, size_t count,
                                   uint64_t* out) {
  HashInLanes<avx2::kLanes>(avx2::HashShortLanes, ArrowValues(data, offsets), count, out);
}
PFI_TARGET_AVX2 void Xxh64ManyAvx2(const char* data, const int64_t* offsets, size_t count,
                                   uint64_t* out) {
  HashInLanes<avx2::kLanes>(avx2::HashShortLanes, ArrowValues(data, offsets), count, out);
}
}  // namespace detail
#endif  // PFI_X86_KERNELS

namespace detail {

// A counting sort of the values by tail length (size % 32), then one tight scalar loop per
// length (on CPUs without AVX2). The counting pass also prefetches the values in memory order:
// the hashing passes visit them out of order, which the hardware prefetcher would not follow.
void Xxh64ManySorted(const std::string_view* values, size_t count, uint64_t* out) {
  uint16_t starts[33] = {};
  for (size_t i = 0; i < count; ++i) {
    __builtin_prefetch(values[i].data());
    ++starts[(values[i].size() & 31) + 1];
  }
  for (size_t t = 0; t < 32; ++t) {
    if (starts[t + 1] == count) {  // one length for all (fixed-width keys): no sorting
      kSameTails[t](values, nullptr, 0, count, out);
      return;
    }
    starts[t + 1] = static_cast<uint16_t>(starts[t + 1] + starts[t]);
  }
  uint16_t order[kXxh64ManyMax];
  uint16_t fill[32];
  std::copy(starts, starts + 32, fill);
  for (size_t i = 0; i < count; ++i) order[fill[values[i].size() & 31]++] = static_cast<uint16_t>(i);
  for (size_t t = 0; t < 32; ++t) {
    if (starts[t] != starts[t + 1]) kSameTails[t](values, order, starts[t], starts[t + 1], out);
  }
}

template <typename Offset>
void Xxh64ManySortedOffsets(const char* data, const Offset* offsets, size_t count,
                            uint64_t* out) {
  std::string_view values[kXxh64ManyMax];
  for (size_t i = 0; i < count; ++i) {
    values[i] =
        std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
  Xxh64ManySorted(values, count, out);
}
void Xxh64ManySorted(const char* data, const int32_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySortedOffsets(data, offsets, count, out);
}
void Xxh64ManySorted(const char* data, const int64_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySortedOffsets(data, offsets, count, out);
}

#if defined(PFI_X86_KERNELS)
bool HasAvx512Kernel() { return cpu::Features().HasAvx512(); }
bool HasAvx2Kernel() { return cpu::Features().HasAvx2(); }
#else
bool HasAvx512Kernel() { return false; }
bool HasAvx2Kernel() { return false; }
// Never picked (the Has*Kernel above are false); defined so callers link on every target.
void Xxh64ManyAvx512(const std::string_view* values, size_t count, uint64_t* out) {
  Xxh64ManySorted(values, count, out);
}
void Xxh64ManyAvx2(const std::string_view* values, size_t count, uint64_t* out) {
  Xxh64ManySorted(values, count, out);
}
void Xxh64ManyAvx512(const char* data, const int32_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySorted(data, offsets, count, out);
}
void Xxh64ManyAvx512(const char* data, const int64_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySorted(data, offsets, count, out);
}
void Xxh64ManyAvx2(const char* data, const int32_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySorted(data, offsets, count, out);
}
void Xxh64ManyAvx2(const char* data, const int64_t* offsets, size_t count, uint64_t* out) {
  Xxh64ManySorted(data, offsets, count, out);
}
#endif

}  // namespace detail

namespace {

// The widest kernel this CPU runs: AVX-512, else AVX2, else the scalar grouped one.
template <typename... Args>
auto PickMany() -> void (*)(Args..., size_t, uint64_t*) {
  if (detail::HasAvx512Kernel()) return detail::Xxh64ManyAvx512;
  if (detail::HasAvx2Kernel()) return detail::Xxh64ManyAvx2;
  return detail::Xxh64ManySorted;
}

}  // namespace

void Xxh64Many(const std::string_view* values, size_t count, uint64_t* out) {
  static const auto many = PickMany<const std::string_view*>();
  many(values, count, out);
}

void Xxh64Many(const char* data, const int32_t* offsets, size_t count, uint64_t* out) {
  static const auto many = PickMany<const char*, const int32_t*>();
  many(data, offsets, count, out);
}

void Xxh64Many(const char* data, const int64_t* offsets, size_t count, uint64_t* out) {
  static const auto many = PickMany<const char*, const int64_t*>();
  many(data, offsets, count, out);
}

}  // namespace pyfileindex::hash
