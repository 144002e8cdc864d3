#include "index/range_bitmap/code_bsi_reader.h"

#include <algorithm>
#include <string>
#include <vector>

#include "index/range_bitmap/block_ops.h"
#include "index/range_bitmap/code_bsi_writer.h"
#include "index/range_bitmap/code_range_scan.h"
#include "index/range_bitmap/dense_roaring_encoder.h"
#include "io/byte_reader.h"

namespace pyfileindex::index::range_bitmap {

namespace {
constexpr int8_t kMaxVersion = 1;

Status Bad(const std::string& what) { return Status::Corrupt("range-bitmap BSI: " + what); }

void ZeroWords(uint64_t* dst) { std::fill(dst, dst + kBlockWords, uint64_t{0}); }

// First slice gt(code) reads: the trailing 1-bits of the code cannot make a row greater.
int GreaterStart(int64_t code) { return __builtin_ctzll(~static_cast<uint64_t>(code)); }

}  // namespace

// Evaluates Java's eq and gt formulas for a group of row blocks (the EBM's containers
// [first, first + count)), one slice at a time: each slice is then read as one sequential
// stream, which is much faster than visiting every slice for every block in turn.
class CodeBsiReader::BlockEvaluator {
 public:
  BlockEvaluator(const RoaringView& ebm, const std::vector<const RoaringView*>& slices)
      : ebm_(ebm), slices_(slices), ops_(Ops()) {}

  // For blocks [first, first + count): out[b] = the EBM's words.
  void Ebm(size_t first, size_t count, uint64_t* out) {
    for (size_t b = 0; b < count; ++b)
      ops_.copy(out + b * kBlockWords, ebm_.Words(first + b, scratch_));
  }

  // state &= rows whose code equals `code`.
  void Equal(int64_t code, size_t first, size_t count, uint64_t* state) {
    for (size_t i = 0; i < slices_.size(); ++i) {
      const bool bit = i < 63 && ((code >> i) & 1);
      ForEachBlock(i, first, count, [&](size_t b, const uint8_t* words) {
        uint64_t* dst = state + b * kBlockWords;
        if (bit) {
          if (words == nullptr) {
            ZeroWords(dst);
          } else {
            ops_.and_words(dst, words);
          }
        } else if (words != nullptr) {
          ops_.and_not_words(dst, words);
        }
      });
    }
  }

  // out = rows whose code is greater than `code` (>= 0), before the EBM is applied.
  void Greater(int64_t code, size_t first, size_t count, uint64_t* out) {
    const size_t start = static_cast<size_t>(GreaterStart(code));
    if (start >= slices_.size()) {
      for (size_t b = 0; b < count; ++b) ZeroWords(out + b * kBlockWords);
      return;
    }
    ForEachBlock(start, first, count, [&](size_t b, const uint8_t* words) {
      uint64_t* dst = out + b * kBlockWords;
      if (words != nullptr) {
        ops_.copy(dst, words);
      } else {
        ZeroWords(dst);
      }
    });
    for (size_t i = start + 1; i < slices_.size(); ++i) {
      const bool bit = i < 63 && ((code >> i) & 1);
      ForEachBlock(i, first, count, [&](size_t b, const uint8_t* words) {
        uint64_t* dst = out + b * kBlockWords;
        if (bit) {
          if (words != nullptr) {
            ops_.and_words(dst, words);
          } else {
            ZeroWords(dst);
          }
        } else if (words != nullptr) {
          ops_.or_words(dst, words);
        }
      });
    }
  }

 private:
  // visit(b, words) for each block b of the group, with slice i's words there (nullptr: the
  // slice has no rows in that block). Array and run containers are expanded into a scratch
  // block that is valid during the call only.
  template <typename Visit>
  void ForEachBlock(size_t i, size_t first, size_t count, Visit&& visit) {
    const RoaringView& view = *slices_[i];
    size_t at = 0;
    for (size_t b = 0; b < count; ++b) {
      const uint16_t key = ebm_.key(first + b);
      at = view.Seek(key, at);
      const bool present = at < view.container_count() && view.key(at) == key;
      visit(b, present ? view.Words(at, scratch_) : nullptr);
    }
  }

