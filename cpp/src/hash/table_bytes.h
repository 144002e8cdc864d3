// Hashing and comparing byte strings for the writers' own hash tables (not Java's hashes):
// short keys (ids, codes, names of 8-32 bytes) are the common case, so both are inline and
// never call into libc for a variable-length copy or compare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/endian.h"

namespace pyfileindex::hash {

namespace table_bytes_internal {

// The keys of 8 to 32 bytes (most ids, codes and names) are read as four 8-byte words whose
// places depend on the length alone: [0, 8), [8, 16), [n - 16, n - 8) and [n - 8, n), the
// middle two moved inside the key when it is shorter than 16 (they then repeat the others).
// Together they cover every byte, with no branch on the length: keys of mixed lengths would
// mispredict a loop exit and a tail case a row.
constexpr size_t kWordKeyMin = 8;
constexpr size_t kWordKeyMax = 32;
inline bool IsWordKey(size_t n) { return n - kWordKeyMin <= kWordKeyMax - kWordKeyMin; }

struct KeyWords {
  uint64_t w0, w1, w2, w3;
};
inline KeyWords LoadKeyWords(const uint8_t* p, size_t n) {
  // The middle words' places as masks, not conditions: compilers turn `n >= 16 ? a : b`
  // into a branch here, mispredicted for keys of mixed lengths.
  const size_t long_key = size_t{0} - static_cast<size_t>(n >= 16);  // all ones or zero
  const size_t second = (n - 8) ^ (((n - 8) ^ 8) & long_key);      // 8, or n - 8
  const size_t third = (n - 16) & long_key;                          // n - 16, or 0
  return KeyWords{io::LoadU64LE(p), io::LoadU64LE(p + second), io::LoadU64LE(p + third),
                  io::LoadU64LE(p + n - 8)};
}

// Odd constants with well-spread bits, XORed into the factors so that no word of a key (nor
// the seed) makes a factor 0 by itself.
constexpr uint64_t kSpread[6] = {0x9E3779B97F4A7C15ull, 0xD1B54A32D192ED03ull,
                                 0x8CB92BA72F3D8DD7ull, 0xABC98388FB8FAC03ull,
                                 0xCA5A826395121157ull, 0x94D049BB133111EBull};

// The 128-bit product of a and b folded to 64 bits (its halves XORed): each bit of the
// result depends on many bits of both factors.
inline uint64_t Folded(uint64_t a, uint64_t b) {
  __extension__ using Product = unsigned __int128;
  const Product product = static_cast<Product>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

}  // namespace table_bytes_internal

// A fast, well-mixed 64-bit hash from a table's seed (hash/table_seed.h): keys of 8-32 bytes
// as folded products of their four words; others by MurmurHash64A-style mixing of 8-byte
// words, the 1..7 tail bytes loaded without a variable-length copy.
inline uint64_t TableBytesHash(uint64_t seed, std::string_view bytes) {
  constexpr uint64_t kMul = 0xC6A4A7935BD1E995ull;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  using table_bytes_internal::Folded;
  using table_bytes_internal::kSpread;
  if (table_bytes_internal::IsWordKey(n)) {
    // Two words a product, the two products folded into a third: three multiplies, two of
    // them side by side, where mixing word by word would chain eight dependent ones.
    const table_bytes_internal::KeyWords w = table_bytes_internal::LoadKeyWords(p, n);
    const uint64_t front = Folded(w.w0 ^ seed ^ kSpread[0], w.w1 ^ seed ^ kSpread[1]);
    const uint64_t back = Folded(w.w2 ^ seed ^ kSpread[2], w.w3 ^ seed ^ kSpread[3]);
    return Folded(front ^ n ^ kSpread[4], back ^ kSpread[5]);
  }
  auto mixed = [](uint64_t word) {
    uint64_t k = word * kMul;
    k ^= k >> 47;
    return k * kMul;
  };
  uint64_t h = seed ^ (n * kMul);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) h = (h ^ mixed(io::LoadU64LE(p + i))) * kMul;
  const size_t r = n - i;
  uint64_t tail = 0;
  if (r > 0) {
    const uint8_t* t = p + i;
    if (r >= 4) {  // two overlapping 4-byte loads cover 4..7 bytes
      tail = io::LoadU32LE(t) | (uint64_t{io::LoadU32LE(t + r - 4)} << 32);
    } else {
      tail = t[0] | (uint64_t{t[r / 2]} << 8) | (uint64_t{t[r - 1]} << 16);
    }
  }
  // The tail (all of a key below 8 bytes) goes through two folded products: one multiply of
  // it into h leaves keys that differ in a couple of tail bytes clustered in the top bits
  // (the slot), with more empty slots than random hashes leave.
  const uint64_t once = Folded(h ^ kSpread[4], tail ^ seed ^ kSpread[1]);
  return Folded(once ^ kSpread[2], n ^ kSpread[5]);
}

// a == b, for a table's probe loop: a libc memcmp call costs ~50 instructions per row on short
// keys (profiled), more than the rest of the lookup.
inline bool SameBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(a.data());
  const uint8_t* q = reinterpret_cast<const uint8_t*>(b.data());
  if (table_bytes_internal::IsWordKey(n)) {
    const table_bytes_internal::KeyWords x = table_bytes_internal::LoadKeyWords(p, n);
    const table_bytes_internal::KeyWords y = table_bytes_internal::LoadKeyWords(q, n);
    return ((x.w0 ^ y.w0) | (x.w1 ^ y.w1) | (x.w2 ^ y.w2) | (x.w3 ^ y.w3)) == 0;
  }
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
      if (io::LoadU64LE(p + i) != io::LoadU64LE(q + i)) return false;
    }
    return io::LoadU64LE(p + n - 8) == io::LoadU64LE(q + n - 8);  // overlapping tail
  }
  if (n >= 4) {
    return io::LoadU32LE(p) == io::LoadU32LE(q) &&
           io::LoadU32LE(p + n - 4) == io::LoadU32LE(q + n - 4);
  }
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

}  // namespace pyfileindex::hash
