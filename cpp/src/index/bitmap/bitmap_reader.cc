#include "index/bitmap/bitmap_reader.h"

#include <algorithm>
#include <limits>
#include <string>

#include "io/byte_reader.h"
#include "index/keys/literal_position.h"
#include "io/endian.h"
#include "roaring/portable_check.h"
#include "roaring/roaring_view.h"
#include "roaring/union_by_keys.h"

namespace pyfileindex::index::bitmap {

namespace {

// What is wrong (pieces joined as in Status::Corrupt) at payload position `offset`.
template <typename... What>
Status CorruptAt(size_t offset, const What&... what) {
  return Status::Corrupt("bitmap index: ", what..., " (payload offset ", offset, ")");
}

// A count read from the payload, each item needing at least `min_item_bytes` of what is left.
Result<uint32_t> CheckedCount(int32_t count, size_t min_item_bytes, const io::ByteReader& in,
                              const char* what) {
  if (count < 0) return CorruptAt(in.position() - 4, "negative ", what, " ", count);
  if (static_cast<uint64_t>(count) * min_item_bytes > in.remaining()) {
    return CorruptAt(in.position() - 4, what, " ", count, " needs more than the ",
                     in.remaining(), " bytes left");
  }
  return static_cast<uint32_t>(count);
}

// A status of the bitmap stored at payload position `pos`, said so.
Status InBitmapAt(const Status& status, size_t pos) {
  return status.WithContext("bitmap index: bitmap at payload offset ", pos);
}

}  // namespace

Result<std::unique_ptr<BitmapIndexReader>> BitmapIndexReader::Open(const DataType& type,
                                                                   ByteSpan payload) {
  PFI_ASSIGN_OR_RETURN(keys::PhysicalKey key, BitmapKeyFor(type));
  std::unique_ptr<BitmapIndexReader> reader(new BitmapIndexReader(type, key, payload));
  PFI_RETURN_NOT_OK(reader->Parse());
  return reader;
}

Status BitmapIndexReader::Parse() {
  io::ByteReader in(payload_.data(), payload_.size());
  PFI_ASSIGN_OR_RETURN(uint8_t version, in.ReadU8("bitmap index version"));
  if (version > 2) {
    return Status::NotSupported("bitmap index version ", version,
                                " is newer than this reader supports (1, 2); Java says: "
                                "your plugin version is lower than ",
                                version);
  }
  if (version == 0) return CorruptAt(0, "version byte 0");
  version_ = version;

  PFI_ASSIGN_OR_RETURN(row_count_, in.ReadI32BE("row count"));
  if (row_count_ < 0) return CorruptAt(1, "negative row count ", row_count_);
  PFI_ASSIGN_OR_RETURN(key_count_, in.ReadI32BE("distinct key count"));
  if (key_count_ < 0) {
    return CorruptAt(5, "negative distinct key count ", key_count_);
  }
  PFI_ASSIGN_OR_RETURN(has_null_, in.ReadBool("has-null flag"));
  if (has_null_) {
    PFI_ASSIGN_OR_RETURN(null_offset_, in.ReadI32BE("null bitmap offset"));
    if (version_ == 2) {
      PFI_ASSIGN_OR_RETURN(null_length_, in.ReadI32BE("null bitmap length"));
    }
  }
  return version_ == 1 ? ParseV1(&in) : ParseV2(&in);
}

Status BitmapIndexReader::ParseV1(io::ByteReader* in) {
  const KeyKind kind = key_.kind;
  PFI_ASSIGN_OR_RETURN(uint32_t count, CheckedCount(key_count_, MinEncodedKeySize(kind) + 4,
                                                    *in, "distinct key count"));
  v1_entries_.resize(count);
  for (Entry& e : v1_entries_) {
    PFI_ASSIGN_OR_RETURN(e.key, DecodeKey(kind, in));
    PFI_ASSIGN_OR_RETURN(e.offset, in->ReadI32BE("bitmap offset"));
  }
  body_start_ = in->position();

  // V1 stores no lengths: Java takes each body's length from the next non-negative offset in
  // file order; the last body (and the null bitmap, if no body follows) is self-delimiting.
  int32_t last_offset = has_null_ ? null_offset_ : -1;
  Entry* last = nullptr;  // nullptr: the null bitmap
  for (Entry& e : v1_entries_) {
    if (e.offset < 0) continue;
    if (last_offset >= 0) {
      const int64_t length = int64_t{e.offset} - last_offset;
      if (length < 0) return CorruptAt(body_start_, "bitmap offsets are not ascending");
      if (last != nullptr) {
        last->length = static_cast<int32_t>(length);
      } else {
        null_length_ = static_cast<int32_t>(length);
      }
    }
    last = &e;
    last_offset = e.offset;
  }

  v1_sorted_.resize(count);
  for (uint32_t i = 0; i < count; ++i) v1_sorted_[i] = i;
  std::stable_sort(v1_sorted_.begin(), v1_sorted_.end(), [this, kind](uint32_t a, uint32_t b) {
    return CompareKeys(kind, v1_entries_[a].key, v1_entries_[b].key) < 0;
  });
  return Status::OK();
}

Status BitmapIndexReader::ParseV2(io::ByteReader* in) {
  const KeyKind kind = key_.kind;
  PFI_ASSIGN_OR_RETURN(int32_t raw_blocks, in->ReadI32BE("index block count"));
  // Each block costs its listed first key and offset here and its entry count below.
  PFI_ASSIGN_OR_RETURN(uint32_t block_count,
                       CheckedCount(raw_blocks, MinEncodedKeySize(kind) + 4 + 4, *in,
                                    "index block count"));
  PFI_ASSIGN_OR_RETURN(block_index_,
                       PackedKeyRecords::Read(kind, 1, block_count, in, "the index block list"));
  PFI_ASSIGN_OR_RETURN(int32_t blocks_size, in->ReadI32BE("index blocks size"));
  index_block_start_ = in->position();
  if (blocks_size < 0 || static_cast<size_t>(blocks_size) > in->remaining()) {
    return CorruptAt(index_block_start_ - 4, "index blocks size ", blocks_size, " exceeds the ",
                     in->remaining(), " bytes left");
  }
  body_start_ = index_block_start_ + static_cast<size_t>(blocks_size);
  int64_t previous_offset = -1;
  for (uint32_t b = 0; b < block_count; ++b) {
    // Every block holds at least its 4-byte entry count, and blocks lie in key order.
    const int64_t offset = block_index_.TailAt(b, 0);
    if (offset <= previous_offset || offset + 4 > blocks_size) {
      return CorruptAt(index_block_start_, "index block ", b, " is out of place");
    }
    previous_offset = offset;
  }
  loaded_blocks_.resize(block_count);
  return Status::OK();
}

Result<const PackedKeyRecords*> BitmapIndexReader::LoadBlock(uint32_t b) const {
  if (loaded_blocks_[b]) return loaded_blocks_[b].get();
  const KeyKind kind = key_.kind;
  const size_t start = index_block_start_ + static_cast<size_t>(block_index_.TailAt(b, 0));
  io::ByteReader in(payload_.data() + start, body_start_ - start, start);
  PFI_ASSIGN_OR_RETURN(int32_t raw_count, in.ReadI32BE("index block entry count"));
  PFI_ASSIGN_OR_RETURN(uint32_t count,
                       CheckedCount(raw_count, MinEncodedKeySize(kind) + 8, in, "entry count"));
  if (count == 0) return CorruptAt(start, "empty index block ", b);
  PFI_ASSIGN_OR_RETURN(PackedKeyRecords entries,
                       PackedKeyRecords::Read(kind, 2, count, &in, "an index block"));
  if (CompareKeys(kind, entries.KeyAt(0), block_index_.KeyAt(b)) != 0) {
    return CorruptAt(start, "index block ", b, " does not start with its listed key");
  }
  loaded_blocks_[b] = std::make_unique<const PackedKeyRecords>(std::move(entries));
  return loaded_blocks_[b].get();
}

Result<size_t> BitmapIndexReader::BitmapExtent(int32_t offset, int32_t length,
                                               size_t* available) const {
  const size_t pos = body_start_ + static_cast<size_t>(offset);
  if (pos > payload_.size()) {
    return CorruptAt(pos, "bitmap offset ", offset, " is beyond the payload");
  }
  *available = payload_.size() - pos;
  if (length >= 0) {
    if (static_cast<size_t>(length) > *available) {
      return CorruptAt(pos, "bitmap length ", length, " exceeds the ", *available,
                       " bytes left");
    }
    *available = static_cast<size_t>(length);
  } else if (length != -1) {
    return CorruptAt(pos, "negative bitmap length ", length);
  }
  return pos;
}

Status BitmapIndexReader::CheckRowsWithin(bool any, uint32_t maximum, size_t pos) const {
  if (any && maximum >= static_cast<uint32_t>(row_count_)) {
    return CorruptAt(pos, "bitmap holds row ", maximum, " beyond the row count ", row_count_);
  }
  return Status::OK();
}

Result<uint32_t> BitmapIndexReader::SingleRow(int32_t offset) const {
  const int64_t row = -1 - int64_t{offset};
  if (row >= row_count_) {
    return CorruptAt(body_start_, "single row ", row, " is beyond the row count ", row_count_);
  }
  return static_cast<uint32_t>(row);
}

Result<roaring::Bitmap32> BitmapIndexReader::ReadBitmap(int32_t offset, int32_t length) const {
  if (offset < 0) {
    PFI_ASSIGN_OR_RETURN(uint32_t row, SingleRow(offset));
    return roaring::Bitmap32::Of({row});
  }
  size_t available = 0;
  PFI_ASSIGN_OR_RETURN(size_t pos, BitmapExtent(offset, length, &available));
  Result<roaring::Bitmap32> bitmap =
      roaring::Bitmap32::Deserialize(payload_.data() + pos, available);
  if (!bitmap.ok()) return InBitmapAt(bitmap.status(), pos);
  PFI_RETURN_NOT_OK(CheckRowsWithin(!bitmap->IsEmpty(), bitmap->Maximum(), pos));
  return bitmap;
}

Result<BitmapIndexReader::BitmapPtr> BitmapIndexReader::NullBitmapLocked() const {
  if (!has_null_) return std::make_shared<const roaring::Bitmap32>();
  if (!null_bitmap_) {
    PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 rows, ReadBitmap(null_offset_, null_length_));
    null_bitmap_ = std::make_shared<const roaring::Bitmap32>(std::move(rows));
  }
  return null_bitmap_;
}

