// Keys of the bitmap index: which Java class a column's values become (Paimon's
// BitmapTypeVisitor), and that class's encoding, order, equality and hashCode.
//
// Every non-string key is held as 64 "bits" so one code path serves all numeric types:
// integers sign-extended, FLOAT/DOUBLE as their canonical (NaN-collapsed) Java bit patterns,
// BOOLEAN as 0/1. Equal bits <=> equal Java keys (so -0.0 and 0.0 are different keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/byte_reader.h"
#include "io/byte_writer.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bitmap {

// The Java class of a key.
enum class KeyKind : uint8_t {
  kByte,    // TINYINT
  kShort,   // SMALLINT
  kInt,     // INT, DATE (days), TIME (millis of day)
  kLong,    // BIGINT, TIMESTAMP / TIMESTAMP_LTZ (millis if precision <= 3, else micros)
  kFloat,   // FLOAT
  kDouble,  // DOUBLE
  kBool,    // BOOLEAN
  kString,  // CHAR, VARCHAR (BinaryString)
};

// How one column's values become keys.
struct KeyMapping {
  KeyKind kind = KeyKind::kInt;
  // TIMESTAMP / TIMESTAMP_LTZ only: true when keys are epoch micros (precision >= 4).
  bool timestamp_micros = false;
  bool is_timestamp = false;
};

// The key mapping Java 2.0 uses for `type`; InvalidArgument for types the bitmap index rejects.
Result<KeyMapping> KeyMappingFor(const DataType& type);

// A key as the reader and the comparator see it. Strings are views (into the index payload
// or a literal); everything else lives in `bits`.
struct KeyRef {
  uint64_t bits = 0;
  std::string_view bytes;
};

// Java compareTo of the key class (V2 sort order, tree-bin order): <0, 0, >0.
int CompareKeys(KeyKind kind, const KeyRef& a, const KeyRef& b);

// An unsigned number whose order is the Java order of numeric keys (for fast sorting).
inline uint64_t NumericSortKey(KeyKind kind, uint64_t bits) {
  constexpr uint64_t kSign64 = uint64_t{1} << 63;
  switch (kind) {
    case KeyKind::kFloat: {
      // IEEE total order on the canonical bits equals Float.compare (-0.0 < 0.0, NaN last).
      const uint32_t b = static_cast<uint32_t>(bits);
      return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    }
    case KeyKind::kDouble: return (bits & kSign64) ? ~bits : (bits | kSign64);
    case KeyKind::kBool: return bits;
    default: return bits ^ kSign64;  // signed integers
  }
}

// Java hashCode() of a numeric key.
int32_t NumericJavaHash(KeyKind kind, uint64_t bits);

// Bytes of the encoded key in the index meta.
size_t FixedKeySize(KeyKind kind);  // 0 for kString (its size is 4 + byte length)
inline size_t EncodedKeySize(KeyKind kind, const KeyRef& key) {
  return kind == KeyKind::kString ? 4 + key.bytes.size() : FixedKeySize(kind);
}
// The smallest possible encoded key (for bounding counts read from a payload).
inline size_t MinEncodedKeySize(KeyKind kind) {
  return kind == KeyKind::kString ? 4 : FixedKeySize(kind);
}

// Java DataOutput encoding of a key (big-endian; strings: int length + raw bytes).
void EncodeKey(KeyKind kind, const KeyRef& key, io::ByteWriter* out);
// Reads a key written by EncodeKey; string keys view the reader's bytes.
Result<KeyRef> DecodeKey(KeyKind kind, io::ByteReader* in);

// Numeric key bits of typed values.
inline uint64_t IntegerBits(int64_t v) { return static_cast<uint64_t>(v); }
inline uint64_t FloatBits(float v) {  // canonical NaN
  return static_cast<uint32_t>(java::FloatToIntBits(v));
}
inline uint64_t DoubleBits(double v) {  // canonical NaN
  return static_cast<uint64_t>(java::DoubleToLongBits(v));
}

// Keys of at most 4 bytes (BOOLEAN .. INT, FLOAT) in 32 bits: their low half, and back.
inline bool KeyBitsFit32(KeyKind kind) {
  return kind != KeyKind::kString && FixedKeySize(kind) <= 4;
}
inline uint32_t NarrowKeyBits(uint64_t bits) { return static_cast<uint32_t>(bits); }
inline uint64_t WidenKeyBits(KeyKind kind, uint32_t bits) {
  // Integers are sign-extended (IntegerBits), a float's bits are its 32 (FloatBits).
  return kind == KeyKind::kFloat ? bits : IntegerBits(static_cast<int32_t>(bits));
}

// The bits of a fixed-size key encoded at `p` (FixedKeySize(kind) readable bytes; not for
// kString), canonicalised as DecodeKey does. Inline: lookups decode keys in tight loops.
inline uint64_t DecodeFixedKeyBits(KeyKind kind, const uint8_t* p) {
  switch (kind) {
    case KeyKind::kByte: return IntegerBits(static_cast<int8_t>(p[0]));
    case KeyKind::kBool: return p[0] != 0 ? 1 : 0;  // Java readBoolean: any non-zero byte
    case KeyKind::kShort: return IntegerBits(static_cast<int16_t>(io::LoadU16BE(p)));
    case KeyKind::kInt: return IntegerBits(static_cast<int32_t>(io::LoadU32BE(p)));
    case KeyKind::kLong: return io::LoadU64BE(p);
    // Java's readFloat keeps any NaN, but Float.equals/compare see it canonicalised.
    case KeyKind::kFloat:
      return FloatBits(java::IntBitsToFloat(static_cast<int32_t>(io::LoadU32BE(p))));
    case KeyKind::kDouble:
      return DoubleBits(java::LongBitsToDouble(static_cast<int64_t>(io::LoadU64BE(p))));
    case KeyKind::kString: break;
  }
  return 0;
}

// A predicate literal converted to the column's key.
struct LiteralKey {
  enum class Kind : uint8_t {
    kNull,     // the null literal: Java looks up the null bitmap
    kNoMatch,  // no value of the column can equal it (e.g. 300 for TINYINT)
    kKey,
  };
  Kind kind = Kind::kNoMatch;
  KeyRef key;  // kKey only; string bytes view the literal
};

// InvalidArgument if the literal's kind does not fit the column type (message names the type).
Result<LiteralKey> LiteralToKey(const KeyMapping& mapping, const DataType& type,
                                const Literal& literal);

const char* KeyKindName(KeyKind kind);

}  // namespace pyfileindex::index::bitmap
