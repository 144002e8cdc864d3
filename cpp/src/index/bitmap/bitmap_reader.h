// BitmapIndexReader: answers predicates from a bitmap index payload (V1 or V2), like Paimon's
// BitmapFileIndex.Reader, but with every length/offset/count checked against the payload.
//
// Opening parses the head (V1: the whole dictionary; V2: the block index only). A V2 block is
// checked when first searched and then searched in place; a key's bitmap is read when first
// needed, and cached when asked for again. Both caches are under one mutex, so a reader can be
// shared by threads. IN lists unite their keys' bitmaps where they lie in the payload (checked
// as a read bitmap is), reading nothing into the cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/packed_key_records.h"
#include "index/index_type.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index::bitmap {

class BitmapIndexReader final : public ColumnIndexReader {
 public:
  // `payload` must outlive the reader (string keys and bitmaps are read from it lazily).
  static Result<std::unique_ptr<BitmapIndexReader>> Open(const DataType& type, ByteSpan payload);

  Result<FileIndexResult> Visit(const Predicate& leaf) const override;
  // Exact: the union of the matching string keys' rows (bitmap_pattern.cc).
  Result<FileIndexResult> VisitPattern(const pattern::LikePattern& like, bool negated,
                                       int64_t scan_limit) const override;
  bool ExactFor(const Predicate& leaf) const override;
  Result<std::vector<std::pair<std::string, std::string>>> Describe() const override;
  int64_t StoredRowCount() const override { return row_count_; }

  int version() const { return version_; }
  int32_t row_count() const { return row_count_; }

 private:
  struct Entry {
    KeyRef key;
    int32_t offset = 0;   // body-relative, or -1-row for a single-row key
    int32_t length = -1;  // bytes, or -1: unknown (read the self-delimiting bitmap)
  };
  using BitmapPtr = std::shared_ptr<const roaring::Bitmap32>;
  using EntryList = std::vector<Entry>;

  BitmapIndexReader(const DataType& type, const keys::PhysicalKey& key, ByteSpan payload)
      : type_(type), key_(key), payload_(payload) {}

  Status Parse();
  Status ParseV1(io::ByteReader* in);
  Status ParseV2(io::ByteReader* in);
  // V2 block `b`'s entries, checked on first use (caller holds mutex_).
  Result<const PackedKeyRecords*> LoadBlock(uint32_t b) const;

  // Where a key's bitmap is: its cache id (unique per entry) and stored (offset, length).
  struct EntryRef {
    uint64_t cache_id = 0;
    int32_t offset = 0;
    int32_t length = -1;
  };

  // The null rows' bitmap, read once and then cached (caller holds mutex_).
  Result<BitmapPtr> NullBitmapLocked() const;
  // The entry of `key`, or nullopt when the index has no such key (caller holds mutex_).
  Result<std::optional<EntryRef>> FindEntryLocked(const KeyRef& key) const;
  // The entry's bitmap, read once and then cached (caller holds mutex_).
  Result<BitmapPtr> EntryBitmapLocked(const EntryRef& entry) const;
  // The entry's bitmap as a bitmap of the caller's own (caller holds mutex_). The first time
  // it is read and handed over as read, not cached: a single lookup (=, the usual query of a
  // reader opened for one file) would otherwise read it and then copy it out of the cache,
  // twice the work for a large bitmap. From its second request on it is cached.
  Result<roaring::Bitmap32> EntryRowsLocked(const EntryRef& entry) const;
  // Reads the bitmap stored at (offset, length) (see Entry).
  Result<roaring::Bitmap32> ReadBitmap(int32_t offset, int32_t length) const;
  // Where the bitmap stored at (offset >= 0, length) starts in the payload, checked;
  // *available receives the bytes it may span.
  Result<size_t> BitmapExtent(int32_t offset, int32_t length, size_t* available) const;
  // The row of a key stored as one row (offset = -1 - row), checked against the row count.
  Result<uint32_t> SingleRow(int32_t offset) const;
  // Corrupt when a bitmap at payload position `pos` holds a row past the row count.
  Status CheckRowsWithin(bool any, uint32_t maximum, size_t pos) const;

  // The entries of the keys `like` matches, walking the sorted keys that start with its literal
  // prefix (all keys when it has none); nullopt when that walk would pass more than
  // `scan_limit` keys (caller holds mutex_).
  Result<std::optional<std::vector<EntryRef>>> PatternEntriesLocked(
      const pattern::LikePattern& like, int64_t scan_limit) const;

  // Union of the literals' bitmaps (Java getInListResultBitmap), or with `complement` its
  // complement within [0, rowCount) (<>, NOT IN, IS NOT NULL).
  Result<roaring::Bitmap32> UnionOf(const std::vector<Literal>& literals, bool complement) const;
  Result<FileIndexResult> VisitNaN(PredicateOp op) const;
  // The entries of `keys` (those the index has), by cache id without repeats; sets
  // *null_literal when a key is the null literal (mutex_ held, as below).
  Result<std::vector<EntryRef>> EntriesLocked(const std::vector<LiteralKey>& keys,
                                              bool* null_literal) const;
  // The rows of every key at once, i.e. the rows that are not null; or the null rows.
  Result<roaring::Bitmap32> EveryKeyLocked(bool complement) const;
  // The union of `entries`' bitmaps and, with `null_literal`, the null rows.
  Result<roaring::Bitmap32> UnionOfLocked(bool null_literal,
                                          const std::vector<EntryRef>& entries) const;
  // The same union read where the bitmaps lie in the payload, with no bitmap deserialized or
  // cached (an IN of a few rare keys would spend a third of its time allocating and copying
  // their containers); nullopt when fewer than two bitmaps are stored or one holds runs.
  Result<std::optional<roaring::Bitmap32>> UnionInPlaceLocked(
      bool null_literal, const std::vector<EntryRef>& entries) const;

  DataType type_;
  keys::PhysicalKey key_;
  ByteSpan payload_;

  int version_ = 0;
  int32_t row_count_ = 0;
  int32_t key_count_ = 0;
  bool has_null_ = false;
  int32_t null_offset_ = 0;
  int32_t null_length_ = -1;
  size_t body_start_ = 0;

  // V1: entries in file order and their positions sorted by key.
  EntryList v1_entries_;
  std::vector<uint32_t> v1_sorted_;
  // V2: the block index (first key, offset relative to index_block_start_); blocks lie in
  // [index_block_start_, body_start_).
  PackedKeyRecords block_index_;
  size_t index_block_start_ = 0;

  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<const PackedKeyRecords>> loaded_blocks_;  // V2
  mutable std::unordered_map<uint64_t, BitmapPtr> bitmap_cache_;  // by entry position
  mutable std::unordered_set<uint64_t> handed_over_;  // entries read once, not yet cached
  mutable BitmapPtr null_bitmap_;
};

}  // namespace pyfileindex::index::bitmap
