#include "index/bsi/bit_slice_index.h"

#include "index/bsi/tuning.h"
#include "index/slice_scan/code_range_scan.h"
#include "io/endian.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace pyfileindex::index::bsi {
namespace {

constexpr int8_t kVersion = 1;
constexpr size_t kEmptyRoaringBytes = 8;  // the smallest portable bitmap

int BitLength(uint64_t x) { return x == 0 ? 0 : 64 - __builtin_clzll(x); }

// `status` of the `what` at the cursor, said so.
Status At(const Status& status, const io::ByteReader& reader, const char* what) {
  return status.WithContext("bsi ", what, " at offset ", reader.base_offset() + reader.position());
}

// The bitmap at the cursor, deserialized (`bitmap`, may be null) and as a view; the cursor
// moves past it.
Result<roaring::RoaringView> ReadBitmap(io::ByteReader* reader, const char* what,
                                             roaring::Bitmap32* bitmap) {
  const io::ByteSpan rest = reader->Rest();
  // Every run checked here: CodesBetween walks the views with RunOverCheckedViews.
  Result<roaring::RoaringView> view = roaring::RoaringView::Parse(
      rest.data(), rest.size(), roaring::RoaringView::RunCheck::kAtParse);
  if (!view.ok()) return At(view.status(), *reader, what);
  if (bitmap != nullptr) {
    auto read = roaring::Bitmap32::Deserialize(rest.data(), view->bytes());
    if (!read.ok()) return At(read.status(), *reader, what);
    *bitmap = std::move(*read);
  }
  PFI_RETURN_NOT_OK(reader->Skip(view->bytes(), what));
  return view;
}

}  // namespace

Result<BitSliceIndex> BitSliceIndex::Read(io::ByteReader* reader) {
  PFI_ASSIGN_OR_RETURN(int8_t version, reader->ReadI8("bsi version"));
  // Java rejects only versions above its own (the byte is signed).
  if (version > kVersion) {
    return Status::NotSupported("bsi: slice index version ", version,
                                " is newer than the supported version 1");
  }
  BitSliceIndex bsi;
  PFI_ASSIGN_OR_RETURN(bsi.min_, reader->ReadI64BE("bsi min"));
  PFI_ASSIGN_OR_RETURN(bsi.max_, reader->ReadI64BE("bsi max"));
  // Java's writer only stores non-negative values with min <= max; anything else is damage.
  if (bsi.min_ < 0 || bsi.max_ < bsi.min_) {
    return Status::Corrupt("bsi: bounds min=", bsi.min_, " max=",
                           bsi.max_, " are not 0 <= min <= max");
  }
  PFI_ASSIGN_OR_RETURN(bsi.ebm_view_, ReadBitmap(reader, "existence bitmap", &bsi.ebm_));
  PFI_ASSIGN_OR_RETURN(int32_t slice_count, reader->ReadI32BE("bsi slice count"));
  const int expected = BitLength(static_cast<uint64_t>(bsi.max_ - bsi.min_));
  if (slice_count != expected) {
    return Status::Corrupt("bsi: ", slice_count, " slices for max - min = ",
                           bsi.max_ - bsi.min_, " (expected ",
                           expected, ")");
  }
  PFI_RETURN_NOT_OK(reader->Require(static_cast<size_t>(slice_count) * kEmptyRoaringBytes,
                                    "bsi slices"));
  bsi.slices_.reserve(static_cast<size_t>(slice_count));
  for (int32_t i = 0; i < slice_count; ++i) {
    PFI_ASSIGN_OR_RETURN(roaring::RoaringView slice, ReadBitmap(reader, "slice", nullptr));
    bsi.slices_.push_back(std::move(slice));
  }
  return bsi;
}

roaring::Bitmap32 BitSliceIndex::Compare(CompareOp op, int64_t predicate) const {
  roaring::Bitmap32 out;
  if (CompareUsingMinMax(op, predicate, &out)) return out;
  return ONeilCompare(op, predicate - min_);  // here min <= predicate <= max: no overflow
}

bool BitSliceIndex::CompareUsingMinMax(CompareOp op, int64_t p, roaring::Bitmap32* out) const {
  // ALL = every row with a value; NONE = nothing (out stays empty).
  bool all = false;
  bool none = false;
  switch (op) {
    case CompareOp::kEq:
      all = min_ == max_ && min_ == p;
      none = p < min_ || p > max_;
      break;
    case CompareOp::kNeq:
      none = min_ == max_ && min_ == p;
      all = p < min_ || p > max_;
      break;
    case CompareOp::kGte:
      all = p <= min_;
      none = p > max_;
      break;
    case CompareOp::kGt:
      all = p < min_;
      none = p >= max_;
      break;
    case CompareOp::kLte:
      all = p >= max_;
      none = p < min_;
      break;
    case CompareOp::kLt:
      all = p > max_;
      none = p <= min_;
      break;
  }
  if (all) {
    *out = ebm_;
    return true;
  }
  return none;
}

