#include "index/keys/physical_key.h"

namespace pyfileindex::index::keys {

namespace {

constexpr PhysicalKey Key(KeyKind kind, KeyUnit unit = KeyUnit::kValue) {
  PhysicalKey key;
  key.kind = kind;
  key.width = FixedWidth(kind);
  key.unit = unit;
  return key;
}

}  // namespace

std::optional<PhysicalKey> PhysicalKeyOf(const DataType& type) {
  switch (type.root) {
    case TypeRoot::kBoolean: return Key(KeyKind::kBool);
    case TypeRoot::kTinyInt: return Key(KeyKind::kInt8);
    case TypeRoot::kSmallInt: return Key(KeyKind::kInt16);
    case TypeRoot::kInt: return Key(KeyKind::kInt32);
    case TypeRoot::kDate: return Key(KeyKind::kInt32, KeyUnit::kEpochDays);
    case TypeRoot::kTime: return Key(KeyKind::kInt32, KeyUnit::kMillisOfDay);
    case TypeRoot::kBigInt: return Key(KeyKind::kInt64);
    case TypeRoot::kFloat: return Key(KeyKind::kFloat);
    case TypeRoot::kDouble: return Key(KeyKind::kDouble);
    case TypeRoot::kChar:
    case TypeRoot::kVarChar: return Key(KeyKind::kString);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: return Key(KeyKind::kBinary);
    case TypeRoot::kDecimal: {
      PhysicalKey key = Key(KeyKind::kInt64, KeyUnit::kUnscaled);
      key.scale = type.scale;
      key.compact = type.precision <= 18;  // Paimon's Decimal.isCompact
      return key;
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone: {
      // Paimon's rule: TIMESTAMP(0..3) are epoch millis, every finer precision epoch micros.
      PhysicalKey key = Key(KeyKind::kInt64, type.precision <= 3 ? KeyUnit::kEpochMillis
                                                                 : KeyUnit::kEpochMicros);
      key.drops_nanos = type.precision > 6;
      return key;
    }
    case TypeRoot::kMap:
    case TypeRoot::kArray:
    case TypeRoot::kRow:
    case TypeRoot::kMultiset:
    case TypeRoot::kVariant:
    case TypeRoot::kBlob:
    case TypeRoot::kVector:
    case TypeRoot::kGeometry:
    case TypeRoot::kGeography: break;
  }
  return std::nullopt;
}

Literal::Kind LiteralKindFor(const PhysicalKey& key) {
  switch (key.kind) {
    case KeyKind::kBool: return Literal::Kind::kBool;
    case KeyKind::kFloat:
    case KeyKind::kDouble: return Literal::Kind::kDouble;
    case KeyKind::kString:
    case KeyKind::kBinary: return Literal::Kind::kString;
    case KeyKind::kInt8:
    case KeyKind::kInt16:
    case KeyKind::kInt32:
    case KeyKind::kInt64: break;
  }
  if (key.is_decimal()) return Literal::Kind::kDecimal;
  if (key.is_timestamp()) return Literal::Kind::kTimestamp;
  return Literal::Kind::kInt;
}

Status CheckLiteralKind(const PhysicalKey& key, const DataType& type, const Literal& literal) {
  const Literal::Kind expected = LiteralKindFor(key);
  if (literal.kind() == expected) return Status::OK();
  return Status::InvalidArgument(literal.Describe(), " cannot be compared with a column of type ",
                                 type.ToString(), " (it takes ", Literal::KindName(expected),
                                 " literals)");
}

}  // namespace pyfileindex::index::keys
