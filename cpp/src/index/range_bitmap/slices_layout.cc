#include "index/range_bitmap/slices_layout.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "io/byte_writer.h"
#include "memory/return_pages.h"
#include "roaring/block_ops.h"

namespace pyfileindex::index::range_bitmap {

namespace {

using roaring::kRowsPerContainer;  // a block: the rows of one container of the slices
using roaring::SetBitRange;

constexpr uint8_t kVersion = 1;

}  // namespace

Result<size_t> SlicesLayout::Plan() {
  return spec_.kind == KeyKind::kString ? PlanStrings() : PlanFixed();
}

void SlicesLayout::WriteTo(uint8_t* out) {
  std::memcpy(out, head_.data(), head_.size());
  out += head_.size();
  WriteDictionary(keys_, dictionary_, out);
  out += dictionary_.size();
  in_.strings.Release();
  memory::ReleaseVector(&sorted_units_);
  memory::ReleaseVector(&sorted32_);
  memory::ReleaseVector(&sorted64_);
  if (run_bsi_) {
    run_bsi_->WriteTo(out);
    run_bsi_.reset();
    in_.blocks = std::vector<PackedRowIds>();
    memory::ReleaseVector(&rank_);
  } else {
    bsi_->WriteTo(out);
    bsi_.reset();
  }
  head_ = std::vector<uint8_t>();
  keys_ = SortedKeys();
  dictionary_ = DictionaryPlan();
}

void SlicesLayout::EncodeSlices(std::vector<uint32_t> rank, size_t cardinality) {
  // Every block runs and no null row (a sorted column): the slices are measured now and
  // written from the runs into the output, never held (RunCodeBsi).
  const bool all_runs = std::all_of(in_.blocks.begin(), in_.blocks.end(),
                                    [](const PackedRowIds& block) { return block.has_runs(); });
  if (!in_.has_nulls && !in_.blocks.empty() && all_runs) {
    rank_ = std::move(rank);
    run_bsi_ = std::make_unique<RunCodeBsi>(static_cast<int64_t>(cardinality), &in_.blocks,
                                            rank_.empty() ? nullptr : rank_.data());
    return;
  }
  bsi_ = std::make_unique<CodeBsi>(static_cast<int64_t>(cardinality), in_.blocks.size());
  // Codes of whole 64-row words: the slices are built a word of rows at a time. Sized at the
  // first block that is not runs.
  std::vector<uint32_t> codes;
  std::vector<uint32_t> run_ends;
  std::vector<uint32_t> run_codes;
  // Without nulls every row is valid: a block's bits are all ones up to its rows. Blocks of
  // runs need no bits then (CodeBsi::AddRuns without validity); made at the first other one.
  std::vector<uint64_t> all_valid;
  size_t block_bytes = 0;
  for (const PackedRowIds& block : in_.blocks) block_bytes += block.bytes();
  // Only a large file's blocks are handed back as they go (see memory::ReleaseVector).
  const bool hand_back = block_bytes >= memory::kReleaseVectorMinBytes;
  for (size_t b = 0; b < in_.blocks.size(); ++b) {
    PackedRowIds& block = in_.blocks[b];
    const uint64_t* validity = nullptr;
    if (in_.has_nulls) {
      validity = in_.validity.data() + b * roaring::kBlockWords;
    } else if (!block.has_runs()) {
      // Filled for the first such block, and again for a shorter last one.
      if (all_valid.empty() || block.rows() != kRowsPerContainer) {
        all_valid.assign(roaring::kBlockWords, 0);
        SetBitRange(all_valid.data(), 0, block.rows());
      }
      validity = all_valid.data();
    }
    // Every stored id, null rows' included, is a key's id; with no keys there is no rank, and
    // keys that came ascending have their ids as ranks.
    const uint32_t* map = rank.empty() ? nullptr : rank.data();
    if (block.has_runs()) {
      run_ends.clear();
      run_codes.clear();
      block.ForEachRun([&](uint32_t, uint32_t end, uint32_t id) {
        run_ends.push_back(end);
        run_codes.push_back(map != nullptr ? map[id] : id);
      });
      bsi_->AddRuns(static_cast<uint16_t>(b), validity, run_ends.data(), run_codes.data(),
                    run_ends.size());
    } else {
      if (codes.empty()) {
        codes.resize((std::min<uint64_t>(in_.rows, kRowsPerContainer) + 63) / 64 * 64, 0);
      }
      block.Unpack(codes.data(), map);
      bsi_->AddBlock(static_cast<uint16_t>(b), validity, codes.data());
    }
    block.Release(hand_back);
  }
  in_.blocks = std::vector<PackedRowIds>();
  memory::ReleaseVector(&in_.validity);
  memory::ReleaseVector(&rank);
}

Result<size_t> SlicesLayout::PlanStrings() {
  in_.strings.DropLookups();  // no key comes any more: only the keys themselves are read
  StringRanks ranks = RankStrings(in_.strings);
  EncodeSlices(std::move(ranks.rank), ranks.sorted.size());
  sorted_units_ = std::move(ranks.sorted);
  keys_.width = 0;
  keys_.context = this;
  keys_.string_at = [](const void* context, size_t i) {
    const SlicesLayout* w = static_cast<const SlicesLayout*>(context);
    return w->in_.strings.At(w->sorted_units_[i]);
  };
  // Keys that came ascending lie in the arena in order: it is handed back as the dictionary
  // is written, so arena and dictionary are not both resident.
  if (in_.strings.ascending()) {
    keys_.owner = this;
    keys_.written_through = [](void* owner, size_t end) {
      SlicesLayout* w = static_cast<SlicesLayout*>(owner);
      if (end < w->sorted_units_.size()) w->in_.strings.HandBackBefore(w->sorted_units_[end]);
    };
  }
  keys_.count = sorted_units_.size();
  return Assemble();
}

namespace {
// Rewrites ordered keys, in place, as Java's stored form of each: `width` bytes apiece, packed
// from the front (width <= sizeof(U), and key i is read before its bytes are written).
template <typename U, typename Encode>
const uint8_t* EncodeInPlace(std::vector<U>* keys, int width, Encode&& encode) {
  uint8_t* bytes = reinterpret_cast<uint8_t*>(keys->data());
  for (size_t i = 0; i < keys->size(); ++i) {
    const uint64_t key = (*keys)[i];
    encode(key, bytes + i * static_cast<size_t>(width));
  }
  return bytes;
}
}  // namespace

Result<size_t> SlicesLayout::PlanFixed() {
  const uint64_t nan_ordered = spec_.kind == KeyKind::kFloat
                                   ? OrderedFromFloatBits(java::kCanonicalFloatNaNBits)
                                   : OrderedFromDoubleBits(java::kCanonicalDoubleNaNBits);
  const bool has_nan_key = spec_.kind == KeyKind::kFloat || spec_.kind == KeyKind::kDouble;
  // Integers narrower than 8 bytes are interned with a 32-bit sign flip; key_kind.h's
  // ordered form flips bit 63.
  const bool narrow_int = spec_.kind == KeyKind::kInt8 || spec_.kind == KeyKind::kInt16 ||
                          spec_.kind == KeyKind::kInt32;
  auto encode = [&](uint64_t interned, uint8_t* out) {
    if (has_nan_key && in_.seen_nan && interned == nan_ordered) {
      if (spec_.width == 4) {
        io::StoreU32BE(out, static_cast<uint32_t>(in_.first_nan_bits));
      } else {
        io::StoreU64BE(out, in_.first_nan_bits);
      }
      return;
    }
    const uint64_t ordered =
        narrow_int ? OrderedFromSigned(static_cast<int32_t>(static_cast<uint32_t>(interned) ^
                                                            0x80000000u))
                   : interned;
    EncodeOrdered(spec_.kind, ordered, out);
  };
  auto prepare = [&](auto* interner, auto* sorted) -> Result<size_t> {
    auto ranked = interner->TakeRanked();
    EncodeSlices(std::move(ranked.rank), ranked.sorted.size());
    *sorted = std::move(ranked.sorted);
    keys_.width = spec_.width;
    keys_.count = sorted->size();
    keys_.fixed = EncodeInPlace(sorted, spec_.width, encode);
    return Assemble();
  };
  if (spec_.width == 8) return prepare(&in_.keys64, &sorted64_);
  return prepare(&in_.keys32, &sorted32_);
}

Result<size_t> SlicesLayout::Assemble() {
  const SortedKeys& keys = keys_;
  const size_t cardinality = keys.count;
  auto key_size = [&](size_t i) { return (keys.width > 0 ? 0 : 4) + keys.Get(i).size(); };
  const size_t header_size =
      1 + 4 + 4 + (cardinality > 0 ? key_size(0) + key_size(cardinality - 1) : 0) + 4;
  if (header_size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::InvalidArgument("range-bitmap: header larger than 2^31-1 bytes");
  }

  io::ByteWriter w;
  w.WriteI32BE(static_cast<int32_t>(header_size));
  w.WriteU8(kVersion);
  w.WriteI32BE(static_cast<int32_t>(in_.rows));
  w.WriteI32BE(static_cast<int32_t>(cardinality));
  for (size_t i : {size_t{0}, cardinality - 1}) {
    if (cardinality == 0) break;
    const std::string_view key = keys.Get(i);
    if (keys.width == 0) w.WriteI32BE(static_cast<int32_t>(key.size()));
    w.WriteBytes(io::ByteSpan::Of(key));
  }
  PFI_ASSIGN_OR_RETURN(dictionary_, PlanDictionary(keys, chunk_size_));
  w.WriteI32BE(static_cast<int32_t>(static_cast<uint32_t>(dictionary_.size())));
  head_ = w.Take();
  return head_.size() + dictionary_.size() + (run_bsi_ ? run_bsi_->size() : bsi_->size());
}

}  // namespace pyfileindex::index::range_bitmap