roaring::Bitmap32 BitSliceIndex::CodesBetween(uint64_t lo, uint64_t hi) const {
  const int bits = static_cast<int>(slices_.size());
  const uint64_t all_ones = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  hi = std::min(hi, all_ones);
  if (lo > hi) return roaring::Bitmap32();
  if (lo == 0 && hi == all_ones) return ebm_;  // every code: the EBM itself
  const slice_scan::CodeRangeScan scan(bits, lo, hi);
  std::vector<const roaring::RoaringView*> slices(slices_.size());
  for (size_t i = 0; i < slices_.size(); ++i) slices[i] = &slices_[i];
  return scan.RunOverCheckedViews(ebm_view_, slices.data());
}

roaring::Bitmap32 BitSliceIndex::ONeilCompare(CompareOp op, int64_t q) const {
  // O'Neil & Quass compare the slices' binary value with q from the most significant digit;
  // every comparison is a range of codes. Here 0 <= q <= max - min (CompareUsingMinMax
  // answered the rest).
  const uint64_t code = static_cast<uint64_t>(q);
  constexpr uint64_t kNoBound = ~uint64_t{0};
  switch (op) {
    case CompareOp::kEq: return CodesBetween(code, code);
    case CompareOp::kNeq: return ebm_ - CodesBetween(code, code);
    case CompareOp::kGt: return CodesBetween(code + 1, kNoBound);  // code < 2^63
    case CompareOp::kGte: return CodesBetween(code, kNoBound);
    case CompareOp::kLt: return code == 0 ? roaring::Bitmap32() : CodesBetween(0, code - 1);
    case CompareOp::kLte: return CodesBetween(0, code);
  }
  return roaring::Bitmap32();
}

void BitSliceIndexBuilder::StartSpan(uint32_t span) {
  if (span_ == kNoSpan) {
    words_ = memory::ZeroedArray<uint64_t>(roaring::kBlockWords * (1 + size_t{kMaxSlices}));
  } else {
    FlushSpan();
  }
  span_ = span;
  words_span_ = kNoSpan;
}

bool BitSliceIndexBuilder::AppendRun(uint32_t row, uint64_t value) {
  if (row >> 16 != span_) StartSpan(row >> 16);
  if (!runs_.empty() && runs_.back().end == row && runs_.back().value == value) {
    ++runs_.back().end;
    return true;
  }
  if (runs_.size() < tuning::kMaxRunsPerSpan) {
    runs_.push_back({row, row + 1, value});
    max_ = value > max_ ? value : max_;
    return true;
  }
  SpillRuns();
  return false;
}

void BitSliceIndexBuilder::SpillRuns() {
  if (all_runs_) EncodeKeptRuns();
  words_span_ = span_;
  for (const Run& run : runs_) {
    for (uint32_t row = run.begin; row < run.end; ++row) Append(row, run.value);
  }
  runs_.clear();
}

void BitSliceIndexBuilder::Widen(uint64_t value) {
  // Group g moves from g * stride_ to g * stride, last group first: no group's words are
  // overwritten before they have moved, and each group's new slots are zeroed.
  const size_t stride = 1 + static_cast<size_t>(BitLength(value));
  uint64_t* const words = words_.get();
  for (size_t g = roaring::kBlockWords; g-- > 0;) {
    std::memmove(words + g * stride, words + g * stride_, stride_ * sizeof(uint64_t));
    std::fill(words + g * stride + stride_, words + (g + 1) * stride, uint64_t{0});
  }
  stride_ = stride;
}

roaring::DenseRoaringEncoder& BitSliceIndexBuilder::slice(int i) {
  if (slices_.size() <= static_cast<size_t>(i)) slices_.resize(static_cast<size_t>(i) + 1);
  return slices_[static_cast<size_t>(i)];
}

void BitSliceIndexBuilder::FlushSpan() {
  if (span_ == kNoSpan) return;
  if (words_span_ != span_) {
    if (all_runs_) {
      kept_.insert(kept_.end(), runs_.begin(), runs_.end());
    } else {
      EncodeRuns(span_, runs_.begin(), runs_.end());
    }
    runs_.clear();
    return;
  }
  FlushSlot(kExistenceSlot, &ebm_);
  for (uint64_t used = used_slices_; used != 0; used &= used - 1) {
    const int i = __builtin_ctzll(used);
    FlushSlot(1 + static_cast<size_t>(i), &slice(i));
  }
  used_slices_ = 0;
}

// Gathers (and clears) one slot's words out of the interleaved layout and adds them to its
// bitmap as the container of this span.
void BitSliceIndexBuilder::FlushSlot(size_t slot, roaring::DenseRoaringEncoder* bitmap) {
  if (column_.empty()) column_.assign(roaring::kBlockWords, 0);
  uint64_t* const words = column_.data();
  for (size_t i = 0; i < roaring::kBlockWords; ++i) {
    words[i] = words_[i * stride_ + slot];
    words_[i * stride_ + slot] = 0;
  }
  bitmap->AddBlock(static_cast<uint16_t>(span_), words);
}