Result<std::optional<BitmapIndexReader::EntryRef>> BitmapIndexReader::FindEntryLocked(
    const KeyRef& key) const {
  const KeyKind kind = key_.kind;
  if (version_ == 1) {
    // Last entry with an equal key (Java's LinkedHashMap keeps the last put).
    auto it = std::upper_bound(v1_sorted_.begin(), v1_sorted_.end(), key,
                               [this, kind](const KeyRef& k, uint32_t i) {
                                 return CompareKeys(kind, k, v1_entries_[i].key) < 0;
                               });
    if (it != v1_sorted_.begin() && CompareKeys(kind, v1_entries_[*(it - 1)].key, key) == 0) {
      const uint32_t i = *(it - 1);
      return std::optional<EntryRef>(EntryRef{i, v1_entries_[i].offset, v1_entries_[i].length});
    }
    return std::optional<EntryRef>();
  }
  // The last block whose first key <= key, then an exact match inside it.
  const int64_t b = block_index_.LastAtMost(key);
  if (b < 0) return std::optional<EntryRef>();
  PFI_ASSIGN_OR_RETURN(const PackedKeyRecords* entries, LoadBlock(static_cast<uint32_t>(b)));
  const int64_t i = entries->Find(key);
  if (i < 0) return std::optional<EntryRef>();
  EntryRef entry;
  entry.cache_id = (static_cast<uint64_t>(b) << 32) | static_cast<uint64_t>(i);
  entry.offset = entries->TailAt(static_cast<uint32_t>(i), 0);
  entry.length = entries->TailAt(static_cast<uint32_t>(i), 1);
  return std::optional<EntryRef>(entry);
}

