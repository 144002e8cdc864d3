// The word loops of the top-down range scan (code_range_scan.h) over one 65536-row block,
// compiled twice on x86-64 (baseline and AVX2) and picked once at run time, like block_ops.h.
//
// A step reads slice words `s` (1024 little-endian words, any alignment) and updates two row
// sets of the block: A (rows still tied with the lower bound's code prefix, or with both
// bounds' before they diverge) and B (tied with the upper bound's prefix). For each set X with
// masks (m, g, d): keep = s ^ m (rows whose slice bit is the bound's bit), `in` gains
// X & ~keep & g (rows now strictly inside the range), X becomes X & keep, and when d is set
// the whole of X moves into `in` (the bound's remaining bits cannot exclude anyone).
#pragma once

#include <cstdint>

#include "roaring/container_span.h"

namespace pyfileindex::index::slice_scan {

struct StepMasks {
  uint64_t a_flip, a_gain, a_done;
  uint64_t b_flip, b_gain, b_done;
};

// Step variants: which sets a step updates, and whether it can add rows to `in`.
inline int StepKind(bool a, bool b, bool gains) { return (a ? 1 : 0) | (b ? 2 : 0) | (gains ? 4 : 0); }

struct ScanOps {
  // Over all 1024 words, variant StepKind(...); a set the step does not update is left as it
  // is and counts as empty. `next`: the next step's slice words (prefetched along the way).
  // Return the words where A | B is still non-zero.
  uint32_t (*step[8])(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,
                      const StepMasks& m, const uint8_t* next);
  // The same over the words listed in idx[0, n) only (every other word of A and B is zero);
  // the words that become zero in both are dropped from idx. Return the new count.
  uint32_t (*step_sparse[8])(const uint8_t* s, uint64_t* a, uint64_t* b, uint64_t* in,
                             const StepMasks& m, uint16_t* idx, uint32_t n,
                             const uint8_t* next);
};

// The fastest variant this CPU runs.
const ScanOps& ScanOpsForCpu();

// At or below this many live words of a block a scan switches to the step_sparse
// variants, which read only the slice words under the listed words.
inline constexpr uint32_t kSparseWords = roaring::kBlockWords / 8;

namespace detail {
// Each variant on its own, for tests to hold them to one another: the portable one, and the
// AVX2 one (nullptr where this build or CPU has none).
const ScanOps& BaselineScanOps();
const ScanOps* Avx2ScanOps();
}  // namespace detail

}  // namespace pyfileindex::index::slice_scan
