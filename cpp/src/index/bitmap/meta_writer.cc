#include "index/bitmap/meta_writer.h"

#include <string>

namespace pyfileindex::index::bitmap {

namespace {
constexpr int64_t kBlockHeaderBytes = 4;  // a block's entry-count int
constexpr size_t kEntryIntsBytes = 8;     // offset + length ints of a V2 entry

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

void WriteMetaV1(const MetaHead& head, KeyKind kind, const MetaKeys& keys,
                 const MetaEntry* entries, io::ByteWriter* out) {
  WriteHead(1, head, static_cast<int32_t>(keys.size()), out);
  for (size_t i = 0; i < keys.size(); ++i) {
    EncodeKey(kind, keys[i], out);
    out->WriteI32BE(entries != nullptr ? entries[i].offset : 0);
  }
}

Result<std::vector<size_t>> PackBlocks(const std::vector<size_t>& entry_sizes,
                                       int64_t block_size_limit) {
  // Java BitmapIndexBlock.tryAdd: an entry joins the current block unless that would make the
  // block strictly larger than the limit; then a new block starts, and an entry that does not
  // fit even an empty block is an error.
  std::vector<size_t> starts;
  if (entry_sizes.empty()) return starts;
  starts.push_back(0);
  int64_t block_bytes = kBlockHeaderBytes;
  for (size_t i = 0; i < entry_sizes.size(); ++i) {
    const int64_t eb = static_cast<int64_t>(entry_sizes[i]);
    if (block_bytes + eb > block_size_limit) {
      if (kBlockHeaderBytes + eb > block_size_limit) {
        return Status::InvalidArgument(
            "bitmap index: an index entry of " + std::to_string(eb) +
            " bytes does not fit in index-block-size " + std::to_string(block_size_limit) +
            " (a block also holds a 4-byte entry count; Java fails with \"index fail\")");
      }
      starts.push_back(i);
      block_bytes = kBlockHeaderBytes;
    }
    block_bytes += eb;
  }
  return starts;
}

Status WriteMetaV2(const MetaHead& head, KeyKind kind, const MetaKeys& sorted_keys,
                   const MetaEntry* entries, int64_t block_size_limit, io::ByteWriter* out) {
  const size_t count = sorted_keys.size();
  std::vector<size_t> entry_sizes(count);
  for (size_t i = 0; i < count; ++i) {
    entry_sizes[i] = EncodedKeySize(kind, sorted_keys[i]) + kEntryIntsBytes;
  }
  PFI_ASSIGN_OR_RETURN(std::vector<size_t> starts, PackBlocks(entry_sizes, block_size_limit));

  // Block sizes -> block offsets (relative to the first block) and the total.
  std::vector<int64_t> block_offsets(starts.size());
  int64_t total = 0;
  for (size_t b = 0; b < starts.size(); ++b) {
    block_offsets[b] = total;
    const size_t end = b + 1 < starts.size() ? starts[b + 1] : count;
    total += kBlockHeaderBytes;
    for (size_t i = starts[b]; i < end; ++i) total += static_cast<int64_t>(entry_sizes[i]);
  }
  if (total > INT32_MAX) {
    return Status::InvalidArgument("bitmap index: the V2 index blocks exceed 2 GiB");
  }

  WriteHead(2, head, static_cast<int32_t>(count), out);
  out->WriteI32BE(static_cast<int32_t>(starts.size()));
  for (size_t b = 0; b < starts.size(); ++b) {
    EncodeKey(kind, sorted_keys[starts[b]], out);
    out->WriteI32BE(static_cast<int32_t>(block_offsets[b]));
  }
  out->WriteI32BE(static_cast<int32_t>(total));
  out->Reserve(out->size() + static_cast<size_t>(total));
  for (size_t b = 0; b < starts.size(); ++b) {
    const size_t end = b + 1 < starts.size() ? starts[b + 1] : count;
    out->WriteI32BE(static_cast<int32_t>(end - starts[b]));
    for (size_t i = starts[b]; i < end; ++i) {
      EncodeKey(kind, sorted_keys[i], out);
      out->WriteI32BE(entries != nullptr ? entries[i].offset : 0);
      out->WriteI32BE(entries != nullptr ? entries[i].length : -1);
    }
  }
  return Status::OK();
}

}  // namespace pyfileindex::index::bitmap