Result<BitmapIndexReader::BitmapPtr> BitmapIndexReader::EntryBitmapLocked(
    const EntryRef& entry) const {
  auto cached = bitmap_cache_.find(entry.cache_id);
  if (cached != bitmap_cache_.end()) return cached->second;
  PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 rows, ReadBitmap(entry.offset, entry.length));
  BitmapPtr ptr = std::make_shared<const roaring::Bitmap32>(std::move(rows));
  bitmap_cache_.emplace(entry.cache_id, ptr);
  return ptr;
}

Result<roaring::Bitmap32> BitmapIndexReader::EntryRowsLocked(const EntryRef& entry) const {
  if (bitmap_cache_.count(entry.cache_id) == 0 && handed_over_.insert(entry.cache_id).second) {
    return ReadBitmap(entry.offset, entry.length);
  }
  PFI_ASSIGN_OR_RETURN(BitmapPtr rows, EntryBitmapLocked(entry));
  return roaring::Bitmap32(*rows);
}

Result<roaring::Bitmap32> BitmapIndexReader::UnionOf(const std::vector<Literal>& literals,
                                                      bool complement) const {
  std::vector<LiteralKey> keys;
  keys.reserve(literals.size());
  for (const Literal& literal : literals) {
    PFI_ASSIGN_OR_RETURN(LiteralKey key, LiteralToKey(key_, type_, literal));
    keys.push_back(key);
  }
  roaring::Bitmap32 rows;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bool null_literal = false;
    PFI_ASSIGN_OR_RETURN(std::vector<EntryRef> entries, EntriesLocked(keys, &null_literal));
    if (!null_literal && key_count_ > 1 && entries.size() == static_cast<size_t>(key_count_)) {
      return EveryKeyLocked(complement);
    }
    PFI_ASSIGN_OR_RETURN(rows, UnionOfLocked(null_literal, entries));
  }
  // Outside the lock: other threads' lookups need not wait for a large flip.
  if (complement) rows.Flip(0, static_cast<uint64_t>(row_count_));
  return rows;
}

