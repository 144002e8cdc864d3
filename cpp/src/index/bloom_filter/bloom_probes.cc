#include "index/bloom_filter/bloom_probes.h"

#include "cpu/cpu_features.h"
#include "index/bloom_filter/tuning.h"

#if defined(PFI_X86_KERNELS)
#include <immintrin.h>
#endif

namespace pyfileindex::index::bloom_filter {

void BloomProbes::AddManyScalar(const uint64_t* hashes, size_t count, uint8_t* bits) const {
  // A local copy of the shape keeps it in registers: the byte stores could alias `this` as
  // far as the compiler knows, and reloading it after each store serializes the probes.
  const BloomProbes shape = *this;
  const bool prefetch = num_bits_ / 8 >= tuning::kPrefetchMinBitSetBytes;  // for every hash
  constexpr size_t kAhead = tuning::kPrefetchHashesAhead;
  for (size_t i = 0; i < count; ++i) {
    if (prefetch && i + kAhead < count) shape.Prefetch(hashes[i + kAhead], bits);
    // A hash equal to the one before it is skipped: its bits are set already, and in sorted
    // columns re-setting them would chain each read-modify-write to the previous one.
    if (i > 0 && hashes[i] == hashes[i - 1]) continue;
    shape.Add(hashes[i], bits);
  }
}

#if defined(PFI_X86_KERNELS)
// Positions eight hashes at a time. Per hash and probe the scalar path spends about ten
// instructions on the position (two 64-bit multiplies for the remainder) and five on setting
// the bit; here the remainder takes eight lanes a few instructions, and the bits are set from
// the positions in a tight loop. Setting stays scalar: AVX2 has no scatter, and probes of one
// block rarely share a byte. Hashes equal to the one before are set again (RecentHashes drops
// those of clustered columns before).
class BloomProbesAvx2 {
 public:
  // Beyond, and for bit sets large enough to prefetch: the scalar path.
  static constexpr int32_t kMaxHashFunctions = tuning::kMaxAvx2HashFunctions;
  static bool Suits(const BloomProbes& shape) {
    return shape.num_hash_functions_ <= kMaxHashFunctions &&
           shape.num_bits_ / 8 < tuning::kPrefetchMinBitSetBytes;
  }

  PFI_TARGET_AVX2 static void AddMany(const BloomProbes& shape,
                                      const uint64_t* hashes, size_t count,
                                      uint8_t* bits) {
    const int32_t k = shape.num_hash_functions_;
    // c / num_bits for c < 2^31 as (c * magic) >> shift (BloomProbes::quotient_magic_): exact,
    // in 64-bit lanes from 32-bit multiplies. A double-precision quotient (which needs a
    // correction step and two conversions each way) took three times as long.
    const __m256i magic = _mm256_set1_epi64x(static_cast<long long>(shape.quotient_magic_));
    const __m128i shift = _mm_cvtsi32_si128(shape.quotient_shift_);
    const __m256i modulus = _mm256_set1_epi32(static_cast<int32_t>(shape.num_bits_));
    const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    // Two buffers: the bits of the previous eight hashes are set while this step's positions
    // are stored. Read back right after their vector stores, positions wait for the stores to
    // reach the cache (a wide store does not forward to narrow loads).
    alignas(32) uint32_t positions[2][8 * kMaxHashFunctions];
    const size_t per_step = 8 * static_cast<size_t>(k);
    size_t pending = 0;  // positions of the previous step, in positions[previous]
    int current = 0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
      // h1 (low halves) and h2 (high halves) of the eight hashes, one 32-bit lane each.
      const __m256i a = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hashes + i)), split);
      const __m256i b = _mm256_permutevar8x32_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hashes + i + 4)), split);
      const __m256i h2 = _mm256_permute2x128_si256(a, b, 0x31);
      __m256i combined = _mm256_permute2x128_si256(a, b, 0x20);  // h1
      uint32_t* out = positions[current];
      for (int32_t probe = 0; probe < k; ++probe) {
        combined = _mm256_add_epi32(combined, h2);
        // Negative as an int: all bits flipped. Then 0 <= c < 2^31.
        const __m256i c = _mm256_xor_si256(combined, _mm256_srai_epi32(combined, 31));
        // Quotients of the even lanes, then of the odd ones (shifted down), each below 2^31.
        const __m256i q_even = _mm256_srl_epi64(_mm256_mul_epu32(c, magic), shift);
        const __m256i q_odd =
            _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(c, 32), magic), shift);
        const __m256i q = _mm256_blend_epi32(q_even, _mm256_slli_epi64(q_odd, 32), 0xAA);
        const __m256i r = _mm256_sub_epi32(c, _mm256_mullo_epi32(q, modulus));
        _mm256_store_si256(reinterpret_cast<__m256i*>(out + 8 * probe), r);
      }
      SetBits(positions[current ^ 1], pending, bits);
      pending = per_step;
      current ^= 1;
    }
    SetBits(positions[current ^ 1], pending, bits);
    shape.AddManyScalar(hashes + i, count - i, bits);
  }

 private:
  static void SetBits(const uint32_t* positions, size_t count, uint8_t* bits) {
    for (size_t j = 0; j < count; ++j) {
      const uint32_t p = positions[j];
      bits[p >> 3] |= static_cast<uint8_t>(1u << (p & 7));
    }
  }
};


void BloomProbes::AddMany(const uint64_t* hashes, size_t count, uint8_t* bits) const {
  static const bool avx2 = cpu::Features().HasAvx2();
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
