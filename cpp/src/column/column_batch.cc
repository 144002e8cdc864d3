#include "column/column_batch.h"

#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pyfileindex::column {

namespace {
// value * factor, reporting overflow instead of wrapping.
int64_t CheckedScale(int64_t value, int64_t factor, bool* overflow) {
  int64_t out = 0;
  if (__builtin_mul_overflow(value, factor, &out)) {
    *overflow = true;
    return value < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return out;
}
using CompactFn = size_t (*)(const ColumnBatch&, int64_t, int64_t, uint64_t*);

size_t CompactValidScalar(const ColumnBatch& batch, int64_t begin, int64_t n, uint64_t* values) {
  return batch.KeepValid(begin, n, [values](size_t slot, int64_t i) { values[slot] = values[i]; });
}

#if defined(__x86_64__) && defined(__GNUC__)
// Validity bits [bit, bit + 8) as a byte. Both bytes read hold some of those bits, so neither
// lies past the validity buffer.
inline uint8_t ValidityByte(const uint8_t* validity, int64_t bit) {
  const int64_t shift = bit & 7;
  const uint8_t* p = validity + (bit >> 3);
  if (shift == 0) return p[0];
  return static_cast<uint8_t>((p[0] >> shift) | (p[1] << (8 - shift)));
}

// The compress works in a register and the store writes all eight lanes: a compress straight
// to memory is microcoded on some CPUs (AMD Zen 4: ~100 cycles). The lanes past the kept ones
// land on rows already read (kept <= i), so nothing unread is overwritten.
__attribute__((target("avx512f,popcnt"))) size_t CompactValidAvx512(const ColumnBatch& batch,
                                                                      int64_t begin, int64_t n,
                                                                      uint64_t* values) {
  size_t kept = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint8_t valid = ValidityByte(batch.validity, batch.validity_offset + begin + i);
    const __m512i row_values = _mm512_loadu_si512(values + i);
    _mm512_storeu_si512(values + kept, _mm512_maskz_compress_epi64(valid, row_values));
    kept += static_cast<size_t>(__builtin_popcount(valid));
  }
  for (; i < n; ++i) {
    values[kept] = values[i];
    kept += batch.IsValid(begin + i) ? 1 : 0;
  }
  return kept;
}

CompactFn PickCompact() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt")) {
    return CompactValidAvx512;
  }
  return CompactValidScalar;
}
#else
CompactFn PickCompact() { return CompactValidScalar; }
#endif

}  // namespace

size_t ColumnBatch::CompactValid(int64_t begin, int64_t n, uint64_t* values) const {
  if (validity == nullptr) return static_cast<size_t>(n);
  static const CompactFn compact = PickCompact();
  return compact(*this, begin, n, values);
}

const char* PhysicalName(Physical physical) {
  switch (physical) {
    case Physical::kBool: return "bool";
    case Physical::kInt8: return "int8";
    case Physical::kInt16: return "int16";
    case Physical::kInt32: return "int32";
    case Physical::kInt64: return "int64";
    case Physical::kFloat: return "float";
    case Physical::kDouble: return "double";
    case Physical::kDecimal: return "decimal64";
    case Physical::kDecimal128: return "decimal128";
    case Physical::kTimestamp: return "timestamp";
    case Physical::kBytes: return "bytes";
  }
  return "unknown";
}

EpochMillisNanos ToMillisNanos(int64_t value, TimeUnit unit, bool* overflow) {
  switch (unit) {
    case TimeUnit::kSecond: return {CheckedScale(value, 1000, overflow), 0};
    case TimeUnit::kMilli: return {value, 0};
    case TimeUnit::kMicro:
      return {FloorDiv(value, 1000), static_cast<int32_t>(FloorMod(value, 1000) * 1000)};
    case TimeUnit::kNano:
      return {FloorDiv(value, 1000000), static_cast<int32_t>(FloorMod(value, 1000000))};
  }
  return {value, 0};
}

int64_t ToEpochMillis(int64_t value, TimeUnit unit, bool* overflow) {
  return ToMillisNanos(value, unit, overflow).millis;
}

int64_t ToEpochMicros(int64_t value, TimeUnit unit, bool* overflow) {
  switch (unit) {
    case TimeUnit::kSecond: return CheckedScale(value, 1000000, overflow);
    case TimeUnit::kMilli: return CheckedScale(value, 1000, overflow);
    case TimeUnit::kMicro: return value;
    case TimeUnit::kNano: return FloorDiv(value, 1000);
  }
  return value;
}

}  // namespace pyfileindex::column
