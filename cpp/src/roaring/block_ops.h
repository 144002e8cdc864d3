// Loops over one 65536-bit block of 1024 64-bit words (one roaring container's worth), the
// inner loops of the bit-slice writers, range-bitmap answers and unions, compiled three times
// on x86-64 (baseline; AVX2 + BMI2 + POPCNT; AVX-512 with VPOPCNTDQ, VBMI and VBMI2) and
// picked once at run time: the baseline ISA has neither wide vectors nor a popcount
// instruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roaring/container_span.h"

namespace pyfileindex::roaring {

// The most values an array container holds (CRoaring's DEFAULT_MAX_SIZE, Java's too): more
// are a bitmap container.
inline constexpr uint32_t kArrayMaxValues = 4096;

// One block of zero words: the stand-in for a container a bitmap does not have.
alignas(64) inline constexpr uint64_t kZeroBlock[kBlockWords] = {};

// Sets bits [begin, end) of `words` (bit v is bit v & 63 of words[v >> 6]): blocks filled from
// runs of rows.
inline void SetBitRange(uint64_t* words, uint64_t begin, uint64_t end) {
  for (uint64_t r = begin; r < end;) {
    const uint64_t bit = r & 63;
    const uint64_t take = 64 - bit < end - r ? 64 - bit : end - r;
    words[r >> 6] |= take == 64 ? ~uint64_t{0} : (((uint64_t{1} << take) - 1) << bit);
    r += take;
  }
}

struct BlockOps {
  // Set bits of a block, and the number of maximal runs of set bits.
  uint32_t (*cardinality)(const uint64_t* words);
  // The same for 1024 little-endian words at any alignment (a container in index bytes).
  uint32_t (*cardinality_of_bytes)(const uint8_t* words);
  void (*cardinality_and_runs)(const uint64_t* words, uint32_t* cardinality, uint32_t* runs);
  // The positions of the set bits, ascending, to out[0, cardinality); writes up to two
  // entries past them (`out` must have room for cardinality + 2).
  void (*positions)(const uint64_t* words, uint16_t* out);
  // out = e & (s ^ flip) word by word, with `s` read as 1024 little-endian words at any
  // alignment (a container in index bytes); returns the set bits of out.
  uint32_t (*and_flipped)(const uint8_t* s, uint64_t flip, const uint64_t* e, uint64_t* out);
  // The same over the words listed in idx[0, n) only (out's other words are left as they are).
  uint32_t (*and_flipped_at)(const uint8_t* s, uint64_t flip, const uint64_t* e, uint64_t* out,
                             const uint16_t* idx, uint32_t n);
  // positions() for a sparse block: only the words whose byte in `flags` (1024 bytes, 0 or
  // 1; the unflagged words must be zero) is 1 are read, and they and the flags are zeroed
  // behind it, so a block reused key after key is neither scanned nor cleared whole. `out`
  // needs room for the count + 2. Returns the count.
  uint32_t (*take_positions)(uint64_t* words, uint8_t* flags, uint16_t* out);
  // Sets the bits of `count` 16-bit little-endian values at any alignment (an array container
  // in index bytes) in `words`.
  void (*set_values)(uint64_t* words, const uint8_t* values, uint32_t count);
  // Whether `count` 16-bit little-endian values at any alignment ascend strictly (an array
  // container's rule, checked on every one read from bytes). No early exit: corrupt input is
  // the rare case.
  bool (*strictly_ascending)(const uint8_t* values, uint32_t count);
  const char* name;  // "baseline", "avx2", "avx512"
};

// The fastest variant this CPU runs.
const BlockOps& Ops();

// Every variant this CPU runs, the baseline first (tests hold each to the same models).
std::vector<const BlockOps*> SupportedOps();

}  // namespace pyfileindex::roaring
