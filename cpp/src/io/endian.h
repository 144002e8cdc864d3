// Fixed-width loads and stores in an explicit byte order, independent of the host's.
//
// Paimon's own structures are big-endian (java.io.DataOutputStream); portable roaring bitmaps and
// the BinaryString hash words are little-endian. memcpy keeps these free of alignment and
// aliasing problems; compilers turn them into single (byte-swapped) moves.
#pragma once

#include <cstdint>
#include <cstring>

namespace pyfileindex::io {

namespace endian_internal {

constexpr bool kHostIsLittleEndian =
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    false;
#else
    true;
#endif

inline uint16_t Swap(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }
inline uint32_t Swap(uint32_t v) { return __builtin_bswap32(v); }
inline uint64_t Swap(uint64_t v) { return __builtin_bswap64(v); }

template <typename U>
inline U Load(const uint8_t* p, bool little) {
  U v;
  std::memcpy(&v, p, sizeof(U));
  return little == kHostIsLittleEndian ? v : Swap(v);
}

template <typename U>
inline void Store(uint8_t* p, U v, bool little) {
  if (little != kHostIsLittleEndian) v = Swap(v);
  std::memcpy(p, &v, sizeof(U));
}

}  // namespace endian_internal

inline uint16_t LoadU16BE(const uint8_t* p) { return endian_internal::Load<uint16_t>(p, false); }
inline uint32_t LoadU32BE(const uint8_t* p) { return endian_internal::Load<uint32_t>(p, false); }
inline uint64_t LoadU64BE(const uint8_t* p) { return endian_internal::Load<uint64_t>(p, false); }
inline uint16_t LoadU16LE(const uint8_t* p) { return endian_internal::Load<uint16_t>(p, true); }
inline uint32_t LoadU32LE(const uint8_t* p) { return endian_internal::Load<uint32_t>(p, true); }
inline uint64_t LoadU64LE(const uint8_t* p) { return endian_internal::Load<uint64_t>(p, true); }

inline void StoreU16BE(uint8_t* p, uint16_t v) { endian_internal::Store(p, v, false); }
inline void StoreU32BE(uint8_t* p, uint32_t v) { endian_internal::Store(p, v, false); }
inline void StoreU64BE(uint8_t* p, uint64_t v) { endian_internal::Store(p, v, false); }
inline void StoreU16LE(uint8_t* p, uint16_t v) { endian_internal::Store(p, v, true); }
inline void StoreU32LE(uint8_t* p, uint32_t v) { endian_internal::Store(p, v, true); }
inline void StoreU64LE(uint8_t* p, uint64_t v) { endian_internal::Store(p, v, true); }

}  // namespace pyfileindex::io
