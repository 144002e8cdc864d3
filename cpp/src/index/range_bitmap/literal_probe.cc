#include "index/range_bitmap/literal_probe.h"

#include "index/keys/literal_position.h"
#include "java/hash_codes.h"

namespace pyfileindex::index::range_bitmap {

namespace {

Probe Exact(uint64_t ordered) {
  Probe p;
  p.key.ordered = ordered;
  return p;
}

Probe Gap(bool has_lo, uint64_t lo, bool has_hi, uint64_t hi) {
  Probe p;
  p.exact = false;
  p.has_lo = has_lo;
  p.lo.ordered = lo;
  p.has_hi = has_hi;
  p.hi.ordered = hi;
  return p;
}

// Integer, DECIMAL and TIMESTAMP literals among the integer keys of `kind`.
Probe PlaceInteger(const keys::AxisPoint& point, KeyKind kind) {
  const int64_t min = keys::MinIntegerKey(kind);
  const int64_t max = keys::MaxIntegerKey(kind);
  const keys::IntegerPosition position = keys::PlaceAmongIntegers(point, min, max);
  switch (position.where) {
    case keys::IntegerPosition::Where::kBelowAll:
      return Gap(false, 0, true, OrderedFromSigned(min));
    case keys::IntegerPosition::Where::kAboveAll:
      return Gap(true, OrderedFromSigned(max), false, 0);
    case keys::IntegerPosition::Where::kExact:
      return Exact(OrderedFromSigned(position.key));
    case keys::IntegerPosition::Where::kBetween:
      break;
  }
  return Gap(true, OrderedFromSigned(position.key), true, OrderedFromSigned(position.key + 1));
}

Probe PlaceFloat(double d) {
  const keys::FloatPosition position = keys::PlaceAmongFloats(d);
  if (position.exact) return Exact(OrderedFromFloat(position.lo));
  return Gap(true, OrderedFromFloat(position.lo), true, OrderedFromFloat(position.hi));
}

}  // namespace

int CompareStoredKey(const KeySpec& spec, std::string_view stored, const LookupKey& key) {
  if (keys::IsByteString(spec.kind)) return java::BinaryStringCompareTo(stored, key.bytes);
  const uint64_t v = DecodeOrdered(spec.kind, reinterpret_cast<const uint8_t*>(stored.data()));
  return (v > key.ordered) - (v < key.ordered);
}

Result<Probe> MakeProbe(const KeySpec& spec, const DataType& type, const Literal& literal) {
  PFI_RETURN_NOT_OK(keys::CheckLiteralKind(spec, type, literal));
  switch (spec.kind) {
    case KeyKind::kString:
    case KeyKind::kBinary: {
      Probe p;
      p.key.bytes = literal.bytes();
      return p;
    }
    case KeyKind::kBool:
      return Exact(literal.bool_value() ? 1 : 0);
    case KeyKind::kFloat:
      return PlaceFloat(literal.double_value());
    case KeyKind::kDouble:
      return Exact(OrderedFromDouble(literal.double_value()));
    case KeyKind::kInt8:
    case KeyKind::kInt16:
    case KeyKind::kInt32:
    case KeyKind::kInt64:
      break;
  }
  PFI_ASSIGN_OR_RETURN(keys::AxisPoint point, keys::PointOf(spec, literal));
  return PlaceInteger(point, spec.kind);
}

}  // namespace pyfileindex::index::range_bitmap
