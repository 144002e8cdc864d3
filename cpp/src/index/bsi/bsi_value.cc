#include "index/bsi/bsi_value.h"

#include <cstring>
#include <limits>
#include <string>

#include "types/decimal_scale.h"

namespace pyfileindex::index::bsi {
namespace {

constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();

Status WrongPhysical(const DataType& type, const column::ColumnBatch& batch) {
  return Status::InvalidArgument("bsi: a column of type " + type.ToString() +
                                 " cannot take values of physical kind " +
                                 column::PhysicalName(batch.physical));
}

LiteralKey At(int64_t floor, bool exact, bool unit_end = false) {
  LiteralKey key;
  key.position = LiteralKey::Position::kAt;
  key.floor = floor;
  key.exact = exact;
  key.unit_end = unit_end;
  return key;
}

LiteralKey Outside(bool above) {
  LiteralKey key;
  key.position = above ? LiteralKey::Position::kAboveAll : LiteralKey::Position::kBelowAll;
  return key;
}

}  // namespace

Result<BsiKeyType> BsiKeyType::For(const DataType& type) {
  BsiKeyType key_type;
  switch (type.root) {
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      key_type.unit = Unit::kInteger;
      return key_type;
    case TypeRoot::kDecimal:
      key_type.unit = Unit::kDecimal;
      key_type.decimal_scale = type.scale;
      return key_type;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone:
      key_type.unit = type.precision <= 3 ? Unit::kMillis : Unit::kMicros;
      key_type.truncating = type.precision > 6;
      return key_type;
    default:
      return Status::InvalidArgument("type '" + type.ToString() +
                                     "' is not supported by 'bsi' index");
  }
}

Result<LiteralKey> MapLiteral(const DataType& type, const BsiKeyType& key_type,
                              const Literal& literal) {
  auto wrong_kind = [&]() {
    return Status::InvalidArgument(literal.Describe() +
                                   " cannot be compared with a column of type " + type.ToString());
  };
  switch (key_type.unit) {
    case BsiKeyType::Unit::kInteger:
      // No narrowing to the column type: the key axis is the whole long range, so a literal
      // outside TINYINT's range still compares exactly with the stored values.
      if (literal.kind() != Literal::Kind::kInt) return wrong_kind();
      return At(literal.int_value(), true);
    case BsiKeyType::Unit::kDecimal: {
      if (literal.kind() != Literal::Kind::kDecimal) return wrong_kind();
      const types::ScaledDecimal scaled = types::Rescale(
          types::UnscaledValue(literal), literal.scale(), key_type.decimal_scale);
      if (scaled.floor > kLongMax) return Outside(true);
      if (scaled.floor < kLongMin) return Outside(false);  // value < floor + 1 <= kLongMin
      return At(static_cast<int64_t>(scaled.floor), !scaled.fraction);
    }
    case BsiKeyType::Unit::kMillis:
    case BsiKeyType::Unit::kMicros: {
      if (literal.kind() != Literal::Kind::kTimestamp) return wrong_kind();
      const int32_t nanos = literal.nano_of_milli();
      if (nanos < 0 || nanos > 999999) {
        return Status::InvalidArgument("timestamp literal " + literal.ToString() +
                                       ": nano of millisecond must be within 0..999999");
      }
      const int64_t millis = literal.int_value();
      if (key_type.unit == BsiKeyType::Unit::kMillis) {
        return At(millis, nanos == 0, nanos == 999999);
      }
      int64_t micros = 0;
      if (__builtin_mul_overflow(millis, int64_t{1000}, &micros) ||
          __builtin_add_overflow(micros, int64_t{nanos / 1000}, &micros)) {
        return Outside(millis > 0);
      }
      return At(micros, nanos % 1000 == 0, nanos % 1000 == 999);
    }
  }
  return Status::Internal("bsi: unknown key unit");
}

Status MapBatch(const DataType& type, const BsiKeyType& key_type,
                const column::ColumnBatch& batch, int64_t begin, int64_t count, int64_t* keys) {
  using column::Physical;
  if (count > 0 && batch.values == nullptr) return WrongPhysical(type, batch);
  auto copy_as_long = [&](const auto* values) {
    for (int64_t i = 0; i < count; ++i) keys[i] = values[begin + i];
  };
  switch (key_type.unit) {
    case BsiKeyType::Unit::kInteger:
      switch (batch.physical) {
        case Physical::kInt8: copy_as_long(batch.int8_values()); return Status::OK();
        case Physical::kInt16: copy_as_long(batch.int16_values()); return Status::OK();
        case Physical::kInt32: copy_as_long(batch.int32_values()); return Status::OK();
        case Physical::kInt64: copy_as_long(batch.int64_values()); return Status::OK();
        default: return WrongPhysical(type, batch);
      }
    case BsiKeyType::Unit::kDecimal:
      if (batch.physical == Physical::kDecimal) {
        copy_as_long(batch.int64_values());
        return Status::OK();
      }
      if (batch.physical == Physical::kDecimal128) {
        const uint8_t* bytes = static_cast<const uint8_t*>(batch.values);
        for (int64_t i = 0; i < count; ++i) {
          if (!batch.IsValid(begin + i)) {
            keys[i] = 0;
            continue;
          }
          // 16-byte little-endian two's complement; it must be a sign-extended long.
          uint64_t low = 0;
          uint64_t high = 0;
          std::memcpy(&low, bytes + (begin + i) * 16, 8);
          std::memcpy(&high, bytes + (begin + i) * 16 + 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
          low = __builtin_bswap64(low);
          high = __builtin_bswap64(high);
#endif
          const uint64_t sign_extension = (low >> 63) ? ~uint64_t{0} : 0;
          if (high != sign_extension) {
            return Status::InvalidArgument(
                "bsi: a DECIMAL unscaled value of column type " + type.ToString() +
                " does not fit in a long (Java's BSI writer fails here too)");
          }
          keys[i] = static_cast<int64_t>(low);
        }
        return Status::OK();
      }
      return WrongPhysical(type, batch);
    case BsiKeyType::Unit::kMillis:
    case BsiKeyType::Unit::kMicros: {
      if (batch.physical != Physical::kTimestamp) return WrongPhysical(type, batch);
      const int64_t* values = batch.int64_values() + begin;
      const bool micros = key_type.unit == BsiKeyType::Unit::kMicros;
      const column::TimeUnit unit = batch.timestamp_unit;
      if ((micros && unit == column::TimeUnit::kMicro) ||
          (!micros && unit == column::TimeUnit::kMilli)) {
        std::memcpy(keys, values, static_cast<size_t>(count) * sizeof(int64_t));
        return Status::OK();
      }
      for (int64_t i = 0; i < count; ++i) {
        bool overflow = false;
        keys[i] = micros ? column::ToEpochMicros(values[i], unit, &overflow)
                         : column::ToEpochMillis(values[i], unit, &overflow);
        if (overflow && batch.IsValid(begin + i)) {
          return Status::InvalidArgument(
              "bsi: timestamp value " + std::to_string(values[i]) + " of column type " +
              type.ToString() + " overflows a long of epoch " + (micros ? "micros" : "millis") +
              " (Java fails here too)");
        }
      }
      return Status::OK();
    }
  }
  return Status::Internal("bsi: unknown key unit");
}

}  // namespace pyfileindex::index::bsi
