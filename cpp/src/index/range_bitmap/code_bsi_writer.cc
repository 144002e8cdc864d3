#include "index/range_bitmap/code_bsi_writer.h"

#include <algorithm>

#include "io/endian.h"
#include "roaring/dense_roaring_encoder.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pyfileindex::index::range_bitmap {

namespace {

using roaring::DenseRoaringEncoder;
using roaring::kBlockWords;
using roaring::SetBitRange;
constexpr uint8_t kVersion = 1;

// The section's head: its length, version, slice count, the EBM's bytes and an (offset,
// length) entry per slice, slices back to back after the EBM.
size_t BsiHeadBytes(int slices) { return 4 + 1 + 1 + 4 + 4 + 8 * static_cast<size_t>(slices); }

// Slice `slice`'s rows of a block given as runs: for_each_run(run) calls run(begin, end, code)
// for each run of rows [begin, end), in order; the runs whose code has bit `slice` go to `out`
// as intervals, neighbours joined into one.
template <typename ForEachRun>
void SliceIntervals(int slice, ForEachRun&& for_each_run, std::vector<uint32_t>* out) {
  out->clear();
  for_each_run([slice, out](uint32_t begin, uint32_t end, uint32_t code) {
    if (((code >> slice) & 1) != 0) roaring::AppendInterval(out, begin, end);
  });
}

// Writes the head for slices of slice_bytes(i) bytes; returns where the EBM goes.
template <typename SliceBytes>
uint8_t* WriteBsiHead(uint8_t* out, int slices, size_t ebm_bytes, SliceBytes&& slice_bytes) {
  const uint32_t index_bytes = 8 * static_cast<uint32_t>(slices);
  io::StoreU32BE(out, 1 + 1 + 4 + 4 + index_bytes);
  out[4] = kVersion;
  out[5] = static_cast<uint8_t>(static_cast<int8_t>(slices));
  io::StoreU32BE(out + 6, static_cast<uint32_t>(ebm_bytes));
  io::StoreU32BE(out + 10, index_bytes);
  uint8_t* p = out + 14;
  uint32_t offset = 0;
  for (int i = 0; i < slices; ++i) {
    const uint32_t length = static_cast<uint32_t>(slice_bytes(i));
    io::StoreU32BE(p, offset);
    io::StoreU32BE(p + 4, length);
    offset += length;
    p += 8;
  }
  return p;
}

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

CodeBsi::CodeBsi(int64_t cardinality, size_t blocks)
    : slices_(SliceCount(cardinality)),
      // Codes have at most 31 significant bits; slices past that stay empty (only the
      // cardinality-0 index has them, and it has no codes at all).
      code_bits_(std::min(slices_, 32)),
      slice_encoders_(static_cast<size_t>(slices_)) {
  ebm_.ReserveBlocks(blocks);
  for (int i = 0; i < code_bits_; ++i) slice_encoders_[i].ReserveBlocks(blocks);
}

void CodeBsi::AddBlock(uint16_t key, const uint64_t* validity, const uint32_t* codes) {
  const size_t all_slices = static_cast<size_t>(code_bits_) * kBlockWords;
  if (slice_words_.size() < all_slices) slice_words_.resize(all_slices);
  std::fill(slice_words_.begin(), slice_words_.end(), 0);
  // Transpose 64 rows at a time: bit i of a row's code is that row's bit in slice i.
  for (size_t wi = 0; wi < kBlockWords && code_bits_ > 0; ++wi) {
    const uint64_t rows = validity[wi];
    if (rows == 0) continue;
    uint64_t transposed[32];
    Transpose64(codes + 64 * wi, code_bits_, transposed);
    for (int i = 0; i < code_bits_; ++i) {
      slice_words_[static_cast<size_t>(i) * kBlockWords + wi] = transposed[i] & rows;
    }
  }
  ebm_.AddBlock(key, validity);
  for (int i = 0; i < code_bits_; ++i) {
    slice_encoders_[i].AddBlock(key, slice_words_.data() + static_cast<size_t>(i) * kBlockWords);
  }
}

void CodeBsi::AddRuns(uint16_t key, const uint64_t* validity, const uint32_t* ends,
                      const uint32_t* codes, size_t runs) {
  if (validity == nullptr) {
    AddValidRuns(key, ends, codes, runs);
    return;
  }
  ebm_.AddBlock(key, validity);
  if (slice_words_.size() < kBlockWords) slice_words_.resize(kBlockWords);
  uint64_t* words = slice_words_.data();
  for (int i = 0; i < code_bits_; ++i) {
    std::fill(words, words + kBlockWords, 0);
    uint32_t begin = 0;
    for (size_t r = 0; r < runs; ++r) {
      if ((codes[r] >> i) & 1) SetBitRange(words, begin, ends[r]);
      begin = ends[r];
    }
    // Rows without a key have no bit in any slice.
    for (size_t wi = 0; wi < kBlockWords; ++wi) words[wi] &= validity[wi];
    slice_encoders_[i].AddBlock(key, words);
  }
}

void CodeBsi::AddValidRuns(uint16_t key, const uint32_t* ends, const uint32_t* codes,
                           size_t runs) {
  if (runs == 0) return;
  const uint32_t all_rows[2] = {0, ends[runs - 1]};
  ebm_.AddIntervals(key, all_rows, 1);
  for (int i = 0; i < code_bits_; ++i) {
    SliceIntervals(i, [&](auto&& run) {
      uint32_t begin = 0;
      for (size_t r = 0; r < runs; ++r) {
        run(begin, ends[r], codes[r]);
        begin = ends[r];
      }
    }, &intervals_);
    slice_encoders_[i].AddIntervals(key, intervals_.data(), intervals_.size() / 2);
  }
}

size_t CodeBsi::HeaderSize() const { return BsiHeadBytes(slices_); }

size_t CodeBsi::size() const {
  size_t total = HeaderSize() + ebm_.SerializedSize();
  for (const DenseRoaringEncoder& slice : slice_encoders_) total += slice.SerializedSize();
  return total;
}

void CodeBsi::WriteTo(uint8_t* out) {
  const size_t ebm_size = ebm_.SerializedSize();
  uint8_t* p = WriteBsiHead(out, slices_, ebm_size, [this](int i) {
    return slice_encoders_[static_cast<size_t>(i)].SerializedSize();
  });
  ebm_.MoveTo(p);
  p += ebm_size;
  for (DenseRoaringEncoder& slice : slice_encoders_) {
    const size_t size = slice.SerializedSize();
    slice.MoveTo(p);
    p += size;
  }
}

RunCodeBsi::RunCodeBsi(int64_t cardinality, const std::vector<PackedRowIds>* blocks,
                       const uint32_t* map)
    : slices_(SliceCount(cardinality)),
      code_bits_(std::min(slices_, 32)),
      blocks_(blocks),
      map_(map),
      slice_shapes_(static_cast<size_t>(slices_)) {
  ForEachBlock(kEbm, [this](uint16_t, const uint32_t* bounds, size_t count) {
    ebm_.Add(bounds, count);
  });
  for (int i = 0; i < code_bits_; ++i) {
    roaring::IntervalBitmapShape& shape = slice_shapes_[static_cast<size_t>(i)];
    ForEachBlock(i, [&shape](uint16_t, const uint32_t* bounds, size_t count) {
      shape.Add(bounds, count);
    });
  }
}

template <typename Visit>
void RunCodeBsi::ForEachBlock(int slice, Visit&& visit) {
  for (size_t b = 0; b < blocks_->size(); ++b) {
    const PackedRowIds& block = (*blocks_)[b];
    intervals_.clear();
    if (slice == kEbm) {
      intervals_.insert(intervals_.end(), {0, block.rows()});
    } else {
      SliceIntervals(slice, [&](auto&& run) {
        block.ForEachRun([&](uint32_t begin, uint32_t end, uint32_t id) {
          run(begin, end, map_ != nullptr ? map_[id] : id);
        });
      }, &intervals_);
    }
    visit(static_cast<uint16_t>(b), intervals_.data(), intervals_.size() / 2);
  }
}

size_t RunCodeBsi::size() const {
  size_t total = BsiHeadBytes(slices_) + ebm_.SerializedSize();
  for (const roaring::IntervalBitmapShape& shape : slice_shapes_) total += shape.SerializedSize();
  return total;
}

void RunCodeBsi::WriteTo(uint8_t* out) {
  uint8_t* p = WriteBsiHead(out, slices_, ebm_.SerializedSize(), [this](int i) {
    return slice_shapes_[static_cast<size_t>(i)].SerializedSize();
  });
  auto write = [&p, this](int slice, const roaring::IntervalBitmapShape& shape) {
    roaring::IntervalBitmapWriter writer(shape, p);
    if (slice == kEbm || slice < code_bits_) {
      ForEachBlock(slice, [&writer](uint16_t key, const uint32_t* bounds, size_t count) {
        writer.Add(key, bounds, count);
      });
    }
    p += shape.SerializedSize();
  };
  write(kEbm, ebm_);
  for (int i = 0; i < slices_; ++i) write(i, slice_shapes_[static_cast<size_t>(i)]);
}

}  // namespace pyfileindex::index::range_bitmap
