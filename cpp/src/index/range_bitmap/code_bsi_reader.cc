#include "index/range_bitmap/code_bsi_reader.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "index/range_bitmap/code_bsi_writer.h"
#include "index/slice_scan/code_range_scan.h"
#include "index/slice_scan/code_set_scan.h"
#include "index/range_bitmap/code_top_k.h"
#include "io/byte_reader.h"

namespace pyfileindex::index::range_bitmap {

using slice_scan::CodeRangeScan;
using slice_scan::CodeSetScan;

namespace {
constexpr int8_t kMaxVersion = 1;

template <typename... Pieces>
Status Bad(const Pieces&... what) {
  return Status::Corrupt("range-bitmap BSI: ", what...);
}

}  // namespace

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
  if (version > kMaxVersion) return Bad("unsupported version ", version);
  PFI_ASSIGN_OR_RETURN(int8_t slices, header.ReadI8("BSI slice count"));
  const int expected = SliceCount(cardinality);
  if (slices != expected) {
    return Bad(slices, " slices for ", cardinality,
               " keys (expected ", expected, ")");
  }
  PFI_ASSIGN_OR_RETURN(int32_t ebm_length, header.ReadI32BE("EBM length"));
  PFI_ASSIGN_OR_RETURN(int32_t indexes_length, header.ReadI32BE("slice index length"));
  if (indexes_length < 8 * slices) {
    return Bad("slice index of ", indexes_length, " bytes for ",
               slices, " slices");
  }
  reader->body_ = in.Rest();
  const int64_t body_size = static_cast<int64_t>(reader->body_.size());
  if (ebm_length < 0 || ebm_length > body_size) {
    return Bad("EBM length ", ebm_length, " outside the ",
               body_size, "-byte body");
  }
  reader->ebm_extent_ = {0, static_cast<uint32_t>(ebm_length)};
  reader->slice_extents_.reset(new Extent[static_cast<size_t>(slices)]);
  for (int i = 0; i < slices; ++i) {
    PFI_ASSIGN_OR_RETURN(int32_t offset, header.ReadI32BE("slice offset"));
    PFI_ASSIGN_OR_RETURN(int32_t length, header.ReadI32BE("slice length"));
    const int64_t start = int64_t{ebm_length} + offset;
    if (offset < 0 || length < 0 || start + length > body_size) {
      return Bad("slice ", i, " at [", start, ", +",
                 length, ") outside the ", body_size,
                 "-byte body");
    }
    reader->slice_extents_[i] = {static_cast<uint32_t>(start), static_cast<uint32_t>(length)};
  }
  reader->row_count_ = row_count;
  reader->cardinality_ = cardinality;
  reader->slice_count_ = slices;
  reader->slice_views_.reset(new LazyCell<RoaringView>[static_cast<size_t>(slices)]);
  return reader;
}

Result<Bitmap32> CodeBsiReader::Load(Extent extent, const char* what) const {
  Result<Bitmap32> bitmap = Bitmap32::Deserialize(body_.data() + extent.offset, extent.length);
  if (!bitmap.ok()) return bitmap.status().WithContext("range-bitmap ", what);
  if (!bitmap->IsEmpty() && bitmap->Maximum() >= row_count_) {
    return Bad(what, " holds row ", bitmap->Maximum(), " of a ",
               row_count_, "-row file");
  }
  return bitmap;
}

Result<const Bitmap32*> CodeBsiReader::Ebm() const {
  return ebm_.Get([&]() { return Load(ebm_extent_, "EBM"); });
}

Result<RoaringView> CodeBsiReader::LoadView(Extent extent, const char* what,
                                           RoaringView::RunCheck runs) const {
  Result<RoaringView> view =
      RoaringView::Parse(body_.data() + extent.offset, extent.length, runs);
  if (!view.ok()) return view.status().WithContext("range-bitmap ", what);
  return view;
}

Result<const RoaringView*> CodeBsiReader::EbmView() const {
  return ebm_view_.Get([&]() -> Result<RoaringView> {
    PFI_ASSIGN_OR_RETURN(RoaringView view,
                         LoadView(ebm_extent_, "EBM", RoaringView::RunCheck::kAtParse));
    uint32_t max = 0;
    if (view.Maximum(&max) && max >= row_count_) {
      return Bad("EBM holds row ", max, " of a ", row_count_,
                 "-row file");
    }
    return view;
  });
}

