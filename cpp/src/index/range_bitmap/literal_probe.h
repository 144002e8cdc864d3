// Places a predicate literal in a column's key order.
//
// A literal either equals a key the column could hold (exact), or falls strictly between two
// adjacent possible keys (a gap: 300 for TINYINT, 0.1 for FLOAT, a timestamp with more digits
// than the column keeps, a decimal with a finer scale). Gaps are answered exactly -- `= gap`
// matches nothing, `< gap` is `<= lo` -- instead of narrowing the literal the way a cast would.
#pragma once

#include <cstdint>
#include <string_view>

#include "index/range_bitmap/key_kind.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

// A key to look up: the ordered value of a fixed-width key, or the bytes of a string key.
struct LookupKey {
  uint64_t ordered = 0;
  std::string_view bytes;
};

struct Probe {
  bool exact = true;
  LookupKey key;        // exact only
  bool has_lo = false;  // gap only: the largest possible key below the literal
  bool has_hi = false;  // gap only: the smallest possible key above the literal
  LookupKey lo;
  LookupKey hi;
};

// Java's comparator(stored, key) for a stored key (fixed: `width` bytes; string: the bytes
// without their length prefix): negative, zero or positive.
int CompareStoredKey(const KeySpec& spec, std::string_view stored, const LookupKey& key);

// `literal` must not be null. String probes view the literal's bytes (keep it alive).
// InvalidArgument when the literal's kind does not fit the column type.
Result<Probe> MakeProbe(const KeySpec& spec, const DataType& type, const Literal& literal);

}  // namespace pyfileindex::index::range_bitmap
