// The row span of one roaring container: the rows that share the high 16 bits of a 32-bit
// row number. Writers cut their rows at these boundaries, since every per-key (or per-slice)
// container is built and closed one span at a time, and readers walk payloads span by span.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyfileindex::roaring {

inline constexpr uint32_t kRowsPerContainer = uint32_t{1} << 16;
// A container's rows as a bitset of 64-bit words (the bitmap container's layout).
inline constexpr size_t kBlockWords = kRowsPerContainer / 64;

}  // namespace pyfileindex::roaring
