// The k bit positions Paimon's BloomFilter64 derives from one 64-bit hash, and the bit set
// addressing (bit p lives in byte p >> 3 at mask 1 << (p & 7), least significant bit first).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyfileindex::index::bloom_filter {

class BloomProbes {
 public:
  // `num_bits` > 0, `num_hash_functions` >= 0.
  BloomProbes(uint32_t num_bits, int32_t num_hash_functions)
      : num_bits_(num_bits),
        num_hash_functions_(num_hash_functions),
        // Lemire's fastmod constant: exact remainder for every 32-bit numerator, no division.
        mod_multiplier_(~uint64_t{0} / num_bits + 1),
        quotient_shift_(31 + CeilLog2(num_bits)),
        quotient_magic_((uint64_t{1} << quotient_shift_) / num_bits + 1) {}

  uint32_t num_bits() const { return num_bits_; }
  int32_t num_hash_functions() const { return num_hash_functions_; }

  // Java: h1 = (int) hash, h2 = (int) (hash >>> 32); for i in 1..k: c = h1 + i * h2 (int
  // wrap-around); if c < 0 then c = ~c; position = c % numBits. Calls visit(position) for each
  // probe in order; stops early (returning false) when visit returns false.
  template <typename Visit>
  bool ForEachPosition(uint64_t hash, Visit&& visit) const {
    const uint32_t h1 = static_cast<uint32_t>(hash);
    const uint32_t h2 = static_cast<uint32_t>(hash >> 32);
    uint32_t combined = h1;
    for (int32_t i = 1; i <= num_hash_functions_; ++i) {
      combined += h2;  // h1 + i*h2 in 32-bit wrap-around arithmetic
      // Negative as an int: flip all bits (not negate). Branch-free: the sign is random.
      const uint32_t c = combined ^ static_cast<uint32_t>(static_cast<int32_t>(combined) >> 31);
      if (!visit(Mod(c))) return false;
    }
    return true;
  }

  // Sets the k bits of `hash` in `bits` (num_bits / 8 bytes).
  void Add(uint64_t hash, uint8_t* bits) const {
    ForEachPosition(hash, [bits](uint32_t pos) {
      bits[pos >> 3] |= static_cast<uint8_t>(1u << (pos & 7));
      return true;
    });
  }

  // Add() for `count` hashes (bloom_probes.cc). With AVX2 the positions of eight hashes are
  // computed at once and then set; otherwise hash by hash.
  void AddMany(const uint64_t* hashes, size_t count, uint8_t* bits) const;

  // Add() hash by hash: the reference AddMany must agree with, and its path without AVX2.
  void AddManyScalar(const uint64_t* hashes, size_t count, uint8_t* bits) const;

  void Prefetch(uint64_t hash, const uint8_t* bits) const {
    ForEachPosition(hash, [bits](uint32_t pos) {
      __builtin_prefetch(bits + (pos >> 3), 1);
      return true;
    });
  }

  // True when all k bits of `hash` are set: the value may be present.
  bool MightContain(uint64_t hash, const uint8_t* bits) const {
    return ForEachPosition(hash, [bits](uint32_t pos) {
      return ((bits[pos >> 3] >> (pos & 7)) & 1) != 0;
    });
  }

 private:
  friend class BloomProbesAvx2;

  uint32_t Mod(uint32_t value) const {
    const uint64_t low_bits = mod_multiplier_ * value;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(low_bits) * num_bits_) >> 64);
  }

  static int CeilLog2(uint32_t x) {
    int bits = 0;
    while ((uint64_t{1} << bits) < x) ++bits;
    return bits;
  }

  uint32_t num_bits_;
  int32_t num_hash_functions_;
  uint64_t mod_multiplier_;
  // For 0 <= c < 2^31: c / num_bits == (c * quotient_magic_) >> quotient_shift_, whose product
  // fits 63 bits; the vector path multiplies 32-bit lanes with it. With l = ceil(log2 num_bits)
  // the shift is 31 + l and the magic floor(2^(31 + l) / num_bits) + 1 < 2^32 (for
  // num_bits < 2^31); magic * num_bits then exceeds 2^(31 + l) by at most num_bits <= 2^l,
  // which keeps the quotient exact for every 31-bit c (Granlund and Montgomery, 1994, 4.2).
  // Mod keeps Lemire's constant for the scalar probes: a shift by a variable count costs more
  // than a product's high half.
  int quotient_shift_;
  uint64_t quotient_magic_;
};

}  // namespace pyfileindex::index::bloom_filter
