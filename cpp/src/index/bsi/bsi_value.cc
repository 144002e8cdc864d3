#include "index/bsi/bsi_value.h"

#include <cstring>
#include <limits>
#include <string>

#include "index/keys/batch_keys.h"
#include "index/keys/literal_position.h"

namespace pyfileindex::index::bsi {
namespace {

constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();

Status WrongPhysical(const DataType& type, const column::ColumnBatch& batch) {
  return Status::InvalidArgument("bsi: a column of type ", type.ToString(),
                                 " cannot take values of physical kind ",
                                 column::PhysicalName(batch.physical));
}

LiteralKey At(int64_t floor, bool exact, bool unit_end) {
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

Result<keys::PhysicalKey> BsiKeyFor(const DataType& type) {
  switch (type.root) {
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
    case TypeRoot::kDecimal:
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone: {
      const std::optional<keys::PhysicalKey> key = keys::PhysicalKeyOf(type);
      if (key) return *key;
      break;
    }
    default:
      break;
  }
  return Status::InvalidArgument("type '", type.ToString(), "' is not supported by 'bsi' index");
}

Result<LiteralKey> MapLiteral(const DataType& type, const keys::PhysicalKey& key,
                              const Literal& literal) {
  PFI_RETURN_NOT_OK(keys::CheckLiteralKind(key, type, literal));
  // No narrowing to the column type: the key axis is the whole long range, so a literal
  // outside TINYINT's range still compares exactly with the stored values.
  PFI_ASSIGN_OR_RETURN(keys::AxisPoint point, keys::PointOf(key, literal));
  if (point.floor > kLongMax) return Outside(true);
  if (point.floor < kLongMin) return Outside(false);  // value < floor + 1 <= kLongMin
  return At(static_cast<int64_t>(point.floor), !point.fraction, point.unit_end);
}

Status MapBatch(const DataType& type, const keys::PhysicalKey& key,
                const column::ColumnBatch& batch, int64_t begin, int64_t count, int64_t* keys) {
  using column::Physical;
  if (count > 0 && batch.values == nullptr) return WrongPhysical(type, batch);
  auto copy_as_long = [&](const auto* values) {
    for (int64_t i = 0; i < count; ++i) keys[i] = values[begin + i];
  };
  switch (key.unit) {
    case keys::KeyUnit::kValue:
    case keys::KeyUnit::kEpochDays:
    case keys::KeyUnit::kMillisOfDay:
      switch (batch.physical) {
        case Physical::kInt8: copy_as_long(batch.int8_values()); return Status::OK();
        case Physical::kInt16: copy_as_long(batch.int16_values()); return Status::OK();
        case Physical::kInt32: copy_as_long(batch.int32_values()); return Status::OK();
        case Physical::kInt64: copy_as_long(batch.int64_values()); return Status::OK();
        default: return WrongPhysical(type, batch);
      }
    case keys::KeyUnit::kUnscaled:
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
                "bsi: a DECIMAL unscaled value of column type ", type.ToString(),
                " does not fit in a long (Java's BSI writer fails here too)");
          }
          keys[i] = static_cast<int64_t>(low);
        }
        return Status::OK();
      }
      return WrongPhysical(type, batch);
    case keys::KeyUnit::kEpochMillis:
    case keys::KeyUnit::kEpochMicros: {
      if (batch.physical != Physical::kTimestamp) return WrongPhysical(type, batch);
      const int64_t bad = keys::TimestampKeys(key, batch, begin, count, keys);
      if (bad < 0) return Status::OK();
      return Status::InvalidArgument(
          "bsi: timestamp value ", batch.int64_values()[begin + bad], " of column type ",
          type.ToString(), " overflows a long of epoch ", (key.micros() ? "micros" : "millis"),
          " (Java fails here too)");
    }
  }
  return Status::Internal("bsi: unknown key unit");
}

}  // namespace pyfileindex::index::bsi
