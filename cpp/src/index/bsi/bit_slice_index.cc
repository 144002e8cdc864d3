#include "index/bsi/bit_slice_index.h"

#include "io/endian.h"

#include <algorithm>
#include <string>
#include <utility>

namespace pyfileindex::index::bsi {
namespace {

constexpr int8_t kVersion = 1;
constexpr size_t kEmptyRoaringBytes = 8;  // the smallest portable bitmap

int BitLength(uint64_t x) { return x == 0 ? 0 : 64 - __builtin_clzll(x); }

Result<roaring::Bitmap32> ReadBitmap(io::ByteReader* reader, const char* what) {
  size_t consumed = 0;
  io::ByteSpan rest = reader->Rest();
  auto bitmap = roaring::Bitmap32::Deserialize(rest.data(), rest.size(), &consumed);
  if (!bitmap.ok()) {
    return bitmap.status().WithContext(std::string("bsi ") + what + " at offset " +
                                       std::to_string(reader->base_offset() + reader->position()));
  }
  PFI_RETURN_NOT_OK(reader->Skip(consumed, what));
  return bitmap;
}

}  // namespace

Result<BitSliceIndex> BitSliceIndex::Read(io::ByteReader* reader) {
  PFI_ASSIGN_OR_RETURN(int8_t version, reader->ReadI8("bsi version"));
  // Java rejects only versions above its own (the byte is signed).
  if (version > kVersion) {
    return Status::NotSupported("bsi: slice index version " + std::to_string(version) +
                                " is newer than the supported version 1");
  }
  BitSliceIndex bsi;
  PFI_ASSIGN_OR_RETURN(bsi.min_, reader->ReadI64BE("bsi min"));
  PFI_ASSIGN_OR_RETURN(bsi.max_, reader->ReadI64BE("bsi max"));
  // Java's writer only stores non-negative values with min <= max; anything else is damage.
  if (bsi.min_ < 0 || bsi.max_ < bsi.min_) {
    return Status::Corrupt("bsi: bounds min=" + std::to_string(bsi.min_) + " max=" +
                           std::to_string(bsi.max_) + " are not 0 <= min <= max");
  }
  PFI_ASSIGN_OR_RETURN(bsi.ebm_, ReadBitmap(reader, "existence bitmap"));
  PFI_ASSIGN_OR_RETURN(int32_t slice_count, reader->ReadI32BE("bsi slice count"));
  const int expected = BitLength(static_cast<uint64_t>(bsi.max_ - bsi.min_));
  if (slice_count != expected) {
    return Status::Corrupt("bsi: " + std::to_string(slice_count) + " slices for max - min = " +
                           std::to_string(bsi.max_ - bsi.min_) + " (expected " +
                           std::to_string(expected) + ")");
  }
  PFI_RETURN_NOT_OK(reader->Require(static_cast<size_t>(slice_count) * kEmptyRoaringBytes,
                                    "bsi slices"));
  bsi.slices_.reserve(static_cast<size_t>(slice_count));
  for (int32_t i = 0; i < slice_count; ++i) {
    PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 slice, ReadBitmap(reader, "slice"));
    if (!(slice - bsi.ebm_).IsEmpty()) {
      return Status::Corrupt("bsi: slice " + std::to_string(i) +
                             " holds rows that are not in the existence bitmap");
    }
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

roaring::Bitmap32 BitSliceIndex::ONeilCompare(CompareOp op, int64_t q) const {
  // O'Neil & Quass: walk the slices from the most significant digit, splitting the rows still
  // equal to q so far into "greater" and "less".
  roaring::Bitmap32 gt;
  roaring::Bitmap32 lt;
  roaring::Bitmap32 eq = ebm_;
  for (size_t i = slices_.size(); i-- > 0;) {
    const roaring::Bitmap32& slice = slices_[i];
    if ((q >> (i & 63)) & 1) {  // Java shifts a long by i mod 64
      lt |= eq - slice;
      eq &= slice;
    } else {
      gt |= eq & slice;
      eq -= slice;
    }
  }
  switch (op) {
    case CompareOp::kEq: return eq;
    case CompareOp::kNeq: return ebm_ - eq;
    case CompareOp::kGt: return gt;
    case CompareOp::kLt: return lt;
    case CompareOp::kLte: return lt | eq;
    case CompareOp::kGte: return gt | eq;
  }
  return eq;
}

void BitSliceIndexBuilder::StartChunk(uint32_t chunk) {
  if (chunk_ == kNoChunk) {
    words_.assign(kWordsPerChunk * kSlots, 0);
    column_.assign(kWordsPerChunk, 0);
  } else {
    FlushChunk();
  }
  chunk_ = chunk;
}

void BitSliceIndexBuilder::FlushChunk() {
  if (chunk_ == kNoChunk) return;
  FlushSlot(kExistenceSlot, &ebm_);
  for (uint64_t used = used_slices_; used != 0; used &= used - 1) {
    const int slice = __builtin_ctzll(used);
    FlushSlot(static_cast<size_t>(slice), &slices_[slice]);
  }
  used_slices_ = 0;
}

// Gathers (and clears) one slot's words out of the interleaved layout and adds them to its
// bitmap as the container of this chunk.
void BitSliceIndexBuilder::FlushSlot(size_t slot, roaring::DenseRoaringEncoder* bitmap) {
  uint64_t* const words = column_.data();
  for (size_t i = 0; i < kWordsPerChunk; ++i) {
    words[i] = words_[i * kSlots + slot];
    words_[i * kSlots + slot] = 0;
  }
  bitmap->AddBlock(static_cast<uint16_t>(chunk_), words);
}

size_t BitSliceIndexBuilder::PrepareSerialize() {
  FlushChunk();
  words_ = std::vector<uint64_t>();
  column_ = std::vector<uint64_t>();
  const int slice_count = BitLength(max_);
  sizes_.clear();
  sizes_.push_back(ebm_.SerializedSize());
  for (int i = 0; i < slice_count; ++i) sizes_.push_back(slices_[i].SerializedSize());
  size_t total = 1 + 8 + 8 + 4;  // version, min, max, slice count
  for (size_t size : sizes_) total += size;
  return total;
}

uint8_t* BitSliceIndexBuilder::SerializeTo(uint8_t* out) {
  out[0] = static_cast<uint8_t>(kVersion);
  io::StoreU64BE(out + 1, 0);  // min: Java's writer starts its minimum at 0, so it is always 0
  io::StoreU64BE(out + 9, max_);
  out += 17;
  // Each bitmap goes as soon as it is written: the payload and the slices are not both whole.
  auto write = [&out](roaring::DenseRoaringEncoder* bitmap, size_t size) {
    bitmap->WriteTo(out);
    bitmap->Release();
    out += size;
  };
  write(&ebm_, sizes_[0]);
  const size_t slice_count = sizes_.size() - 1;
  io::StoreU32BE(out, static_cast<uint32_t>(slice_count));
  out += 4;
  for (size_t i = 0; i < slice_count; ++i) write(&slices_[i], sizes_[i + 1]);
  sizes_.clear();
  return out;
}

}  // namespace pyfileindex::index::bsi