Result<std::vector<BitmapIndexReader::EntryRef>> BitmapIndexReader::EntriesLocked(
    const std::vector<LiteralKey>& keys, bool* null_literal) const {
  *null_literal = false;
  std::vector<EntryRef> entries;
  entries.reserve(keys.size());
  for (const LiteralKey& key : keys) {
    if (key.kind == LiteralKey::Kind::kNull) *null_literal = true;
    if (key.kind != LiteralKey::Kind::kKey) continue;
    PFI_ASSIGN_OR_RETURN(std::optional<EntryRef> entry, FindEntryLocked(key.key));
    if (entry) entries.push_back(*entry);
  }
  auto by_id = [](const EntryRef& a, const EntryRef& b) { return a.cache_id < b.cache_id; };
  auto same_id = [](const EntryRef& a, const EntryRef& b) { return a.cache_id == b.cache_id; };
  std::sort(entries.begin(), entries.end(), by_id);
  entries.erase(std::unique(entries.begin(), entries.end(), same_id), entries.end());
  return entries;
}

Result<roaring::Bitmap32> BitmapIndexReader::EveryKeyLocked(bool complement) const {
  // Every key of the column (IN of each value of a low-cardinality column): their rows are
  // the rows that are not null, with no key's bitmap read or united. The complement is the
  // null rows, taken as they are: flipping every other row costs a container per 65536
  // rows, and a damaged row count can claim 2^31 of them.
  PFI_ASSIGN_OR_RETURN(BitmapPtr null_rows, NullBitmapLocked());
  if (complement) return roaring::Bitmap32(*null_rows);
  roaring::Bitmap32 rows = roaring::Bitmap32::Range(0, static_cast<uint64_t>(row_count_));
  rows -= *null_rows;
  return rows;
}

