// The bsi writer's tuning constants, in one place. None of them changes the bytes written
// (those follow Java's rules alone); they trade build time against the build's memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "roaring/container_span.h"

namespace pyfileindex::index::bsi::tuning {

// Rows whose keys are mapped from a batch at a time. The keys sit on the stack and stay in
// the first-level cache while their bits are set, whatever the caller's batch size.
inline constexpr int64_t kKeysPerBatch = 1024;

// Runs of equal values a container span keeps before its rows go to words, one per 64 rows and
// slot in use. A span whose values change at few rows (a sorted or clustered column) is
// cheaper as its runs (16 bytes each: 8 KiB at most), set into words one slot at a time when
// it is flushed, than as the 8 KiB of words of every slot in use.
inline constexpr size_t kMaxRunsPerSpan = 512;
static_assert(kMaxRunsPerSpan < roaring::kRowsPerContainer);

}  // namespace pyfileindex::index::bsi::tuning