  const RoaringView& ebm_;
  std::vector<const RoaringView*> slices_;  // null: not needed by this evaluation
  const BlockOps& ops_;
  uint64_t scratch_[kBlockWords];
};

Bitmap32 FirstN(const Bitmap32& bitmap, uint64_t n) {
  if (bitmap.Cardinality() <= n) return bitmap;
  if (n == 0) return Bitmap32();
  uint32_t last = 0;
  bitmap.Select(static_cast<uint32_t>(n - 1), &last);
  return bitmap & Bitmap32::Range(0, uint64_t{last} + 1);
}

Result<std::unique_ptr<CodeBsiReader>> CodeBsiReader::Open(io::ByteSpan bsi, int64_t cardinality,
                                                           uint32_t row_count) {
  std::unique_ptr<CodeBsiReader> reader(new CodeBsiReader());
  io::ByteReader in(bsi);
  PFI_ASSIGN_OR_RETURN(uint32_t header_length, in.ReadLength("BSI header length"));
  PFI_ASSIGN_OR_RETURN(io::ByteSpan header_bytes, in.ReadBytes(header_length, "BSI header"));
  io::ByteReader header(header_bytes);
  PFI_ASSIGN_OR_RETURN(int8_t version, header.ReadI8("BSI version"));
  if (version > kMaxVersion) return Bad("unsupported version " + std::to_string(version));
  PFI_ASSIGN_OR_RETURN(int8_t slices, header.ReadI8("BSI slice count"));
  const int expected = SliceCount(cardinality);
  if (slices != expected) {
    return Bad(std::to_string(slices) + " slices for " + std::to_string(cardinality) +
               " keys (expected " + std::to_string(expected) + ")");
  }
  PFI_ASSIGN_OR_RETURN(int32_t ebm_length, header.ReadI32BE("EBM length"));
  PFI_ASSIGN_OR_RETURN(int32_t indexes_length, header.ReadI32BE("slice index length"));
  if (indexes_length < 8 * slices) {
    return Bad("slice index of " + std::to_string(indexes_length) + " bytes for " +
               std::to_string(slices) + " slices");
  }
  reader->body_ = in.Rest();
  const int64_t body_size = static_cast<int64_t>(reader->body_.size());
  if (ebm_length < 0 || ebm_length > body_size) {
    return Bad("EBM length " + std::to_string(ebm_length) + " outside the " +
               std::to_string(body_size) + "-byte body");
  }
  reader->ebm_extent_ = {0, static_cast<uint32_t>(ebm_length)};
  reader->slice_extents_.reset(new Extent[static_cast<size_t>(slices)]);
  for (int i = 0; i < slices; ++i) {
    PFI_ASSIGN_OR_RETURN(int32_t offset, header.ReadI32BE("slice offset"));
    PFI_ASSIGN_OR_RETURN(int32_t length, header.ReadI32BE("slice length"));
    const int64_t start = int64_t{ebm_length} + offset;
    if (offset < 0 || length < 0 || start + length > body_size) {
      return Bad("slice " + std::to_string(i) + " at [" + std::to_string(start) + ", +" +
                 std::to_string(length) + ") outside the " + std::to_string(body_size) +
                 "-byte body");
    }
    reader->slice_extents_[i] = {static_cast<uint32_t>(start), static_cast<uint32_t>(length)};
  }
  reader->row_count_ = row_count;
  reader->cardinality_ = cardinality;
  reader->slice_count_ = slices;
  reader->slices_.reset(new LazyCell<Bitmap32>[static_cast<size_t>(slices)]);
  reader->slice_views_.reset(new LazyCell<RoaringView>[static_cast<size_t>(slices)]);
  return reader;
}

Result<Bitmap32> CodeBsiReader::Load(Extent extent, const char* what) const {
  Result<Bitmap32> bitmap = Bitmap32::Deserialize(body_.data() + extent.offset, extent.length);
  if (!bitmap.ok()) return bitmap.status().WithContext(std::string("range-bitmap ") + what);
  if (!bitmap->IsEmpty() && bitmap->Maximum() >= row_count_) {
    return Bad(std::string(what) + " holds row " + std::to_string(bitmap->Maximum()) + " of a " +
               std::to_string(row_count_) + "-row file");
  }
  return bitmap;
}

Result<const Bitmap32*> CodeBsiReader::Ebm() const {
  return ebm_.Get([&]() { return Load(ebm_extent_, "EBM"); });
}

Result<const Bitmap32*> CodeBsiReader::Slice(int i) const {
  return slices_[i].Get([&]() {
    loaded_slices_.fetch_add(1);
    return Load(slice_extents_[i], "slice");
  });
}

Result<RoaringView> CodeBsiReader::LoadView(Extent extent, const char* what) const {
  Result<RoaringView> view = RoaringView::Parse(body_.data() + extent.offset, extent.length);
  if (!view.ok()) return view.status().WithContext(std::string("range-bitmap ") + what);
  return view;
}

Result<const RoaringView*> CodeBsiReader::EbmView() const {
  return ebm_view_.Get([&]() -> Result<RoaringView> {
    PFI_ASSIGN_OR_RETURN(RoaringView view, LoadView(ebm_extent_, "EBM"));
    uint32_t max = 0;
    if (view.Maximum(&max) && max >= row_count_) {
      return Bad("EBM holds row " + std::to_string(max) + " of a " + std::to_string(row_count_) +
                 "-row file");
    }
    return view;
  });
}

Result<const RoaringView*> CodeBsiReader::SliceView(int i) const {
  return slice_views_[i].Get([&]() {
    loaded_slices_.fetch_add(1);
    return LoadView(slice_extents_[i], "slice");
  });
}

Result<Bitmap32> CodeBsiReader::CodesBetween(int64_t low, int64_t high) const {
  low = std::max<int64_t>(low, 0);
  high = std::min<int64_t>(high, cardinality_ - 1);
  if (low > high) return Bitmap32();
  if (low == 0 && high == cardinality_ - 1) {
    PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, Ebm());
    return *ebm;
  }
  const bool equal = low == high;
  const bool lower = !equal && low > 0;                  // code >= low:  gt(low - 1)
  const bool upper = !equal && high < cardinality_ - 1;  // code <= high: not gt(high)
  // One top-down walk over the slices the range needs (code_range_scan.h). No upper bound
  // when high is the last code (Java's lte answers the EBM there without reading slices).
  const int bits = slice_count_;
  const uint64_t all_ones = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const CodeRangeScan scan(bits, lower || equal ? static_cast<uint64_t>(low) : 0,
                           upper || equal ? static_cast<uint64_t>(high) : all_ones);
  std::vector<const RoaringView*> slices(static_cast<size_t>(slice_count_), nullptr);
  for (int i = scan.lowest_slice(); i < slice_count_; ++i) {
    PFI_ASSIGN_OR_RETURN(slices[i], SliceView(i));
  }
  PFI_ASSIGN_OR_RETURN(const RoaringView* ebm, EbmView());
  return scan.Run(*ebm, slices.data());
}

