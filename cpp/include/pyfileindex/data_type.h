/// @file
/// Paimon logical data types, as they appear in a table's schema file, and the row type
/// (Field list) that readers and writers are given.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pyfileindex/export.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// The kind of a Paimon type (its type root), without parameters.
enum class TypeRoot : uint8_t {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kChar,
  kVarChar,  ///< also STRING (= VARCHAR(2147483647))
  kBinary,
  kVarBinary,  ///< also BYTES
  kDate,
  kTime,
  kTimestamp,               ///< TIMESTAMP(p) WITHOUT TIME ZONE
  kTimestampLocalTimeZone,  ///< TIMESTAMP(p) WITH LOCAL TIME ZONE
  kMap,
  kArray,  ///< parsed so schemas load; no index type accepts it
  kRow,    ///< likewise
  kMultiset,
  kVariant,
  kBlob,
  kVector,     ///< VECTOR<element, length>: parsed so schemas load; no index accepts it
  kGeometry,   ///< likewise
  kGeography,  ///< likewise
};

/// A parsed Paimon type. `precision` is DECIMAL precision, TIME/TIMESTAMP fractional
/// precision, or CHAR/VARCHAR/BINARY/VARBINARY/VECTOR length; `scale` is DECIMAL scale. Build
/// one with ParseDataType("DECIMAL(10, 2)") or by setting the fields. A plain value type.
struct PYFILEINDEX_EXPORT DataType {
  TypeRoot root = TypeRoot::kInt;  ///< the kind of type
  bool nullable = true;            ///< false for "... NOT NULL"
  int32_t precision = 0;           ///< see above; 0 when the type has none
  int32_t scale = 0;               ///< DECIMAL scale
  /// MAP: [key, value]; ARRAY/MULTISET/VECTOR: [element]; ROW: the field types.
  std::vector<DataType> children;
  /// ROW: each field's name and description ("" for none), one per child.
  std::vector<std::string> field_names;
  std::vector<std::string> field_descriptions;

  /// TINYINT, SMALLINT, INT or BIGINT.
  bool IsIntegral() const {
    return root == TypeRoot::kTinyInt || root == TypeRoot::kSmallInt || root == TypeRoot::kInt ||
           root == TypeRoot::kBigInt;
  }
  /// CHAR or VARCHAR (STRING).
  bool IsString() const { return root == TypeRoot::kChar || root == TypeRoot::kVarChar; }
  /// BINARY or VARBINARY (BYTES).
  bool IsBinary() const { return root == TypeRoot::kBinary || root == TypeRoot::kVarBinary; }
  /// TIMESTAMP, with or without local time zone.
  bool IsTimestamp() const {
    return root == TypeRoot::kTimestamp || root == TypeRoot::kTimestampLocalTimeZone;
  }

  /// Paimon's canonical spelling, e.g. "DECIMAL(10, 2) NOT NULL", "STRING".
  std::string ToString() const;
  /// Same root, nullability, parameters, children and ROW field names and descriptions.
  bool operator==(const DataType& other) const;
  bool operator!=(const DataType& other) const { return !(*this == other); }
};

/// Parses a Paimon type string: "INT", "BIGINT NOT NULL", "VARCHAR(10)", "DECIMAL(10, 2)",
/// "TIMESTAMP(9)", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)", "MAP<STRING, INT>",
/// "INT ARRAY", "VECTOR<FLOAT, 3>", "ROW<`a` INT COMMENT 'x', b STRING>": Java's spellings
/// (aliases such as INTEGER, NUMERIC, BYTES, DOUBLE PRECISION included) and the nested forms
/// DataType::ToString writes. InvalidArgument naming the (1-based) position otherwise.
PYFILEINDEX_EXPORT Result<DataType> ParseDataType(std::string_view text);

/// A named column of a data file's row type.
struct Field {
  std::string name;  ///< the column name, as the index container and predicates spell it
  DataType type;     ///< its Paimon type
};

}  // namespace pyfileindex
