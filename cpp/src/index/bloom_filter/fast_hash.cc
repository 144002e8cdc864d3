#include "index/bloom_filter/fast_hash.h"

#include <cmath>
#include <limits>

#include "cpu/cpu_features.h"
#include "index/keys/literal_position.h"

#if defined(PFI_X86_KERNELS)
#include <immintrin.h>
#endif

namespace pyfileindex::index::bloom_filter {

namespace {

void Wang64ManyScalar(uint64_t* keys, size_t n) {
  for (size_t i = 0; i < n; ++i) keys[i] = Wang64(static_cast<int64_t>(keys[i]));
}

#if defined(PFI_X86_KERNELS)
// Wang64 on four keys a register. AVX2 has no 64-bit arithmetic shift right: the sign is
// spread with a compare and shifted into the top bits.
template <int kBits>
PFI_TARGET_AVX2 inline __m256i ShiftRightArithmetic(__m256i x) {
  const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
  return _mm256_or_si256(_mm256_srli_epi64(x, kBits), _mm256_slli_epi64(sign, 64 - kBits));
}

PFI_TARGET_AVX2 void Wang64ManyAvx2(uint64_t* keys, size_t n) {
  const __m256i ones = _mm256_set1_epi64x(-1);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + i));
    x = _mm256_add_epi64(_mm256_xor_si256(x, ones), _mm256_slli_epi64(x, 21));
    x = _mm256_xor_si256(x, ShiftRightArithmetic<24>(x));
    x = _mm256_add_epi64(_mm256_add_epi64(x, _mm256_slli_epi64(x, 3)), _mm256_slli_epi64(x, 8));
    x = _mm256_xor_si256(x, ShiftRightArithmetic<14>(x));
    x = _mm256_add_epi64(_mm256_add_epi64(x, _mm256_slli_epi64(x, 2)), _mm256_slli_epi64(x, 4));
    x = _mm256_xor_si256(x, ShiftRightArithmetic<28>(x));
    x = _mm256_add_epi64(x, _mm256_slli_epi64(x, 31));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys + i), x);
  }
  Wang64ManyScalar(keys + i, n - i);
}

using Wang64ManyFn = void (*)(uint64_t*, size_t);
Wang64ManyFn PickWang64Many() {
  return cpu::Features().HasAvx2() ? Wang64ManyAvx2 : Wang64ManyScalar;
}
#endif

}  // namespace

void Wang64Many(uint64_t* keys, size_t n) {
#if defined(PFI_X86_KERNELS)
  static const Wang64ManyFn many = PickWang64Many();
  many(keys, n);
#else
  Wang64ManyScalar(keys, n);
#endif
}

Result<FastHash> FastHash::For(const DataType& type) {
  // The bloom-filter index's acceptance policy: every type with a scalar key except BOOLEAN
  // and DECIMAL (Paimon 2.0's FastHash has no hash for them).
  const std::optional<keys::PhysicalKey> key = keys::PhysicalKeyOf(type);
  if (key && !key->is_decimal()) {
    switch (key->kind) {
      case keys::KeyKind::kString:
      case keys::KeyKind::kBinary: return FastHash(type, *key, Kind::kBytes);
      case keys::KeyKind::kInt8:
      case keys::KeyKind::kInt16:
      case keys::KeyKind::kInt32:
      case keys::KeyKind::kInt64:
        if (!key->is_timestamp()) return FastHash(type, *key, Kind::kLong);
        return FastHash(type, *key, key->micros() ? Kind::kTimestampMicros : Kind::kTimestampMillis);
      case keys::KeyKind::kFloat: return FastHash(type, *key, Kind::kFloat);
      case keys::KeyKind::kDouble: return FastHash(type, *key, Kind::kDouble);
      case keys::KeyKind::kBool: break;
    }
  }
  return Status::InvalidArgument("type '", type.ToString(),
                                 "' is not supported by 'bloom-filter' index");
}

Status FastHash::WrongPhysical(const column::ColumnBatch& batch) const {
  return Status::InvalidArgument("bloom-filter: a column of type ", type_.ToString(),
                                 " cannot take ", column::PhysicalName(batch.physical), " values");
}

Status FastHash::TimestampOverflow(int64_t value) const {
  return Status::InvalidArgument("bloom-filter: timestamp value ", value,
                                 " of column type ", type_.ToString(),
                                 " overflows epoch ", keys::TimestampKeyUnitName(key_),
                                 " in a long (Java fails here too)");
}

Result<std::optional<uint64_t>> FastHash::HashLiteral(const Literal& literal) const {
  PFI_RETURN_NOT_OK(keys::CheckLiteralKind(key_, type_, literal));
  switch (kind_) {
    case Kind::kBytes:
      return std::optional<uint64_t>(hash::Xxh64(literal.bytes()));
    case Kind::kLong:
    case Kind::kTimestampMillis:
    case Kind::kTimestampMicros: {
      // Java hashes the literal truncated to the column's unit; a literal outside the column's
      // keys (300 on TINYINT, micros beyond a long) equals no stored value (never narrowed).
      PFI_ASSIGN_OR_RETURN(keys::AxisPoint point, keys::PointOf(key_, literal));
      const std::optional<int64_t> key = keys::TruncatedKey(point, key_.kind);
      if (!key) return std::optional<uint64_t>();
      return std::optional<uint64_t>(Wang64(*key));
    }
    case Kind::kFloat:
      // As Paimon converts a literal to the column type: nearest float. A float equal to the
      // double literal is necessarily that float, so this never causes a wrong SKIP.
      return std::optional<uint64_t>(
          Wang64(java::FloatToIntBits(keys::NearestFloat(literal.double_value()))));
    case Kind::kDouble:
      return std::optional<uint64_t>(Wang64(java::DoubleToLongBits(literal.double_value())));
  }
  return Status::Internal("bloom-filter: unknown hash kind");
}

}  // namespace pyfileindex::index::bloom_filter
