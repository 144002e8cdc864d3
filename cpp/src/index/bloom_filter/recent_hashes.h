// RecentHashes: drops hashes whose bits a bloom-filter writer has set already, as seen in a
// small direct-mapped table of recently added hashes.
//
// Low-cardinality columns (a status, a country) repeat a few values throughout a file: each
// repeat would redo the same k read-modify-writes. Setting bits is idempotent, so a hash
// found in the table can be skipped without changing a byte of the filter. The table is only
// consulted while it pays: a block where most hashes are new (high cardinality) pauses it
// for the next tuning::kRecentHashesPauseBlocks blocks, after which one block probes again.
#pragma once

#include <cstddef>
#include <cstdint>

#include "index/bloom_filter/tuning.h"

namespace pyfileindex::index::bloom_filter {

class RecentHashes {
 public:
  RecentHashes() {
    // An entry that cannot be a hash stored in its slot (its low bits name another slot).
    for (size_t s = 0; s < tuning::kRecentHashSlots; ++s) slots_[s] = s ^ 1;
  }

  // Moves the hashes of `hashes[0, count)` not found in the table to the front, in order,
  // records all of them, and returns how many were moved. While paused returns `count`.
  size_t KeepNew(uint64_t* hashes, size_t count) {
    if (paused_ > 0) {
      --paused_;
      return count;
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t hash = hashes[i];
      // Hashes are mixed: their low bits will do.
      uint64_t& slot = slots_[hash & (tuning::kRecentHashSlots - 1)];
      hashes[kept] = hash;
      kept += slot != hash ? 1 : 0;  // no branch: hit or miss is data-dependent
      slot = hash;
    }
    if (2 * kept > count) paused_ = tuning::kRecentHashesPauseBlocks;
    return kept;
  }

 private:
  uint64_t slots_[tuning::kRecentHashSlots];
  uint32_t paused_ = 0;
};

}  // namespace pyfileindex::index::bloom_filter
