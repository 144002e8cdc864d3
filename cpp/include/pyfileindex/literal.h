/// @file
/// Literal values in predicates, in Paimon's internal representation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pyfileindex/export.h"

namespace pyfileindex {

/// A predicate literal (an immutable value). Readers convert it to the key form of the
/// column's type; a literal that cannot equal any value of the column (e.g. 300 for a TINYINT
/// column) is answered exactly (no row matches `=`, every row matches `<`), never by narrowing
/// it. Which Kind fits which column type is listed per Kind.
class PYFILEINDEX_EXPORT Literal {
 public:
  /// The representation the value is held in.
  enum class Kind : uint8_t {
    kNull,       ///< NULL
    kBool,       ///< BOOLEAN
    kInt,        ///< TINYINT..BIGINT, DATE (days since epoch), TIME (millis of day)
    kDouble,     ///< FLOAT, DOUBLE
    kString,     ///< CHAR/VARCHAR as UTF-8 bytes, BINARY/VARBINARY as raw bytes
    kDecimal,    ///< DECIMAL: unscaled * 10^-scale, unscaled a signed 128-bit integer
    kTimestamp,  ///< TIMESTAMP[_LTZ]: epoch millis + nanos of that milli (0..999999), as Paimon
  };

  /// NULL (only meaningful inside IN / NOT IN lists; use IS NULL to test for nulls).
  Literal() = default;
  /// Factories, one per Kind.
  static Literal Null() { return Literal(); }
  /// BOOLEAN.
  static Literal Bool(bool v) {
    Literal l(Kind::kBool);
    l.int_ = v ? 1 : 0;
    return l;
  }
  /// Any integral column, DATE (days since 1970-01-01) or TIME (millisecond of the day).
  static Literal Int(int64_t v) {
    Literal l(Kind::kInt);
    l.int_ = v;
    return l;
  }
  /// FLOAT or DOUBLE.
  static Literal Double(double v) {
    Literal l(Kind::kDouble);
    l.double_ = v;
    return l;
  }
  /// CHAR/VARCHAR (UTF-8) or BINARY/VARBINARY (raw bytes).
  static Literal String(std::string bytes) {
    Literal l(Kind::kString);
    l.bytes_ = std::move(bytes);
    return l;
  }
  /// DECIMAL unscaled * 10^-scale, for an unscaled value that fits a signed 64-bit integer.
  static Literal Decimal(int64_t unscaled, int32_t scale) {
    return Decimal128(unscaled < 0 ? -1 : 0, static_cast<uint64_t>(unscaled), scale);
  }
  /// DECIMAL unscaled * 10^-scale for any unscaled value of DECIMAL(38): the signed 128-bit
  /// two's complement integer high * 2^64 + low. Such literals reach columns whose values fit
  /// a long too (and are then beyond every stored value).
  static Literal Decimal128(int64_t unscaled_high, uint64_t unscaled_low, int32_t scale) {
    Literal l(Kind::kDecimal);
    l.int_ = static_cast<int64_t>(unscaled_low);
    l.high_ = unscaled_high;
    l.scale_ = scale;
    return l;
  }
  /// TIMESTAMP / TIMESTAMP_LTZ: milliseconds since the epoch + nanoseconds within that
  /// millisecond (0..999999), Paimon's Timestamp representation.
  static Literal Timestamp(int64_t epoch_millis, int32_t nano_of_milli) {
    Literal l(Kind::kTimestamp);
    l.int_ = epoch_millis;
    l.nano_of_milli_ = nano_of_milli;
    return l;
  }

  /// Accessors; each is meaningful for the kinds named.
  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool bool_value() const { return int_ != 0; }  ///< kBool
  int64_t int_value() const { return int_; }  ///< kInt, kTimestamp (millis)
  /// kDecimal: the unscaled value's high and low 64 bits (two's complement), and whether it
  /// fits a signed 64-bit integer (then int_value() is the unscaled value).
  int64_t unscaled_high() const { return high_; }
  uint64_t unscaled_low() const { return static_cast<uint64_t>(int_); }
  bool unscaled_fits_int64() const { return high_ == (int_ < 0 ? -1 : 0); }
  double double_value() const { return double_; }  ///< kDouble
  std::string_view bytes() const { return bytes_; }  ///< kString (valid while *this lives)
  int32_t scale() const { return scale_; }  ///< kDecimal
  int32_t nano_of_milli() const { return nano_of_milli_; }  ///< kTimestamp

  /// For messages and logs, e.g. "'Alice'", "10", "1.5", "TIMESTAMP(1 ms + 5 ns)".
  std::string ToString() const;
  /// The kind in words, for messages: "NULL", "boolean", "integer", "floating-point",
  /// "string", "decimal" or "timestamp".
  static const char* KindName(Kind kind);
  /// "<kind> literal <value>", e.g. "decimal literal 1.25": what a message names.
  std::string Describe() const;

 private:
  explicit Literal(Kind kind) : kind_(kind) {}

  Kind kind_ = Kind::kNull;
  int64_t int_ = 0;
  int64_t high_ = 0;  // kDecimal: high 64 bits of the unscaled value
  double double_ = 0;
  int32_t scale_ = 0;
  int32_t nano_of_milli_ = 0;
  std::string bytes_;
};

}  // namespace pyfileindex
