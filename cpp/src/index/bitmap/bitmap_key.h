// Keys of the bitmap index: which Java class a column's values become (Paimon's
// BitmapTypeVisitor), and that class's encoding, order, equality and hashCode.
//
// Every non-string key is held as 64 "bits" so one code path serves all numeric types:
// integers sign-extended, FLOAT/DOUBLE as their canonical (NaN-collapsed) Java bit patterns,
// BOOLEAN as 0/1. Equal bits <=> equal Java keys (so -0.0 and 0.0 are different keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "index/keys/ordered_key.h"
#include "index/keys/physical_key.h"
#include "io/byte_reader.h"
#include "io/byte_writer.h"
#include "io/endian.h"
#include "java/float_bits.h"
#include "pyfileindex/data_type.h"
#include "pyfileindex/literal.h"
#include "pyfileindex/status.h"

namespace pyfileindex::index::bitmap {

// Keys are the shared physical keys (index/keys/physical_key.h); the bitmap index names each
// kind by its Java class (Byte, Short, Integer, Long, Float, Double, Boolean, BinaryString).
using keys::KeyKind;

// The bitmap index's acceptance policy: the physical key of `type` as Java 2.0's
// BitmapTypeVisitor takes it; InvalidArgument (with Java's reason) for types it rejects.
Result<keys::PhysicalKey> BitmapKeyFor(const DataType& type);

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
  switch (kind) {
    case KeyKind::kFloat: return keys::OrderedFromFloatBits(static_cast<int32_t>(bits));
    case KeyKind::kDouble: return keys::OrderedFromDoubleBits(static_cast<int64_t>(bits));
    case KeyKind::kBool: return bits;
    default: return keys::OrderedFromSigned(static_cast<int64_t>(bits));
  }
}

// Java hashCode() of a numeric key.
int32_t NumericJavaHash(KeyKind kind, uint64_t bits);

// Bytes of the encoded key in the index meta.
inline size_t FixedKeySize(KeyKind kind) {  // 0 for kString (its size is 4 + byte length)
  return static_cast<size_t>(keys::FixedWidth(kind));
}
inline size_t EncodedKeySize(KeyKind kind, const KeyRef& key) {
  return kind == KeyKind::kString ? 4 + key.bytes.size() : FixedKeySize(kind);
}
// The smallest possible encoded key (for bounding counts read from a payload).
inline size_t MinEncodedKeySize(KeyKind kind) {
  return kind == KeyKind::kString ? 4 : FixedKeySize(kind);
}

// Java DataOutput encoding of a key (big-endian; strings: int length + raw bytes).
void EncodeKey(KeyKind kind, const KeyRef& key, io::ByteWriter* out);
// The same bytes written at `at` (EncodedKeySize of them); returns their end. Inline: the meta
// writes a key per entry.
inline uint8_t* EncodeKeyAt(KeyKind kind, const KeyRef& key, uint8_t* at) {
  switch (kind) {
    case KeyKind::kInt8: *at = static_cast<uint8_t>(key.bits); return at + 1;
    case KeyKind::kBool: *at = key.bits != 0 ? 1 : 0; return at + 1;
    case KeyKind::kInt16: io::StoreU16BE(at, static_cast<uint16_t>(key.bits)); return at + 2;
    case KeyKind::kInt32:
    case KeyKind::kFloat: io::StoreU32BE(at, static_cast<uint32_t>(key.bits)); return at + 4;
    case KeyKind::kInt64:
    case KeyKind::kDouble: io::StoreU64BE(at, key.bits); return at + 8;
    case KeyKind::kString:
    case KeyKind::kBinary:
      io::StoreU32BE(at, static_cast<uint32_t>(key.bytes.size()));
      if (!key.bytes.empty()) std::memcpy(at + 4, key.bytes.data(), key.bytes.size());
      return at + 4 + key.bytes.size();
  }
  return at;
}
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
    case KeyKind::kInt8: return IntegerBits(static_cast<int8_t>(p[0]));
    case KeyKind::kBool: return p[0] != 0 ? 1 : 0;  // Java readBoolean: any non-zero byte
    case KeyKind::kInt16: return IntegerBits(static_cast<int16_t>(io::LoadU16BE(p)));
    case KeyKind::kInt32: return IntegerBits(static_cast<int32_t>(io::LoadU32BE(p)));
    case KeyKind::kInt64: return io::LoadU64BE(p);
    // Java's readFloat keeps any NaN, but Float.equals/compare see it canonicalised.
    case KeyKind::kFloat:
      return FloatBits(java::IntBitsToFloat(static_cast<int32_t>(io::LoadU32BE(p))));
    case KeyKind::kDouble:
      return DoubleBits(java::LongBitsToDouble(static_cast<int64_t>(io::LoadU64BE(p))));
    case KeyKind::kString:
    case KeyKind::kBinary: break;
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
Result<LiteralKey> LiteralToKey(const keys::PhysicalKey& key, const DataType& type,
                                const Literal& literal);

const char* KeyKindName(KeyKind kind);

}  // namespace pyfileindex::index::bitmap
