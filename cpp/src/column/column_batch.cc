#include "column/column_batch.h"

#include <algorithm>
#include <limits>

#include "cpu/cpu_features.h"

#if defined(PFI_X86_KERNELS)
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

using CopyViewsFn = size_t (*)(const ColumnBatch&, int64_t, int64_t, std::string_view*);

size_t CopyValidViewsScalar(const ColumnBatch& batch, int64_t begin, int64_t n,
                            std::string_view* out) {
  const std::string_view* in = batch.strings + begin;
  return batch.KeepValid(begin, n, [in, out](size_t slot, int64_t i) { out[slot] = in[i]; });
}

#if defined(PFI_X86_KERNELS)

// A view is two 64-bit words: four rows fill a register, whose compress mask doubles each of
// their validity bits. The compress works in a register and the store writes all of it (a
// compress straight to memory is microcoded on some CPUs, AMD Zen 4: ~100 cycles), up to four
// views past the kept ones: the slack the caller leaves.
PFI_TARGET_AVX512 size_t CopyValidViewsAvx512(const ColumnBatch& batch,
                                              int64_t begin, int64_t n,
                                              std::string_view* out) {
  static_assert(sizeof(std::string_view) == 16, "a view is two words");
  static constexpr uint8_t kDoubled[16] = {0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
                                           0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF};
  const std::string_view* in = batch.strings + begin;
  uint64_t* words = reinterpret_cast<uint64_t*>(out);
  size_t kept = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint8_t valid = static_cast<uint8_t>(batch.ValidBits(begin + i, 8));
    const __m512i low = _mm512_loadu_si512(in + i);
    const __m512i high = _mm512_loadu_si512(in + i + 4);
    _mm512_storeu_si512(words + 2 * kept, _mm512_maskz_compress_epi64(kDoubled[valid & 15], low));
    kept += static_cast<size_t>(__builtin_popcount(valid & 15));
    _mm512_storeu_si512(words + 2 * kept, _mm512_maskz_compress_epi64(kDoubled[valid >> 4], high));
    kept += static_cast<size_t>(__builtin_popcount(valid >> 4));
  }
  for (; i < n; ++i) {
    out[kept] = in[i];
    kept += batch.IsValid(begin + i) ? 1 : 0;
  }
  return kept;
}

CopyViewsFn PickCopyViews() {
  if (cpu::Features().HasAvx512()) {
    return CopyValidViewsAvx512;
  }
  return CopyValidViewsScalar;
}

// Sixteen offsets a register, compressed by the rows' validity bits and stored whole (see
// CopyValidViewsAvx512): up to sixteen past the kept ones, the caller's slack.
PFI_TARGET_AVX512 size_t ValidRowOffsetsAvx512(const ColumnBatch& batch,
                                               int64_t begin, int64_t n,
                                               uint32_t* out) {
  const __m512i step = _mm512_set1_epi32(16);
  __m512i offsets = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  size_t kept = 0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const uint64_t valid = batch.ValidBits(begin + i, 64);
    for (int part = 0; part < 4; ++part) {
      const __mmask16 mask = static_cast<__mmask16>(valid >> (16 * part));
      _mm512_storeu_si512(out + kept, _mm512_maskz_compress_epi32(mask, offsets));
      kept += static_cast<size_t>(__builtin_popcount(mask));
      offsets = _mm512_add_epi32(offsets, step);
    }
  }
  for (; i < n; ++i) {
    out[kept] = static_cast<uint32_t>(i);
    kept += batch.IsValid(begin + i) ? 1 : 0;
  }
  return kept;
}

using RowOffsetsFn = size_t (*)(const ColumnBatch&, int64_t, int64_t, uint32_t*);

RowOffsetsFn PickRowOffsets() {
  if (cpu::Features().HasAvx512()) {
    return ValidRowOffsetsAvx512;
  }
  return nullptr;
}
#else
CopyViewsFn PickCopyViews() { return CopyValidViewsScalar; }
using RowOffsetsFn = size_t (*)(const ColumnBatch&, int64_t, int64_t, uint32_t*);
RowOffsetsFn PickRowOffsets() { return nullptr; }
#endif

}  // namespace

