#include "hash/xxh64.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

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

void Xxh64Many(const std::string_view* values, size_t count, uint64_t* out) {
  // A counting sort of the values by tail length (size % 32), then one tight loop per length.
  // The counting pass also prefetches the values in memory order: the hashing passes visit
  // them out of order, which the hardware prefetcher would not follow.
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

}  // namespace pyfileindex::hash
