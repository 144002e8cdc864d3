#include "index/range_bitmap/dictionary_reader.h"

#include <algorithm>
#include <string>

#include "io/byte_reader.h"

namespace pyfileindex::index::range_bitmap {

namespace {
constexpr int8_t kMaxVersion = 1;

template <typename... Pieces>
Status Bad(const Pieces&... what) {
  return Status::Corrupt("range-bitmap dictionary: ", what...);
}
}  // namespace

Result<std::unique_ptr<DictionaryReader>> DictionaryReader::Open(io::ByteSpan dictionary,
                                                                 const KeySpec& spec,
                                                                 int64_t cardinality) {
  std::unique_ptr<DictionaryReader> reader(new DictionaryReader(dictionary, spec, cardinality));
  io::ByteReader in(dictionary);
  PFI_ASSIGN_OR_RETURN(uint32_t header_length, in.ReadLength("dictionary header length"));
  if (header_length < 13) return Bad("header length ", header_length, " < 13");
  PFI_ASSIGN_OR_RETURN(io::ByteSpan header_bytes, in.ReadBytes(header_length, "dictionary header"));
  io::ByteReader header(header_bytes);
  PFI_ASSIGN_OR_RETURN(int8_t version, header.ReadI8("dictionary version"));
  if (version > kMaxVersion) return Bad("unsupported version ", version);
  PFI_ASSIGN_OR_RETURN(int32_t chunk_count, header.ReadI32BE("chunk count"));
  PFI_ASSIGN_OR_RETURN(int32_t offsets_length, header.ReadI32BE("chunk offsets length"));
  PFI_ASSIGN_OR_RETURN(int32_t chunks_length, header.ReadI32BE("chunk headers length"));
  if (chunk_count < 0 || offsets_length != 4 * int64_t{chunk_count} || chunks_length < 0) {
    return Bad("chunk count ", chunk_count, " with offsets length ",
               offsets_length, " and headers length ",
               chunks_length);
  }
  // Each chunk's header holds at least a version byte, its head key (a length for strings),
  // code, key offset, size and two lengths: a damaged count cannot make the reader keep a
  // slot for more chunks than its header bytes can describe.
  const int64_t min_chunk_header = 1 + (spec.kind == KeyKind::kString ? 4 : spec.width) + 5 * 4;
  if (int64_t{chunk_count} * min_chunk_header > chunks_length) {
    return Bad(chunk_count, " chunks in ", chunks_length, " header bytes (each needs at least ",
               min_chunk_header, ")");
  }
  if ((cardinality > 0) != (chunk_count > 0) || chunk_count > cardinality) {
    return Bad(chunk_count, " chunks for ", cardinality,
               " keys");
  }
  PFI_ASSIGN_OR_RETURN(reader->offsets_,
                       in.ReadBytes(static_cast<size_t>(offsets_length), "chunk offsets"));
  PFI_ASSIGN_OR_RETURN(reader->headers_,
                       in.ReadBytes(static_cast<size_t>(chunks_length), "chunk headers"));
  reader->keys_ = in.Rest();
  reader->chunk_count_ = chunk_count;
  reader->chunks_.reset(new LazyCell<Chunk>[static_cast<size_t>(chunk_count)]);
  return reader;
}

size_t DictionaryReader::LoadedChunks() const { return loaded_.load(); }

Result<const DictionaryReader::Chunk*> DictionaryReader::GetChunk(int32_t index) const {
  return chunks_[index].Get([&]() { return ParseChunk(index); });
}

Result<DictionaryReader::Chunk> DictionaryReader::ParseChunk(int32_t index) const {
  loaded_.fetch_add(1);
  // Built only on failure: a chunk that parses costs no message.
  auto bad = [index](const auto&... what) { return Bad("chunk ", index, ": ", what...); };
  const int64_t start = static_cast<int32_t>(io::LoadU32BE(offsets_.data() + 4 * size_t(index)));
  const int64_t end =
      index + 1 < chunk_count_
          ? static_cast<int32_t>(io::LoadU32BE(offsets_.data() + 4 * size_t(index + 1)))
          : static_cast<int64_t>(headers_.size());
  if (start < 0 || start > end || end > static_cast<int64_t>(headers_.size())) {
    return bad("header at [", start, ", ", end,
               ") outside the ", headers_.size(), " header bytes");
  }
  io::ByteReader in(headers_.data() + start, static_cast<size_t>(end - start));
  Chunk chunk;
  PFI_ASSIGN_OR_RETURN(int8_t version, in.ReadI8("chunk version"));
  if (version > kMaxVersion) return bad("unsupported version ", version);
  if (spec_.kind == KeyKind::kString) {
    PFI_ASSIGN_OR_RETURN(uint32_t length, in.ReadLength("chunk head key length"));
    PFI_ASSIGN_OR_RETURN(io::ByteSpan head, in.ReadBytes(length, "chunk head key"));
    chunk.head = head.AsStringView();
  } else {
    PFI_ASSIGN_OR_RETURN(io::ByteSpan head,
                         in.ReadBytes(static_cast<size_t>(spec_.width), "chunk head key"));
    chunk.head = head.AsStringView();
    chunk.head_ordered = DecodeOrdered(spec_.kind, head.data());
  }
  PFI_ASSIGN_OR_RETURN(int32_t code, in.ReadI32BE("chunk head code"));
  PFI_ASSIGN_OR_RETURN(int32_t offset, in.ReadI32BE("chunk key offset"));
  PFI_ASSIGN_OR_RETURN(int32_t size, in.ReadI32BE("chunk size"));
  int64_t offsets_length = 0;
  int32_t keys_length = 0;
  if (spec_.kind == KeyKind::kString) {
    PFI_ASSIGN_OR_RETURN(int32_t length, in.ReadI32BE("chunk offsets length"));
    PFI_ASSIGN_OR_RETURN(keys_length, in.ReadI32BE("chunk keys length"));
    offsets_length = length;
    if (size < 0 || offsets_length < 4 * int64_t{size}) {
      return bad(size, " keys with offsets length ",
                 length);
    }
  } else {
    PFI_ASSIGN_OR_RETURN(keys_length, in.ReadI32BE("chunk keys length"));
    PFI_ASSIGN_OR_RETURN(int32_t width, in.ReadI32BE("chunk key width"));
    if (width != spec_.width || size < 0 || int64_t{size} * width > keys_length) {
      return bad(size, " keys of width ", width, " in ",
                 keys_length, " bytes (column keys have width ",
                 spec_.width, ")");
    }
  }
  if (code < 0 || int64_t{code} + size >= cardinality_ || offset < 0 || keys_length < 0 ||
      int64_t{offset} + offsets_length + keys_length > static_cast<int64_t>(keys_.size())) {
    return bad("codes [", code, ", ",
               int64_t{code} + size, "] of ", cardinality_,
               " or key area [", offset, ", +",
               offsets_length + keys_length, ") outside ",
               keys_.size(), " key bytes");
  }
  chunk.head_code = code;
  chunk.size = size;
  chunk.area = keys_.data() + offset;
  chunk.offsets_length = offsets_length;
  chunk.keys_length = keys_length;
  return chunk;
}

Result<std::string_view> DictionaryReader::KeyAt(const Chunk& chunk, int32_t j) const {
  if (spec_.kind != KeyKind::kString) {
    return std::string_view(reinterpret_cast<const char*>(chunk.area) + int64_t{j} * spec_.width,
                            static_cast<size_t>(spec_.width));
  }
  const int64_t at = static_cast<int32_t>(io::LoadU32BE(chunk.area + 4 * int64_t{j}));
  if (at < 0 || at + 4 > chunk.keys_length) {
    return Bad("string key ", j, " at offset ", at,
               " outside its chunk's ", chunk.keys_length, " key bytes");
  }
  const uint8_t* keys = chunk.area + chunk.offsets_length;
  const int64_t length = static_cast<int32_t>(io::LoadU32BE(keys + at));
  if (length < 0 || length > chunk.keys_length - at - 4) {
    return Bad("string key ", j, " of length ", length,
               " overruns its chunk");
  }
  return std::string_view(reinterpret_cast<const char*>(keys + at + 4),
                          static_cast<size_t>(length));
}

int DictionaryReader::Compare(std::string_view stored, const LookupKey& key) const {
  return CompareStoredKey(spec_, stored, key);
}

Result<int64_t> DictionaryReader::Find(const LookupKey& key) const {
  // Binary search over the chunk heads.
  int32_t low = 0;
  int32_t high = chunk_count_ - 1;
  while (low <= high) {
    const int32_t mid = static_cast<int32_t>((static_cast<uint32_t>(low) + high) >> 1);
    PFI_ASSIGN_OR_RETURN(const Chunk* chunk, GetChunk(mid));
    const int cmp = Compare(chunk->head, key);
    if (cmp > 0) {
      high = mid - 1;
    } else if (cmp < 0) {
      low = mid + 1;
    } else {
      return chunk->head_code;
    }
  }
  if (low == 0) return -1;  // below every head: insertion point 0

  // Inside the last chunk whose head is below the key.
  PFI_ASSIGN_OR_RETURN(const Chunk* chunk, GetChunk(low - 1));
  const int64_t base = chunk->head_code + 1;
  int32_t lo = 0;
  int32_t hi = chunk->size - 1;
  while (lo <= hi) {
    const int32_t mid = static_cast<int32_t>((static_cast<uint32_t>(lo) + hi) >> 1);
    PFI_ASSIGN_OR_RETURN(std::string_view stored, KeyAt(*chunk, mid));
    const int cmp = Compare(stored, key);
    if (cmp > 0) {
      hi = mid - 1;
    } else if (cmp < 0) {
      lo = mid + 1;
    } else {
      return base + mid;
    }
  }
  return -(base + lo) - 1;
}

// Head codes ascend with the chunks: a binary search.
Result<int32_t> DictionaryReader::LastChunkFrom(int64_t code) const {
  int32_t low = 0;
  int32_t high = chunk_count_ - 1;
  int32_t found = -1;
  while (low <= high) {
    const int32_t mid = static_cast<int32_t>((static_cast<uint32_t>(low) + high) >> 1);
    PFI_ASSIGN_OR_RETURN(const Chunk* chunk, GetChunk(mid));
    if (chunk->head_code <= code) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

Status DictionaryReader::ForEachKey(
    int64_t first, int64_t last,
    const std::function<void(int64_t, std::string_view)>& visit) const {
  first = std::max<int64_t>(first, 0);
  last = std::min<int64_t>(last, cardinality_ - 1);
  if (first > last || chunk_count_ <= 0) return Status::OK();
  PFI_ASSIGN_OR_RETURN(int32_t start, LastChunkFrom(first));
  int64_t code = first;
  for (int32_t index = std::max(start, 0); index < chunk_count_ && code <= last; ++index) {
    PFI_ASSIGN_OR_RETURN(const Chunk* chunk, GetChunk(index));
    if (chunk->head_code > code) {
      return Bad("chunk ", index, " starts at code ", chunk->head_code, ", after code ", code);
    }
    const int64_t chunk_last = chunk->head_code + chunk->size;
    for (; code <= last && code <= chunk_last; ++code) {
      if (code == chunk->head_code) {
        visit(code, chunk->head);
        continue;
      }
      PFI_ASSIGN_OR_RETURN(std::string_view key,
                           KeyAt(*chunk, static_cast<int32_t>(code - chunk->head_code - 1)));
      visit(code, key);
    }
  }
  if (code <= last) return Bad("the chunks end before code ", code);
  return Status::OK();
}

Result<std::string_view> DictionaryReader::KeyOfCode(int64_t code) const {
  if (code < 0 || code >= cardinality_) {
    return Bad("code ", code, " outside the dictionary's ", cardinality_, " keys");
  }
  PFI_ASSIGN_OR_RETURN(int32_t found, LastChunkFrom(code));
  if (found < 0) return Bad("no chunk holds code ", code);
  PFI_ASSIGN_OR_RETURN(const Chunk* chunk, GetChunk(found));
  if (code == chunk->head_code) return chunk->head;
  const int64_t j = code - chunk->head_code - 1;
  if (j >= chunk->size) return Bad("no chunk holds code ", code);
  return KeyAt(*chunk, static_cast<int32_t>(j));
}

}  // namespace pyfileindex::index::range_bitmap