Result<const RoaringView*> CodeBsiReader::SliceView(int i) const {
  return slice_views_[i].Get([&]() {
    loaded_slices_.fetch_add(1);
    // A query reads few of a sorted column's many slice runs: each container's are checked
    // as a walk reads it, not all of them up front.
    return LoadView(slice_extents_[i], "slice", RoaringView::RunCheck::kOnUse);
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
  Result<Bitmap32> rows = scan.Run(*ebm, slices.data());
  if (!rows.ok()) return rows.status().WithContext("range-bitmap");
  return rows;
}

Result<Bitmap32> CodeBsiReader::CodesIn(const std::vector<int64_t>& codes) const {
  std::vector<uint64_t> wanted;
  wanted.reserve(codes.size());
  for (int64_t code : codes) {
    if (code >= 0 && code < cardinality_) wanted.push_back(static_cast<uint64_t>(code));
  }
  if (wanted.empty()) return Bitmap32();
  if (wanted.size() == 1) {
    const int64_t code = static_cast<int64_t>(wanted[0]);
    return CodesBetween(code, code);
  }
  if (static_cast<int64_t>(wanted.size()) == cardinality_) {
    PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, Ebm());
    return *ebm;
  }
  std::vector<const RoaringView*> slices(static_cast<size_t>(slice_count_), nullptr);
  size_t containers = 0;
  size_t runs = 0;
  for (int i = 0; i < slice_count_; ++i) {
    PFI_ASSIGN_OR_RETURN(slices[i], SliceView(i));
    containers += slices[i]->container_count();
    for (size_t c = 0; c < slices[i]->container_count(); ++c) {
      runs += slices[i]->kind(c) == RoaringView::Kind::kRun;
    }
  }
  if (2 * runs > containers) {
    // A sorted column's slices are runs, which each code's range scan walks as intervals
    // (code_range_scan.h) where the shared walk would expand every block to words.
    std::vector<Bitmap32> per_code;
    per_code.reserve(wanted.size());
    for (uint64_t code : wanted) {
      PFI_ASSIGN_OR_RETURN(Bitmap32 one, CodesBetween(static_cast<int64_t>(code),
                                                      static_cast<int64_t>(code)));
      per_code.push_back(std::move(one));
    }
    return Bitmap32::FastUnion(per_code);
  }
  PFI_ASSIGN_OR_RETURN(const RoaringView* ebm, EbmView());
  const CodeSetScan scan(slice_count_, std::move(wanted));
  Result<Bitmap32> rows = scan.Run(*ebm, slices.data());
  if (!rows.ok()) return rows.status().WithContext("range-bitmap");
  return rows;
}

Result<Bitmap32> CodeBsiReader::RowsWithCodeIn(const std::vector<bool>& wanted) const {
  if (slice_count_ > 32) return Bad(slice_count_, " slices for 32-bit codes");
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, Ebm());
  if (ebm->IsEmpty()) return Bitmap32();
  // Only keyed rows have codes: the table ends at the EBM's last row, whatever the header's
  // row count claims.
  std::vector<uint32_t> codes(static_cast<size_t>(ebm->Maximum()) + 1, 0);
  for (int i = 0; i < slice_count_; ++i) {
    PFI_ASSIGN_OR_RETURN(Bitmap32 slice, Load(slice_extents_[i], "slice"));
    const uint32_t bit = uint32_t{1} << i;
    slice.ForEach([&codes, bit](uint32_t row) {
      if (row < codes.size()) codes[row] |= bit;
    });
  }
  std::vector<uint32_t> rows;
  ebm->ForEach([&](uint32_t row) {
    const uint32_t code = codes[row];
    if (code < wanted.size() && wanted[code]) rows.push_back(row);
  });
  Bitmap32 out;
  out.AddMany(rows.data(), rows.size());
  return out;
}

Result<Bitmap32> CodeBsiReader::TopK(uint64_t k, const Bitmap32* found, bool strict,
                                     bool largest) const {
  if (k == 0 || (found != nullptr && found->IsEmpty())) return Bitmap32();
  PFI_ASSIGN_OR_RETURN(const RoaringView* ebm, EbmView());
  std::vector<const RoaringView*> slices(static_cast<size_t>(slice_count_), nullptr);
  for (int i = 0; i < slice_count_; ++i) {
    PFI_ASSIGN_OR_RETURN(slices[i], SliceView(i));
  }
  Result<Bitmap32> rows = TopKWalk(*ebm, slices.data(), slice_count_, found, k, strict, largest);
  if (!rows.ok()) return rows.status().WithContext("range-bitmap");
  return rows;
}

namespace {

// Whether `view` holds `value`: its container's words, bit by bit.
Result<bool> ViewContains(const RoaringView& view, uint32_t value) {
  const uint16_t key = static_cast<uint16_t>(value >> 16);
  const size_t i = view.Seek(key, 0);
  if (i >= view.container_count() || view.key(i) != key) return false;
  if (!view.RunsEndInside(i)) return Bad("a run container overruns its end");
  std::vector<uint64_t> scratch(1024);
  const uint8_t* words = view.Words(i, scratch.data());
  const uint32_t low = value & 0xffff;
  return ((words[low >> 3] >> (low & 7)) & 1) != 0;
}

}  // namespace

Result<int64_t> CodeBsiReader::CodeOfRow(uint32_t row) const {
  PFI_ASSIGN_OR_RETURN(const RoaringView* ebm, EbmView());
  PFI_ASSIGN_OR_RETURN(bool keyed, ViewContains(*ebm, row));
  if (!keyed) return -1;
  int64_t code = 0;
  for (int i = 0; i < slice_count_ && i < 63; ++i) {
    PFI_ASSIGN_OR_RETURN(const RoaringView* slice, SliceView(i));
    PFI_ASSIGN_OR_RETURN(bool set, ViewContains(*slice, row));
    if (set) code |= int64_t{1} << i;
  }
  return code;
}

}  // namespace pyfileindex::index::range_bitmap