Result<Bitmap32> CodeBsiReader::Greater(int64_t code) const {
  const int start = GreaterStart(code);
  if (start >= slice_count_) return Bitmap32();
  PFI_ASSIGN_OR_RETURN(const Bitmap32* first, Slice(start));
  Bitmap32 out = *first;
  for (int i = start + 1; i < slice_count_; ++i) {
    PFI_ASSIGN_OR_RETURN(const Bitmap32* slice, Slice(i));
    if (i < 63 && ((code >> i) & 1)) {
      out &= *slice;
    } else {
      out |= *slice;
    }
  }
  return out;
}

Result<Bitmap32> CodeBsiReader::CodesBetweenCompact(int64_t low, int64_t high, bool equal,
                                                    bool lower, bool upper) const {
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, Ebm());
  Bitmap32 state = *ebm;
  if (equal) {
    for (int i = 0; i < slice_count_ && !state.IsEmpty(); ++i) {
      PFI_ASSIGN_OR_RETURN(const Bitmap32* slice, Slice(i));
      if (i < 63 && ((low >> i) & 1)) {
        state &= *slice;
      } else {
        state -= *slice;
      }
    }
  }
  if (lower) {
    PFI_ASSIGN_OR_RETURN(Bitmap32 greater, Greater(low - 1));
    state &= greater;
  }
  if (upper) {
    PFI_ASSIGN_OR_RETURN(Bitmap32 greater, Greater(high));
    state -= greater;
  }
  return state;
}

Result<Bitmap32> CodeBsiReader::TopK(uint64_t k, const Bitmap32* found, bool strict,
                                     bool largest) const {
  if (k == 0 || (found != nullptr && found->IsEmpty())) return Bitmap32();
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, Ebm());
  Bitmap32 e = found != nullptr ? (*ebm & *found) : *ebm;  // candidates, tied so far
  uint64_t e_count = e.Cardinality();
  if (e_count <= k) return e;
  Bitmap32 g;  // rows certainly in the answer
  uint64_t g_count = 0;
  for (int i = slice_count_ - 1; i >= 0; --i) {
    PFI_ASSIGN_OR_RETURN(const Bitmap32* slice, Slice(i));
    const uint64_t with_bit = e.AndCardinality(*slice);
    // Rows that win on this bit: the ones with it (top-k) or without it (bottom-k).
    const uint64_t winners = largest ? with_bit : e_count - with_bit;
    const uint64_t n = g_count + winners;
    if (n < k) {
      g |= largest ? (e & *slice) : (e - *slice);
      g_count = n;
      if (largest) {
        e -= *slice;
      } else {
        e &= *slice;
      }
      e_count -= winners;
      continue;
    }
    if (largest) {
      e &= *slice;
    } else {
      e -= *slice;
    }
    e_count = winners;
    if (n == k) break;
  }
  if (strict && g_count + e_count > k) {
    // Cut the tie at the k-th value: drop the lowest positions (Java iterates e ascending).
    const uint64_t excess = g_count + e_count - k;
    uint32_t last_dropped = 0;
    e.Select(static_cast<uint32_t>(excess - 1), &last_dropped);
    e -= Bitmap32::Range(0, uint64_t{last_dropped} + 1);
  }
  g |= e;
  return g;
}

}  // namespace pyfileindex::index::range_bitmap
