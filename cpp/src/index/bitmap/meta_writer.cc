#include "index/bitmap/meta_writer.h"

#include <cassert>
#include <cstring>
#include <string>

#include "index/bitmap/tuning.h"

namespace pyfileindex::index::bitmap {

namespace {
constexpr int64_t kBlockHeaderBytes = 4;  // a block's entry-count int
constexpr size_t kEntryIntsBytes = 8;     // offset + length ints of a V2 entry
// How far ahead WriteV2 loads entries (keys' bytes: half as far), as the ingest does rows.
constexpr size_t kPrefetchEntries = tuning::kPrefetchRows;

size_t HeadBytes(uint8_t version, const MetaHead& head) {
  size_t bytes = 1 + 4 + 4 + 1;  // version, row count, key count, has-null
  if (head.has_null) bytes += version == 2 ? 8 : 4;
  return bytes;
}

// Writes a buffer of known size through a small reused ByteWriter (what EncodeKey writes
// to), a piece at a time: the meta is never held whole outside its place.
class PieceWriter {
 public:
  explicit PieceWriter(uint8_t* out) : out_(out) { piece_.Reserve(2 * tuning::kMetaPieceBytes); }
  ~PieceWriter() { Flush(); }
  PieceWriter(const PieceWriter&) = delete;
  PieceWriter& operator=(const PieceWriter&) = delete;

  io::ByteWriter* piece() {
    if (piece_.size() >= tuning::kMetaPieceBytes) Flush();
    return &piece_;
  }
  size_t written() const { return written_ + piece_.size(); }
  // Ends the staging: the pieces so far go out, and the next byte is written at the address
  // returned, straight into the payload, by the caller.
  uint8_t* FlushedEnd() {
    Flush();
    return out_ + written_;
  }

 private:
  void Flush() {
    if (piece_.size() == 0) return;
    std::memcpy(out_ + written_, piece_.data(), piece_.size());
    written_ += piece_.size();
    piece_.Clear();
  }

