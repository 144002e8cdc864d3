// LIKE-family answers of the bitmap index: its keys are every distinct value of the file, so
// the rows of the keys a pattern matches are the exact answer.
//
// String keys sort by unsigned bytes (Java's BinaryString.compareTo), the order of V2's index
// blocks and of the V1 positions sorted at open; in that order the keys with a given UTF-8
// prefix are one run, so a pattern with a literal prefix walks only that run.
#include <algorithm>
#include <string_view>

#include "index/bitmap/bitmap_reader.h"

namespace pyfileindex::index::bitmap {

namespace {

bool HasPrefix(std::string_view key, std::string_view prefix) {
  return key.size() >= prefix.size() && key.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

Result<std::optional<std::vector<BitmapIndexReader::EntryRef>>>
BitmapIndexReader::PatternEntriesLocked(const pattern::LikePattern& like,
                                        int64_t scan_limit) const {
  using Found = std::optional<std::vector<EntryRef>>;
  const KeyKind kind = key_.kind;
  const std::string_view prefix = like.literal_prefix();
  if (prefix.empty() && key_count_ > scan_limit) return Found();
  KeyRef prefix_key;
  prefix_key.bytes = prefix;

  std::vector<EntryRef> matches;
  int64_t walked = 0;
  // Takes one key of the prefix run; false once the run is over or the limit is passed.
  bool over_limit = false;
  auto take = [&](const KeyRef& key, const EntryRef& entry) {
    if (!HasPrefix(key.bytes, prefix)) return false;
    if (++walked > scan_limit) {
      over_limit = true;
      return false;
    }
    if (like.prefix_only() || like.Matches(key.bytes)) matches.push_back(entry);
    return true;
  };

  if (version_ == 1) {
    auto it = std::lower_bound(v1_sorted_.begin(), v1_sorted_.end(), prefix_key,
                               [this, kind](uint32_t i, const KeyRef& k) {
                                 return CompareKeys(kind, v1_entries_[i].key, k) < 0;
                               });
    for (; it != v1_sorted_.end(); ++it) {
      const Entry& e = v1_entries_[*it];
      // Of equal keys (a damaged V1 dictionary) the last counts, as for equality lookups.
      if (it + 1 != v1_sorted_.end() && CompareKeys(kind, v1_entries_[*(it + 1)].key, e.key) == 0) {
        continue;
      }
      if (!take(e.key, EntryRef{*it, e.offset, e.length})) break;
    }
  } else {
    int64_t first_block = prefix.empty() ? 0 : block_index_.LastAtMost(prefix_key);
    if (first_block < 0) first_block = 0;
    bool done = false;
    for (uint32_t b = static_cast<uint32_t>(first_block); b < block_index_.size() && !done; ++b) {
      PFI_ASSIGN_OR_RETURN(const PackedKeyRecords* entries, LoadBlock(b));
      for (uint32_t j = 0; j < entries->size(); ++j) {
        const KeyRef key = entries->KeyAt(j);
        if (CompareKeys(kind, key, prefix_key) < 0) continue;  // before the run, in its block
        EntryRef entry;
        entry.cache_id = (static_cast<uint64_t>(b) << 32) | j;
        entry.offset = entries->TailAt(j, 0);
        entry.length = entries->TailAt(j, 1);
        if (!take(key, entry)) {
          done = true;
          break;
        }
      }
    }
  }
  if (over_limit) return Found();
  return Found(std::move(matches));
}

Result<FileIndexResult> BitmapIndexReader::VisitPattern(const pattern::LikePattern& like,
                                                        bool negated,
                                                        int64_t scan_limit) const {
  if (key_.kind != KeyKind::kString) return FileIndexResult::Remain();
  roaring::Bitmap32 rows;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    PFI_ASSIGN_OR_RETURN(std::optional<std::vector<EntryRef>> matches,
                         PatternEntriesLocked(like, scan_limit));
    if (!matches) return FileIndexResult::Remain();
    if (key_count_ > 1 && matches->size() == static_cast<size_t>(key_count_)) {
      PFI_ASSIGN_OR_RETURN(rows, EveryKeyLocked(/*complement=*/false));  // e.g. LIKE '%'
    } else if (!matches->empty()) {
      PFI_ASSIGN_OR_RETURN(rows, UnionOfLocked(/*null_literal=*/false, *matches));
    }
    if (negated) {
      // NULL rows match neither LIKE nor NOT LIKE: the keyed rows the pattern leaves out.
      PFI_ASSIGN_OR_RETURN(roaring::Bitmap32 keyed, EveryKeyLocked(/*complement=*/false));
      keyed -= rows;
      rows = std::move(keyed);
    }
  }
  if (rows.IsEmpty()) return FileIndexResult::Skip();
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

}  // namespace pyfileindex::index::bitmap