Result<roaring::Bitmap32> BitmapIndexReader::UnionOfLocked(
    bool null_literal, const std::vector<EntryRef>& entries) const {
  if (!null_literal && entries.size() == 1) return EntryRowsLocked(entries[0]);
  PFI_ASSIGN_OR_RETURN(std::optional<roaring::Bitmap32> in_place,
                       UnionInPlaceLocked(null_literal, entries));
  if (in_place) return std::move(*in_place);
  std::vector<BitmapPtr> held;
  held.reserve(entries.size() + 1);
  if (null_literal) {
    PFI_ASSIGN_OR_RETURN(BitmapPtr null_rows, NullBitmapLocked());
    held.push_back(std::move(null_rows));
  }
  for (const EntryRef& entry : entries) {
    PFI_ASSIGN_OR_RETURN(BitmapPtr rows, EntryBitmapLocked(entry));
    held.push_back(std::move(rows));
  }
  if (held.empty()) return roaring::Bitmap32();
  if (held.size() == 1) return roaring::Bitmap32(*held[0]);
  std::vector<const roaring::Bitmap32*> inputs;
  inputs.reserve(held.size());
  for (const BitmapPtr& p : held) inputs.push_back(p.get());
  return roaring::Bitmap32::FastUnion(inputs);
}

Result<std::optional<roaring::Bitmap32>> BitmapIndexReader::UnionInPlaceLocked(
    bool null_literal, const std::vector<EntryRef>& entries) const {
  using roaring::RoaringView;
  // Keys of one row store the row, not a bitmap; they join as one bitmap lent by view, and
  // lent views are read as little-endian bytes.
  if (!io::endian_internal::kHostIsLittleEndian) return std::optional<roaring::Bitmap32>();
  std::vector<std::pair<int32_t, int32_t>> stored;  // (offset, length) of the bitmaps
  stored.reserve(entries.size() + 1);
  if (null_literal && has_null_) stored.emplace_back(null_offset_, null_length_);
  for (const EntryRef& entry : entries) stored.emplace_back(entry.offset, entry.length);
  if (stored.size() < 2) return std::optional<roaring::Bitmap32>();

  // Every stored bitmap's structure first: one with run containers sends the union to
  // CRoaring (UnionOfLocked), before any content is checked here as well as there.
  std::vector<RoaringView> views;
  std::vector<size_t> positions;
  roaring::Bitmap32 single_rows;
  views.reserve(stored.size());
  positions.reserve(stored.size());
  for (const auto& [offset, length] : stored) {
    if (offset < 0) {
      PFI_ASSIGN_OR_RETURN(uint32_t row, SingleRow(offset));
      single_rows.Add(row);
      continue;
    }
    size_t available = 0;
    PFI_ASSIGN_OR_RETURN(size_t pos, BitmapExtent(offset, length, &available));
    Result<RoaringView> view = RoaringView::Parse(payload_.data() + pos, available);
    if (!view.ok()) return InBitmapAt(view.status(), pos);
    if (view->HoldsRuns()) return std::optional<roaring::Bitmap32>();
    views.push_back(std::move(*view));
    positions.push_back(pos);
  }
  for (size_t i = 0; i < views.size(); ++i) {
    const Status content =
        roaring::CheckPortableContent(payload_.data() + positions[i], views[i].bytes());
    if (!content.ok()) return InBitmapAt(content, positions[i]);
    uint32_t maximum = 0;
    const bool any = views[i].Maximum(&maximum);
    PFI_RETURN_NOT_OK(CheckRowsWithin(any, maximum, positions[i]));
  }
  if (!single_rows.IsEmpty()) views.push_back(RoaringView::Over(single_rows));
  std::vector<const RoaringView*> inputs;
  inputs.reserve(views.size());
  for (const RoaringView& view : views) inputs.push_back(&view);
  return roaring::UnionByKeys(inputs);
}

