// The physical key of a Paimon column type: the one place that knows how a type's values are
// held by an index (which fixed-width number or byte string, in which unit, at which scale).
//
// Every index type starts from PhysicalKeyOf(type) and then applies its own acceptance policy
// (which types Paimon 2.0 lets that index take); see each index's *_key / *_index_type files.
#pragma once

#include <cstdint>
#include <optional>

#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::keys {

// The stored form of a key. Fixed-width kinds are big-endian numbers in the index payloads.
enum class KeyKind : uint8_t {
  kBool,    // BOOLEAN
  kInt8,    // TINYINT
  kInt16,   // SMALLINT
  kInt32,   // INT, DATE, TIME
  kInt64,   // BIGINT, DECIMAL (unscaled), TIMESTAMP / TIMESTAMP_LTZ
  kFloat,   // FLOAT (floatToIntBits)
  kDouble,  // DOUBLE (doubleToLongBits)
  kString,  // CHAR, VARCHAR
  kBinary,  // BINARY, VARBINARY
};

// Bytes of a fixed-width key; 0 for the byte-string kinds.
constexpr int FixedWidth(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool:
    case KeyKind::kInt8: return 1;
    case KeyKind::kInt16: return 2;
    case KeyKind::kInt32:
    case KeyKind::kFloat: return 4;
    case KeyKind::kInt64:
    case KeyKind::kDouble: return 8;
    case KeyKind::kString:
    case KeyKind::kBinary: return 0;
  }
  return 0;
}

constexpr bool IsByteString(KeyKind kind) {
  return kind == KeyKind::kString || kind == KeyKind::kBinary;
}

// What one step of an integer key stands for.
enum class KeyUnit : uint8_t {
  kValue,        // the value itself (integers, floats, booleans, strings)
  kEpochDays,    // DATE
  kMillisOfDay,  // TIME
  kUnscaled,     // DECIMAL: the unscaled value at the column's scale
  kEpochMillis,  // TIMESTAMP[_LTZ](0..3)
  kEpochMicros,  // TIMESTAMP[_LTZ](4..9): Paimon keys every finer precision by micros too
};

// A column type's key. Trivially copyable: readers and writers keep one by value.
struct PhysicalKey {
  KeyKind kind = KeyKind::kInt32;
  int width = 4;  // FixedWidth(kind)
  KeyUnit unit = KeyUnit::kValue;
  int32_t scale = 0;        // kUnscaled: the column's scale
  bool compact = true;      // kUnscaled: precision <= 18, so every unscaled value fits a long
  bool drops_nanos = false; // TIMESTAMP(7..9): key k stands for every value in [k, k + 1 us)

  constexpr bool is_timestamp() const {
    return unit == KeyUnit::kEpochMillis || unit == KeyUnit::kEpochMicros;
  }
  constexpr bool micros() const { return unit == KeyUnit::kEpochMicros; }
  constexpr bool is_decimal() const { return unit == KeyUnit::kUnscaled; }
};

// The key of `type`; nullopt for the nested and large-object types (ARRAY, MAP, MULTISET, ROW,
// VARIANT, BLOB), which no index keys.
std::optional<PhysicalKey> PhysicalKeyOf(const DataType& type);

// The literal kind that compares with a column of this key.
Literal::Kind LiteralKindFor(const PhysicalKey& key);

// OK when `literal` (not null) has LiteralKindFor(key); else InvalidArgument naming the
// literal, the column type and the kind it takes.
Status CheckLiteralKind(const PhysicalKey& key, const DataType& type, const Literal& literal);

}  // namespace pyfileindex::index::keys