namespace {
template <typename Offset>
bool OffsetsSpanValidBytes(const ColumnBatch& batch, const Offset* offsets) {
  int64_t first_valid = 0;
  while (first_valid < batch.length && !batch.IsValid(first_valid)) ++first_valid;
  if (first_valid == batch.length) return false;
  int64_t last_valid = batch.length - 1;
  while (!batch.IsValid(last_valid)) --last_valid;
  if (offsets[0] != offsets[first_valid] || offsets[batch.length] != offsets[last_valid + 1]) {
    return false;
  }
  bool decreasing = false;  // no early exit: the loop vectorizes
  for (int64_t i = 0; i < batch.length; ++i) decreasing |= offsets[i + 1] < offsets[i];
  return !decreasing;
}
}  // namespace

bool ColumnBatch::NullRowsSpanValidBytes() const {
  if (offsets32 != nullptr) return OffsetsSpanValidBytes(*this, offsets32);
  if (offsets64 != nullptr) return OffsetsSpanValidBytes(*this, offsets64);
  return false;
}

namespace {
template <typename Offset>
size_t ValidViewsFromOffsets(const ColumnBatch& batch, const Offset* offsets, int64_t begin,
                             int64_t n, std::string_view* out) {
  const char* data = batch.string_data;
  offsets += begin;
  auto view = [data, offsets](int64_t i) {
    return std::string_view(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  if (batch.validity == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = view(i);
    return static_cast<size_t>(n);
  }
  // Eight rows per validity byte: all valid (most bytes, with few nulls) without a test per
  // row; otherwise each row's view is written and kept only if valid. A null row's offsets
  // may be anything: they are masked to an empty view, which the next row overwrites.
  size_t slot = 0;
  int64_t i = 0;
  auto masked = [&](int64_t row, bool valid) {
    const Offset keep = -static_cast<Offset>(valid);  // all ones or zero
    const Offset first = offsets[row] & keep;
    out[slot] = std::string_view(data + first, static_cast<size_t>((offsets[row + 1] & keep) - first));
    slot += valid ? 1 : 0;
  };
  for (; i + 8 <= n; i += 8) {
    const uint8_t valid = static_cast<uint8_t>(batch.ValidBits(begin + i, 8));
    if (valid == 0xFF) {
      for (int64_t j = 0; j < 8; ++j) out[slot + static_cast<size_t>(j)] = view(i + j);
      slot += 8;
    } else {
      for (int64_t j = 0; j < 8; ++j) masked(i + j, (valid >> j) & 1);
    }
  }
  for (; i < n; ++i) masked(i, batch.IsValid(begin + i));
  return slot;
}
}  // namespace

size_t ColumnBatch::ValidRowOffsets(int64_t begin, int64_t n, uint32_t* out) const {
  static const RowOffsetsFn vectorized = PickRowOffsets();
  if (validity != nullptr && vectorized != nullptr) return vectorized(*this, begin, n, out);
  return KeepValid(begin, n, [out](size_t slot, int64_t i) { out[slot] = static_cast<uint32_t>(i); });
}

size_t ColumnBatch::CopyValidViews(int64_t begin, int64_t n, std::string_view* out) const {
  if (strings == nullptr) {
    if (offsets32 != nullptr) return ValidViewsFromOffsets(*this, offsets32, begin, n, out);
    return ValidViewsFromOffsets(*this, offsets64, begin, n, out);
  }
  if (validity == nullptr) {
    std::copy(strings + begin, strings + begin + n, out);
    return static_cast<size_t>(n);
  }
  static const CopyViewsFn copy = PickCopyViews();
  return copy(*this, begin, n, out);
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

size_t ValueWidth(Physical physical) {
  switch (physical) {
    case Physical::kBool:
    case Physical::kInt8: return 1;
    case Physical::kInt16: return 2;
    case Physical::kInt32:
    case Physical::kFloat: return 4;
    case Physical::kInt64:
    case Physical::kDouble:
    case Physical::kDecimal:
    case Physical::kTimestamp: return 8;
    case Physical::kDecimal128: return 16;
    case Physical::kBytes: return sizeof(std::string_view);
  }
  return 8;
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
