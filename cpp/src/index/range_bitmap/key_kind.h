// Range-bitmap dictionary keys: which column types the index accepts (Paimon's KeyFactory),
// and how stored keys are read and written in the "ordered" integer view
// (index/keys/ordered_key.h) that sorting, dictionary search and literal placement use.
#pragma once

#include <cstdint>
#include <string>

#include "index/keys/ordered_key.h"
#include "index/keys/physical_key.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

using keys::KeyKind;
using keys::CanonicalDoubleBits;
using keys::CanonicalFloatBits;
using keys::DoubleBitsFromOrdered;
using keys::FloatBitsFromOrdered;
using keys::OrderedFromDouble;
using keys::OrderedFromDoubleBits;
using keys::OrderedFromFloat;
using keys::OrderedFromFloatBits;
using keys::OrderedFromSigned;
using keys::SignedFromOrdered;

// How values of one column type become dictionary keys: the shared physical key, and the
// dictionary chunk size Java picks for it.
struct KeySpec : keys::PhysicalKey {
  int64_t default_chunk_size = 16384;  // Java: "16kb", or "0b" for 1- and 2-byte keys
};

inline constexpr const char* kRangeBitmapName = "range-bitmap";

// The range-bitmap index's acceptance policy (Paimon 2.0's KeyFactory): the key form of
// `type`, or InvalidArgument naming the type when range-bitmap does not accept it.
Result<KeySpec> KeySpecFor(const DataType& type);

// The smallest and largest ordered value a fixed-width kind can hold.
uint64_t MinOrdered(KeyKind kind);
uint64_t MaxOrdered(KeyKind kind);

// Reads a stored fixed-width key (big-endian, `width` bytes at `p`) as its ordered value, the
// way Java's KeyDeserializer reads it (BOOLEAN: byte == 1 is true, anything else false).
inline uint64_t DecodeOrdered(KeyKind kind, const uint8_t* p) {
  switch (kind) {
    case KeyKind::kBool:
      return p[0] == 1 ? 1 : 0;
    case KeyKind::kInt8:
      return OrderedFromSigned(static_cast<int8_t>(p[0]));
    case KeyKind::kInt16:
      return OrderedFromSigned(static_cast<int16_t>(io::LoadU16BE(p)));
    case KeyKind::kInt32:
      return OrderedFromSigned(static_cast<int32_t>(io::LoadU32BE(p)));
    case KeyKind::kInt64:
      return OrderedFromSigned(static_cast<int64_t>(io::LoadU64BE(p)));
    case KeyKind::kFloat:
      return OrderedFromFloatBits(CanonicalFloatBits(static_cast<int32_t>(io::LoadU32BE(p))));
    case KeyKind::kDouble:
      return OrderedFromDoubleBits(CanonicalDoubleBits(static_cast<int64_t>(io::LoadU64BE(p))));
    case KeyKind::kString:
    case KeyKind::kBinary:
      break;
  }
  return 0;
}

// Writes the key bytes Java writes for an ordered value. Floats/doubles get the canonical bit
// pattern; the writer substitutes the raw bits of the first NaN it saw (see key_collector.h).
void EncodeOrdered(KeyKind kind, uint64_t ordered, uint8_t* out);

// A human-readable key, for Describe(): numbers in decimal, strings quoted.
std::string FormatKey(const KeySpec& spec, const uint8_t* key, size_t size);

// A stored key as the literal of its column type (the value the key stands for): integers,
// DATE and TIME as kInt, DECIMAL as kDecimal at the column's scale, TIMESTAMP as kTimestamp,
// FLOAT / DOUBLE as kDouble of the stored bits (a NaN key keeps its bit pattern), strings as
// kString.
Literal KeyLiteral(const KeySpec& spec, const uint8_t* key, size_t size);

}  // namespace pyfileindex::index::range_bitmap