namespace {

// The rows of span `span` among runs [first, last) (`bit` 0: all, else those whose value has
// `bit`) as intervals within the span, touching runs joined.
template <typename RunIt>
void SpanIntervals(uint32_t span, RunIt first, RunIt last, uint64_t bit,
                    std::vector<uint32_t>* out) {
  const uint32_t first_row = span << 16;
  out->clear();
  for (RunIt run = first; run != last; ++run) {
    if (bit != 0 && (run->value & bit) == 0) continue;
    roaring::AppendInterval(out, run->begin - first_row, run->end - first_row);
  }
}

}  // namespace

template <typename RunIt>
void BitSliceIndexBuilder::EncodeRuns(uint32_t span, RunIt first, RunIt last) {
  auto add = [&](uint64_t bit, roaring::DenseRoaringEncoder* bitmap) {
    SpanIntervals(span, first, last, bit, &intervals_);
    bitmap->AddIntervals(static_cast<uint16_t>(span), intervals_.data(), intervals_.size() / 2);
  };
  add(0, &ebm_);
  uint64_t used = 0;
  for (RunIt run = first; run != last; ++run) used |= run->value;
  for (; used != 0; used &= used - 1) {
    const int i = __builtin_ctzll(used);
    add(uint64_t{1} << i, &slice(i));
  }
}

template <typename F>
void BitSliceIndexBuilder::ForEachKeptSpanRuns(F&& f) const {
  for (auto first = kept_.begin(); first != kept_.end();) {
    const uint32_t span = first->begin >> 16;
    auto last = first;
    while (last != kept_.end() && last->begin >> 16 == span) ++last;
    f(span, first, last);
    first = last;
  }
}

template <typename Visit>
void BitSliceIndexBuilder::ForEachKeptSpan(uint64_t bit, Visit&& visit) {
  ForEachKeptSpanRuns([&](uint32_t span, auto first, auto last) {
    SpanIntervals(span, first, last, bit, &intervals_);
    visit(static_cast<uint16_t>(span), intervals_.data(), intervals_.size() / 2);
  });
}

void BitSliceIndexBuilder::EncodeKeptRuns() {
  ForEachKeptSpanRuns(
      [this](uint32_t span, auto first, auto last) { EncodeRuns(span, first, last); });
  kept_ = std::deque<Run>();
  all_runs_ = false;
}

size_t BitSliceIndexBuilder::PrepareSerialize() {
  FlushSpan();
  words_.reset();
  column_ = std::vector<uint64_t>();
  runs_ = std::vector<Run>();
  const int slice_count = BitLength(max_);
  sizes_.clear();
  if (all_runs_) {
    shapes_.assign(1 + static_cast<size_t>(slice_count), roaring::IntervalBitmapShape());
    for (int i = -1; i < slice_count; ++i) {
      roaring::IntervalBitmapShape& shape = shapes_[static_cast<size_t>(i + 1)];
      ForEachKeptSpan(i < 0 ? 0 : uint64_t{1} << i,
                       [&shape](uint16_t, const uint32_t* bounds, size_t count) {
                         shape.Add(bounds, count);
                       });
      sizes_.push_back(shape.SerializedSize());
    }
  } else {
    sizes_.push_back(ebm_.SerializedSize());
    for (int i = 0; i < slice_count; ++i) sizes_.push_back(slice(i).SerializedSize());
  }
  size_t total = 1 + 8 + 8 + 4;  // version, min, max, slice count
  for (size_t size : sizes_) total += size;
  return total;
}

uint8_t* BitSliceIndexBuilder::SerializeTo(uint8_t* out) {
  out[0] = static_cast<uint8_t>(kVersion);
  io::StoreU64BE(out + 1, 0);  // min: Java's writer starts its minimum at 0, so it is always 0
  io::StoreU64BE(out + 9, max_);
  out += 17;
  // Bitmap i (0: the EBM, 1 + s: slice s). Encoded ones go as soon as they are written: the
  // payload and the slices are not both whole.
  auto write = [this, &out](size_t i) {
    if (all_runs_) {
      roaring::IntervalBitmapWriter writer(shapes_[i], out);
      ForEachKeptSpan(i == 0 ? 0 : uint64_t{1} << (i - 1),
                       [&writer](uint16_t span, const uint32_t* bounds, size_t count) {
                         writer.Add(span, bounds, count);
                       });
    } else {
      (i == 0 ? ebm_ : slice(static_cast<int>(i - 1))).MoveTo(out);
    }
    out += sizes_[i];
  };
  write(0);
  const size_t slice_count = sizes_.size() - 1;
  io::StoreU32BE(out, static_cast<uint32_t>(slice_count));
  out += 4;
  for (size_t i = 1; i <= slice_count; ++i) write(i);
  sizes_.clear();
  shapes_ = std::vector<roaring::IntervalBitmapShape>();
  kept_ = std::deque<Run>();
  return out;
}

}  // namespace pyfileindex::index::bsi
