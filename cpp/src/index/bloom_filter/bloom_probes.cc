#include "index/bloom_filter/bloom_probes.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PFI_BLOOM_AVX2 1
#endif

namespace pyfileindex::index::bloom_filter {

void BloomProbes::AddManyScalar(const uint64_t* hashes, size_t count, uint8_t* bits) const {
  // A local copy of the shape keeps it in registers: the byte stores could alias `this` as
  // far as the compiler knows, and reloading it after each store serializes the probes.
  const BloomProbes shape = *this;
  const bool prefetch = num_bits_ / 8 >= kPrefetchMinBytes;  // the same for every hash
  for (size_t i = 0; i < count; ++i) {
    if (prefetch && i + kPrefetchAhead < count) shape.Prefetch(hashes[i + kPrefetchAhead], bits);
    // A hash equal to the one before it is skipped: its bits are set already, and in sorted
    // columns re-setting them would chain each read-modify-write to the previous one.
    if (i > 0 && hashes[i] == hashes[i - 1]) continue;
    shape.Add(hashes[i], bits);
  }
}

#if defined(PFI_BLOOM_AVX2)
// Positions eight hashes at a time. Per hash and probe the scalar path spends about ten
// instructions on the position (two 64-bit multiplies for the remainder) and five on setting
// the bit; here the remainder is a double-precision quotient, four lanes an instruction, and
// the bits are then set from the positions in a tight loop. Setting stays scalar: AVX2 has no
// scatter, and probes of one block rarely share a byte. Hashes equal to the one before are set
// again (RecentHashes drops those of clustered columns before).
class BloomProbesAvx2 {
 public:
  // Beyond, and for bit sets large enough to prefetch: the scalar path.
  static constexpr int32_t kMaxHashFunctions = 32;
  static bool Suits(const BloomProbes& shape) {
    return shape.num_hash_functions_ <= kMaxHashFunctions &&
           shape.num_bits_ / 8 < BloomProbes::kPrefetchMinBytes;
  }

  __attribute__((target("avx2"))) static void AddMany(const BloomProbes& shape,
                                                      const uint64_t* hashes, size_t count,
                                                      uint8_t* bits) {
    const int32_t k = shape.num_hash_functions_;
    const uint32_t num_bits = shape.num_bits_;
    // c / num_bits for c < 2^31 from a double quotient: its error is below 2^31 * 2^-52, far
    // less than 1 / num_bits, so truncating gives the quotient or, when num_bits divides c
    // exactly and the product rounds down, one less (remainder num_bits, fixed below).
    const __m256d inverse = _mm256_set1_pd(1.0 / static_cast<double>(num_bits));
    const __m256i modulus = _mm256_set1_epi32(static_cast<int32_t>(num_bits));
    const __m256i last = _mm256_set1_epi32(static_cast<int32_t>(num_bits - 1));
    const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    alignas(32) uint32_t positions[8 * kMaxHashFunctions];
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
      // h1 (low halves) and h2 (high halves) of the eight hashes, one 32-bit lane each.
      const __m256i a = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hashes + i)), split);
      const __m256i b = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hashes + i + 4)), split);
      const __m256i h2 = _mm256_permute2x128_si256(a, b, 0x31);
      __m256i combined = _mm256_permute2x128_si256(a, b, 0x20);  // h1
      for (int32_t probe = 0; probe < k; ++probe) {
        combined = _mm256_add_epi32(combined, h2);
        // Negative as an int: all bits flipped. Then 0 <= c < 2^31.
        const __m256i c = _mm256_xor_si256(combined, _mm256_srai_epi32(combined, 31));
        const __m128i q_low = _mm256_cvttpd_epi32(
            _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(c)), inverse));
        const __m128i q_high = _mm256_cvttpd_epi32(
            _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(c, 1)), inverse));
        const __m256i q = _mm256_set_m128i(q_high, q_low);
        __m256i r = _mm256_sub_epi32(c, _mm256_mullo_epi32(q, modulus));
        r = _mm256_sub_epi32(r, _mm256_and_si256(_mm256_cmpgt_epi32(r, last), modulus));
        _mm256_store_si256(reinterpret_cast<__m256i*>(positions + 8 * probe), r);
      }
      const size_t n = 8 * static_cast<size_t>(k);
      for (size_t j = 0; j < n; ++j) {
        const uint32_t p = positions[j];
        bits[p >> 3] |= static_cast<uint8_t>(1u << (p & 7));
      }
    }
    shape.AddManyScalar(hashes + i, count - i, bits);
  }
};

namespace {
bool HasAvx2() {
  __builtin_cpu_init();  // may run before libgcc's own constructor has
  return __builtin_cpu_supports("avx2");
}
}  // namespace

void BloomProbes::AddMany(const uint64_t* hashes, size_t count, uint8_t* bits) const {
  static const bool avx2 = HasAvx2();
  if (avx2 && BloomProbesAvx2::Suits(*this)) {
    BloomProbesAvx2::AddMany(*this, hashes, count, bits);
  } else {
    AddManyScalar(hashes, count, bits);
  }
}
#else
void BloomProbes::AddMany(const uint64_t* hashes, size_t count, uint8_t* bits) const {
  AddManyScalar(hashes, count, bits);
}
#endif

}  // namespace pyfileindex::index::bloom_filter