  uint8_t* out_;
  size_t written_ = 0;
  io::ByteWriter piece_;
};

void WriteHead(uint8_t version, const MetaHead& head, int32_t key_count, io::ByteWriter* out) {
  out->WriteU8(version);
  out->WriteI32BE(head.row_count);
  out->WriteI32BE(key_count);
  out->WriteBool(head.has_null);
  if (head.has_null) {
    out->WriteI32BE(head.null_offset);
    if (version == 2) out->WriteI32BE(head.null_length);
  }
}
}  // namespace

Result<std::vector<size_t>> PackBlocks(size_t count,
                                       const std::function<size_t(size_t)>& entry_size,
                                       int64_t block_size_limit) {
  // Java BitmapIndexBlock.tryAdd: an entry joins the current block unless that would make the
  // block strictly larger than the limit; then a new block starts, and an entry that does not
  // fit even an empty block is an error.
  std::vector<size_t> starts;
  if (count == 0) return starts;
  starts.push_back(0);
  int64_t block_bytes = kBlockHeaderBytes;
  for (size_t i = 0; i < count; ++i) {
    const int64_t eb = static_cast<int64_t>(entry_size(i));
    if (block_bytes + eb > block_size_limit) {
      if (kBlockHeaderBytes + eb > block_size_limit) {
        return Status::InvalidArgument(
            "bitmap index: an index entry of ", eb,
            " bytes does not fit in index-block-size ", block_size_limit,
            " (a block also holds a 4-byte entry count; Java fails with \"index fail\")");
      }
      starts.push_back(i);
      block_bytes = kBlockHeaderBytes;
    }
    block_bytes += eb;
  }
  return starts;
}

Result<std::vector<size_t>> PackBlocks(const std::vector<size_t>& entry_sizes,
                                       int64_t block_size_limit) {
  return PackBlocks(
      entry_sizes.size(), [&entry_sizes](size_t i) { return entry_sizes[i]; }, block_size_limit);
}

MetaPlan MetaPlan::V1(const MetaHead& head, KeyKind kind, const MetaKeys& keys) {
  MetaPlan plan;
  plan.version_ = 1;
  plan.head_ = head;
  plan.kind_ = kind;
  plan.bytes_ = HeadBytes(1, head);
  for (size_t i = 0; i < keys.size(); ++i) plan.bytes_ += EncodedKeySize(kind, keys[i]) + 4;
  return plan;
}

Result<MetaPlan> MetaPlan::V2(const MetaHead& head, KeyKind kind, const MetaKeys& sorted_keys,
                              int64_t block_size_limit) {
  const size_t count = sorted_keys.size();
  auto entry_size = [&](size_t i) { return EncodedKeySize(kind, sorted_keys[i]) + kEntryIntsBytes; };
  MetaPlan plan;
  plan.version_ = 2;
  plan.head_ = head;
  plan.kind_ = kind;
  PFI_ASSIGN_OR_RETURN(plan.block_starts_, PackBlocks(count, entry_size, block_size_limit));

  // Block sizes -> block offsets (relative to the first block) and the total.
  const std::vector<size_t>& starts = plan.block_starts_;
  plan.block_offsets_.resize(starts.size());
  int64_t total = 0;
  size_t index_bytes = 4;  // the block count
  for (size_t b = 0; b < starts.size(); ++b) {
    plan.block_offsets_[b] = total;
    index_bytes += EncodedKeySize(kind, sorted_keys[starts[b]]) + 4;
    const size_t end = b + 1 < starts.size() ? starts[b + 1] : count;
    total += kBlockHeaderBytes;
    for (size_t i = starts[b]; i < end; ++i) total += static_cast<int64_t>(entry_size(i));
  }
  if (total > INT32_MAX) {
    return Status::InvalidArgument("bitmap index: the V2 index blocks exceed 2 GiB");
  }
  plan.blocks_bytes_ = total;
  plan.bytes_ = HeadBytes(2, head) + index_bytes + 4 + static_cast<size_t>(total);
  return plan;
}

namespace {

// Both orders (Java's HashMap order for V1, the sorted order for V2) visit the keys' ids at
// random: entry `i`'s entries and a dictionary's keys (first where each key is, then its
// bytes) are loaded ahead.
void PrefetchAhead(const MetaKeys& keys, const MetaEntries& entries, size_t i) {
  const size_t count = keys.size();
  if (i + kPrefetchEntries < count) {
    entries.Prefetch(i + kPrefetchEntries);
    keys.Prefetch(i + kPrefetchEntries, /*bytes=*/false);
  }
  if (i + kPrefetchEntries / 2 < count) keys.Prefetch(i + kPrefetchEntries / 2, /*bytes=*/true);
}

}  // namespace

void MetaPlan::WriteTo(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const {
  if (version_ == 1) {
    WriteV1(keys, entries, out);
  } else {
    WriteV2(keys, entries, out);
  }
}

void MetaPlan::WriteV1(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const {
  const size_t count = keys.size();
  PieceWriter writer(out);
  WriteHead(1, head_, static_cast<int32_t>(count), writer.piece());
  // The entries, one at a time straight into the payload: the meta's size is known.
  uint8_t* at = writer.FlushedEnd();
  for (size_t i = 0; i < count; ++i) {
    PrefetchAhead(keys, entries, i);
    at = EncodeKeyAt(kind_, keys[i], at);
    io::StoreU32BE(at, static_cast<uint32_t>(entries.offset(i)));
    at += 4;
  }
  assert(static_cast<size_t>(at - out) == bytes_);
}

void MetaPlan::WriteV2(const MetaKeys& keys, const MetaEntries& entries, uint8_t* out) const {
  const size_t count = keys.size();
  const std::vector<size_t>& starts = block_starts_;
  PieceWriter writer(out);
  WriteHead(2, head_, static_cast<int32_t>(count), writer.piece());
  writer.piece()->WriteI32BE(static_cast<int32_t>(starts.size()));
  for (size_t b = 0; b < starts.size(); ++b) {
    io::ByteWriter* piece = writer.piece();
    EncodeKey(kind_, keys[starts[b]], piece);
    piece->WriteI32BE(static_cast<int32_t>(block_offsets_[b]));
  }
  writer.piece()->WriteI32BE(static_cast<int32_t>(blocks_bytes_));
  // The blocks, an entry at a time straight into the payload: the meta's size is known.
  uint8_t* at = writer.FlushedEnd();
  for (size_t b = 0; b < starts.size(); ++b) {
    const size_t end = b + 1 < starts.size() ? starts[b + 1] : count;
    io::StoreU32BE(at, static_cast<uint32_t>(end - starts[b]));
    at += 4;
    for (size_t i = starts[b]; i < end; ++i) {
      PrefetchAhead(keys, entries, i);
      at = EncodeKeyAt(kind_, keys[i], at);
      io::StoreU32BE(at, static_cast<uint32_t>(entries.offset(i)));
      io::StoreU32BE(at + 4, static_cast<uint32_t>(entries.length(i)));
      at += kEntryIntsBytes;
    }
  }
  assert(static_cast<size_t>(at - out) == bytes_);
}

}  // namespace pyfileindex::index::bitmap