Result<FileIndexResult> BitmapIndexReader::Visit(const Predicate& leaf) const {
  const PredicateOp op = leaf.op;
  if (op == PredicateOp::kIsNaN || op == PredicateOp::kIsNotNaN) return VisitNaN(op);
  const bool single = op == PredicateOp::kEqual || op == PredicateOp::kNotEqual;
  const bool list = op == PredicateOp::kIn || op == PredicateOp::kNotIn;
  const bool nullness = op == PredicateOp::kIsNull || op == PredicateOp::kIsNotNull;
  if (!single && !list && !nullness) return FileIndexResult::Remain();
  // Java: = and IN look up the union of the literals' bitmaps; IS NULL looks up the null
  // literal. <>, NOT IN and IS NOT NULL flip that union over [0, rowCount), so rows that are
  // null stay in the answer of <> and NOT IN (a superset, as in Java).
  std::vector<Literal> null_literal;
  const std::vector<Literal>* literals = &leaf.literals;
  if (nullness) {
    null_literal.push_back(Literal::Null());
    literals = &null_literal;
  }
  const bool negated = op == PredicateOp::kNotEqual || op == PredicateOp::kNotIn;
  std::vector<Literal> exact_literals;
  if (negated && type_.IsTimestamp()) {
    // A key's rows can be excluded from <> / NOT IN only when the key is exact: never for
    // TIMESTAMP(7..9) (keys drop nanoseconds; Java 2.0 loses rows here, docs/DIFFERENCES.md),
    // and not for a literal finer than the key, which equals no stored value.
    for (const Literal& literal : *literals) {
      if (key_.drops_nanos) break;
      if (literal.kind() == Literal::Kind::kTimestamp) {
        PFI_ASSIGN_OR_RETURN(keys::AxisPoint point, keys::PointOf(key_, literal));
        if (point.fraction) continue;
      }
      exact_literals.push_back(literal);
    }
    literals = &exact_literals;
  }
  PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 rows,
                       UnionOf(*literals, negated || op == PredicateOp::kIsNotNull));
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

// Every NaN is keyed by the canonical NaN bits (FloatBits / DoubleBits), so one key holds all
// NaN rows whatever their bit patterns: IS NAN is that key's rows, IS NOT NAN the rows that
// are neither NULL nor NaN.
Result<FileIndexResult> BitmapIndexReader::VisitNaN(PredicateOp op) const {
  if (key_.kind != KeyKind::kFloat && key_.kind != KeyKind::kDouble) {
    return FileIndexResult::Remain();
  }
  const std::vector<Literal> nan = {Literal::Double(std::numeric_limits<double>::quiet_NaN())};
  PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 nan_rows, UnionOf(nan, /*complement=*/false));
  if (op == PredicateOp::kIsNaN) return FileIndexResult::Rows(RowBitmap(std::move(nan_rows)));
  const std::vector<Literal> null = {Literal::Null()};
  PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 rows, UnionOf(null, /*complement=*/true));
  rows -= nan_rows;
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

// Keys are exact values except for timestamps (TIMESTAMP(7..9) keys drop nanoseconds, and a
// finer literal is looked up by its key) and floats (keys tell -0.0 from 0.0, which SQL calls
// equal): there only the NULL and NaN tests are exact. String patterns test each string key,
// which is the value itself. A NULL literal in an IN list selects the NULL rows, which SQL
// never matches.
bool BitmapIndexReader::ExactFor(const Predicate& leaf) const {
  switch (leaf.op) {
    case PredicateOp::kIsNull:
    case PredicateOp::kIsNotNull:
    case PredicateOp::kIsNaN:
    case PredicateOp::kIsNotNaN:
    case PredicateOp::kStartsWith:
    case PredicateOp::kEndsWith:
    case PredicateOp::kContains:
    case PredicateOp::kLike:
    case PredicateOp::kNotLike:
      return true;
    case PredicateOp::kEqual:
    case PredicateOp::kNotEqual:
    case PredicateOp::kIn:
    case PredicateOp::kNotIn:
      break;
    default:
      return false;
  }
  if (key_.is_timestamp() || key_.kind == KeyKind::kFloat || key_.kind == KeyKind::kDouble) {
    return false;
  }
  for (const Literal& literal : leaf.literals) {
    if (literal.is_null()) return false;
  }
  return true;
}

Result<std::vector<std::pair<std::string, std::string>>> BitmapIndexReader::Describe() const {
  uint64_t null_rows = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    PFI_ASSIGN_OR_RETURN(BitmapPtr nulls, NullBitmapLocked());
    null_rows = nulls->Cardinality();
  }
  std::vector<std::pair<std::string, std::string>> facts = {
      {"version", std::to_string(version_)},
      {"row_count", std::to_string(row_count_)},
      {"cardinality", std::to_string(key_count_)},
      {"null_count", std::to_string(null_rows)},
      {"key_type", std::string(KeyKindName(key_.kind))},
  };
  if (version_ == 2) facts.emplace_back("index_blocks", std::to_string(block_index_.size()));
  return facts;
}

}  // namespace pyfileindex::index::bitmap
