#include "index/bloom_filter/fast_hash.h"

#include <cmath>
#include <limits>

#include "cpu/cpu_features.h"

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

namespace {
// Java's (float) d: IEEE round-to-nearest-even, overflowing to infinity. C++ leaves the cast
// undefined outside float's range, so that part is spelled out.
float JavaDoubleToFloat(double d) {
  if (std::isnan(d)) return std::numeric_limits<float>::quiet_NaN();
  const double max_float = static_cast<double>(std::numeric_limits<float>::max());
  if (std::fabs(d) > max_float) {
    // Half an ulp of FLT_MAX (2^103) above it is the rounding midpoint; the tie goes to the
    // even neighbour, which is infinity because FLT_MAX has an odd significand.
    const double midpoint = max_float + std::ldexp(1.0, 103);
    const float magnitude = std::fabs(d) < midpoint ? std::numeric_limits<float>::max()
                                                    : std::numeric_limits<float>::infinity();
    return d < 0 ? -magnitude : magnitude;
  }
  return static_cast<float>(d);
}

bool FitsIntegralType(TypeRoot root, int64_t v) {
  switch (root) {
    case TypeRoot::kTinyInt: return v >= -128 && v <= 127;
    case TypeRoot::kSmallInt: return v >= -32768 && v <= 32767;
    case TypeRoot::kBigInt: return true;
    default:  // INT, DATE, TIME are Java ints
      return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
  }
}

}  // namespace

Result<FastHash> FastHash::For(const DataType& type) {
  switch (type.root) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return FastHash(type, Kind::kBytes);
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return FastHash(type, Kind::kLong);
    case TypeRoot::kFloat:
      return FastHash(type, Kind::kFloat);
    case TypeRoot::kDouble:
      return FastHash(type, Kind::kDouble);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLocalTimeZone:
      return FastHash(type, type.precision <= 3 ? Kind::kTimestampMillis : Kind::kTimestampMicros);
    default:
      return Status::InvalidArgument("type '" + type.ToString() +
                                     "' is not supported by 'bloom-filter' index");
  }
}

Status FastHash::WrongPhysical(const column::ColumnBatch& batch) const {
  return Status::InvalidArgument("bloom-filter: a column of type " + type_.ToString() +
                                 " cannot take " + column::PhysicalName(batch.physical) + " values");
}

Status FastHash::TimestampOverflow(int64_t value) const {
  return Status::InvalidArgument("bloom-filter: timestamp value " + std::to_string(value) +
                                 " of column type " + type_.ToString() +
                                 " overflows epoch " +
                                 (kind_ == Kind::kTimestampMicros ? "microseconds" : "milliseconds") +
                                 " in a long (Java fails here too)");
}

Result<std::optional<uint64_t>> FastHash::HashLiteral(const Literal& literal) const {
  auto wrong_kind = [&]() {
    return Status::InvalidArgument(literal.Describe() +
                                   " cannot be compared with a column of type " +
                                   type_.ToString());
  };
  switch (kind_) {
    case Kind::kBytes: {
      if (literal.kind() != Literal::Kind::kString) return wrong_kind();
      return std::optional<uint64_t>(hash::Xxh64(literal.bytes()));
    }
    case Kind::kLong: {
      if (literal.kind() != Literal::Kind::kInt) return wrong_kind();
      // Out of the type's range: no stored value can be equal (never narrow the literal).
      if (!FitsIntegralType(type_.root, literal.int_value())) return std::optional<uint64_t>();
      return std::optional<uint64_t>(Wang64(literal.int_value()));
    }
    case Kind::kFloat: {
      if (literal.kind() != Literal::Kind::kDouble) return wrong_kind();
      // As Paimon converts a literal to the column type: nearest float. A float equal to the
      // double literal is necessarily that float, so this never causes a wrong SKIP.
      return std::optional<uint64_t>(
          Wang64(java::FloatToIntBits(JavaDoubleToFloat(literal.double_value()))));
    }
    case Kind::kDouble: {
      if (literal.kind() != Literal::Kind::kDouble) return wrong_kind();
      return std::optional<uint64_t>(Wang64(java::DoubleToLongBits(literal.double_value())));
    }
    case Kind::kTimestampMillis:
    case Kind::kTimestampMicros: {
      if (literal.kind() != Literal::Kind::kTimestamp) return wrong_kind();
      const int32_t nanos = literal.nano_of_milli();
      if (nanos < 0 || nanos > 999999) {
        return Status::InvalidArgument("timestamp literal " + literal.ToString() +
                                       ": nano of millisecond must be within 0..999999");
      }
      if (kind_ == Kind::kTimestampMillis) {
        return std::optional<uint64_t>(Wang64(literal.int_value()));
      }
      int64_t micros = 0;
      if (__builtin_mul_overflow(literal.int_value(), int64_t{1000}, &micros) ||
          __builtin_add_overflow(micros, int64_t{nanos / 1000}, &micros)) {
        // Beyond every value a column can hold (writing such a value fails).
        return std::optional<uint64_t>();
      }
      return std::optional<uint64_t>(Wang64(micros));
    }
  }
  return Status::Internal("bloom-filter: unknown hash kind");
}

}  // namespace pyfileindex::index::bloom_filter
