// How the BSI index maps a column value, and a predicate literal, to a signed 64-bit key:
// integral / DATE / TIME values as they are, DECIMAL as its unscaled value, TIMESTAMP(p <= 3)
// as epoch millis and TIMESTAMP(p >= 4) as epoch micros (floor).
#pragma once

#include <cstdint>

#include "column/column_batch.h"
#include "index/keys/physical_key.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bsi {

// The BSI index's acceptance policy: the physical key of `type` when Paimon 2.0's BSI index
// takes it (integers, DATE, TIME, DECIMAL, TIMESTAMP); InvalidArgument otherwise. Keys are
// signed longs on the whole long axis; TIMESTAMP(7..9) keys drop nanoseconds
// (PhysicalKey::drops_nanos), so comparisons must then keep every row that may match.
Result<keys::PhysicalKey> BsiKeyFor(const DataType& type);

// A literal placed on the key axis.
struct LiteralKey {
  enum class Position : uint8_t {
    kBelowAll,  // smaller than every key a column can hold
    kAt,        // floor .. floor + 1 (exclusive) contains the literal
    kAboveAll,  // larger than every key a column can hold
  };
  Position position = Position::kAt;
  int64_t floor = 0;      // kAt: the largest key <= literal
  bool exact = true;      // kAt: literal == floor
  bool unit_end = false;  // kAt, timestamps: the literal is the last nanosecond of its key unit
};

// Maps a (non-null) literal. InvalidArgument when its kind does not belong to the column type
// or a timestamp's nano-of-millisecond is outside 0..999999.
Result<LiteralKey> MapLiteral(const DataType& type, const keys::PhysicalKey& key,
                              const Literal& literal);

// Writes the key of every row of `batch` to keys[0..length) (null rows get 0; the caller checks
// validity). InvalidArgument on a physical layout that does not carry the type, on a DECIMAL
// unscaled value beyond a long or a timestamp overflowing a long (Java fails there too).
Status MapBatch(const DataType& type, const keys::PhysicalKey& key,
                const column::ColumnBatch& batch, int64_t begin, int64_t count, int64_t* keys);

}  // namespace pyfileindex::index::bsi
