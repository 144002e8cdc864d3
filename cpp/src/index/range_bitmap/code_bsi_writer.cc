#include "index/range_bitmap/code_bsi_writer.h"

#include <algorithm>
#include <cstring>

#include "io/endian.h"
#include "roaring/dense_roaring_encoder.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pyfileindex::index::range_bitmap {

namespace {

using roaring::DenseRoaringEncoder;
using roaring::kBlockWords;
constexpr uint8_t kVersion = 1;
constexpr uint32_t kBlockRows = 65536;

// Bit transpose of 64 codes: bit j of out[i] = bit i of codes[j], for i < bits.
#if defined(__SSE2__)
// Byte by byte: pack byte b of 16 codes into one vector, then each movemask of the vector
// shifted so bit t reaches every byte's top yields bit 8b + t of 16 rows.
void Transpose64(const uint32_t* codes, int bits, uint64_t* out) {
  const __m128i low_byte = _mm_set1_epi32(0xff);
  for (int b = 0; 8 * b < bits; ++b) {
    const __m128i shift = _mm_cvtsi32_si128(8 * b);
    uint64_t words[8] = {0};
    for (int g = 0; g < 4; ++g) {
      const __m128i* in = reinterpret_cast<const __m128i*>(codes + 16 * g);
      __m128i v0 = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(in + 0), shift), low_byte);
      __m128i v1 = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(in + 1), shift), low_byte);
      __m128i v2 = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(in + 2), shift), low_byte);
      __m128i v3 = _mm_and_si128(_mm_srl_epi32(_mm_loadu_si128(in + 3), shift), low_byte);
      const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3));
      const int count = std::min(8, bits - 8 * b);
      for (int t = 0; t < count; ++t) {
        const __m128i moved = _mm_sll_epi16(bytes, _mm_cvtsi32_si128(7 - t));
        words[t] |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(moved)))
                    << (16 * g);
      }
    }
    const int count = std::min(8, bits - 8 * b);
    for (int t = 0; t < count; ++t) out[8 * b + t] = words[t];
  }
}
#else
void Transpose64(const uint32_t* codes, int bits, uint64_t* out) {
  for (int i = 0; i < bits; ++i) out[i] = 0;
  for (int j = 0; j < 64; ++j) {
    uint32_t code = codes[j];
    while (code != 0) {
      out[__builtin_ctz(code)] |= uint64_t{1} << j;
      code &= code - 1;
    }
  }
}
#endif

}  // namespace

int SliceCount(int64_t cardinality) {
  const int64_t max = cardinality - 1;
  if (max == 0) return 1;
  return 64 - __builtin_clzll(static_cast<uint64_t>(max));  // max = -1 -> 64
}

CodeBsi::CodeBsi(uint32_t row_count, int64_t cardinality, const uint64_t* validity,
                 const uint32_t* codes)
    : slices_(SliceCount(cardinality)), slice_encoders_(static_cast<size_t>(slices_)) {
  // Codes have at most 31 significant bits; slices past that stay empty (only the
  // cardinality-0 index has them, and it has no codes at all).
  const int code_bits = std::min(slices_, 32);
  std::vector<uint64_t> slice_words(static_cast<size_t>(code_bits) * kBlockWords);
  uint64_t block_words[kBlockWords];

  const uint32_t blocks = (row_count + kBlockRows - 1) / kBlockRows;
  size_t next_code = 0;
  for (uint32_t b = 0; b < blocks; ++b) {
    const size_t first_word = size_t{b} * kBlockWords;
    const size_t word_count =
        std::min<size_t>(kBlockWords, (size_t{row_count} + 63) / 64 - first_word);
    std::memset(block_words, 0, sizeof block_words);
    std::memcpy(block_words, validity + first_word, word_count * sizeof(uint64_t));
    std::fill(slice_words.begin(), slice_words.end(), 0);

    // Transpose 64 rows at a time: bit i of a row's code is that row's bit in slice i.
    for (size_t wi = 0; wi < word_count && code_bits > 0; ++wi) {
      uint64_t rows = block_words[wi];
      if (rows == 0) continue;
      uint32_t gathered[64];
      const uint32_t* row_codes = codes + next_code;
      if (rows == ~uint64_t{0}) {
        next_code += 64;
      } else {
        std::memset(gathered, 0, sizeof gathered);  // NULL rows: code 0, no slice bits
        while (rows != 0) {
          gathered[__builtin_ctzll(rows)] = codes[next_code++];
          rows &= rows - 1;
        }
        row_codes = gathered;
      }
      uint64_t transposed[32];
      Transpose64(row_codes, code_bits, transposed);
      for (int i = 0; i < code_bits; ++i) {
        slice_words[static_cast<size_t>(i) * kBlockWords + wi] = transposed[i];
      }
    }

    const uint16_t key = static_cast<uint16_t>(b);
    ebm_.AddBlock(key, block_words);
    for (int i = 0; i < code_bits; ++i) {
      slice_encoders_[i].AddBlock(key, slice_words.data() + static_cast<size_t>(i) * kBlockWords);
    }
  }
}

size_t CodeBsi::HeaderSize() const { return 4 + 1 + 1 + 4 + 4 + 8 * static_cast<size_t>(slices_); }

size_t CodeBsi::size() const {
  size_t total = HeaderSize() + ebm_.SerializedSize();
  for (const DenseRoaringEncoder& slice : slice_encoders_) total += slice.SerializedSize();
  return total;
}

void CodeBsi::WriteTo(uint8_t* out) {
  const uint32_t index_bytes = 8 * static_cast<uint32_t>(slices_);
  io::StoreU32BE(out, 1 + 1 + 4 + 4 + index_bytes);
  out[4] = kVersion;
  out[5] = static_cast<uint8_t>(static_cast<int8_t>(slices_));
  io::StoreU32BE(out + 6, static_cast<uint32_t>(ebm_.SerializedSize()));
  io::StoreU32BE(out + 10, index_bytes);
  uint8_t* p = out + 14;
  uint32_t offset = 0;
  for (const DenseRoaringEncoder& slice : slice_encoders_) {
    const uint32_t length = static_cast<uint32_t>(slice.SerializedSize());
    io::StoreU32BE(p, offset);
    io::StoreU32BE(p + 4, length);
    offset += length;
    p += 8;
  }
  const size_t ebm_size = ebm_.SerializedSize();
  ebm_.WriteTo(p);
  ebm_.Release();
  p += ebm_size;
  for (DenseRoaringEncoder& slice : slice_encoders_) {
    const size_t size = slice.SerializedSize();
    slice.WriteTo(p);
    slice.Release();
    p += size;
  }
}

void WriteCodeBsi(uint32_t row_count, int64_t cardinality, const uint64_t* validity,
                  const uint32_t* codes, std::vector<uint8_t>* out) {
  CodeBsi bsi(row_count, cardinality, validity, codes);
  const size_t start = out->size();
  out->resize(start + bsi.size());
  bsi.WriteTo(out->data() + start);
}

}  // namespace pyfileindex::index::range_bitmap
