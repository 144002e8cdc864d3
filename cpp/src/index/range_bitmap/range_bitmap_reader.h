// The range-bitmap index reader (Paimon's RangeBitmapFileIndex.Reader + RangeBitmap).
//
// Open() parses the index header, the dictionary header and the BSI header; dictionary chunks,
// the EBM and bit slices are loaded when a predicate first needs them (sync/lazy_cell.h), so one
// reader serves many threads and many queries.
//
// Answers are Java's, except where Java 2.0 is wrong (docs/DIFFERENCES.md, "range-bitmap"):
// IS NULL on an index without keys returns every row, TopN on it returns the first `limit`
// selected rows (all of them WITH TIES), TopN WITH TIES keeps every tied NULL, and literals
// that no key can equal are placed exactly (literal_probe.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "index/index_type.h"
#include "index/range_bitmap/code_bsi_reader.h"
#include "index/range_bitmap/dictionary_reader.h"
#include "index/range_bitmap/key_kind.h"
#include "index/range_bitmap/literal_probe.h"

namespace pyfileindex::index::range_bitmap {

class RangeBitmapReader final : public ColumnIndexReader {
 public:
  static Result<std::unique_ptr<RangeBitmapReader>> Open(const DataType& type, ByteSpan payload);

  Result<FileIndexResult> Visit(const Predicate& leaf) const override;
  // Exact on string columns: a prefix is a run of codes, other patterns a scan of the prefix's
  // run of the dictionary (range_bitmap_pattern.cc).
  Result<FileIndexResult> VisitPattern(const pattern::LikePattern& like, bool negated,
                                       int64_t scan_limit) const override;
  bool ExactFor(const Predicate& leaf) const override;
  // The header's min and max keys; within a selection, the keys of its lowest and highest
  // codes (a TopN of one row each way, then that row's code and key).
  Result<std::optional<std::pair<Literal, Literal>>> MinMax(
      const RowBitmap* selection) const override;
  // ORDER BY column LIMIT n within `selection` (all rows when null): exactly min(n, |selection|)
  // rows with Java's tie rules, or with top_n.with_ties every row tied with the n-th one
  // (TopNRows with strict = !with_ties).
  Result<FileIndexResult> VisitTopN(const TopN& top_n, const RowBitmap* selection) const override;
  Result<std::vector<std::pair<std::string, std::string>>> Describe() const override;
  int64_t StoredRowCount() const override { return row_count_; }

  // TopN with Java's `strict` flag: true for a single sort key (ties at the limit are cut:
  // value ties keep the highest row positions, NULL ties the lowest); false when more sort keys
  // follow (every row tied with the last one kept is returned, NULLs included, as Paimon does
  // since apache/paimon#9280).
  Result<Bitmap32> TopNRows(const TopN& top_n, const Bitmap32* selection, bool strict) const;

  uint32_t row_count() const { return row_count_; }
  int64_t cardinality() const { return cardinality_; }
  size_t LoadedChunks() const { return dictionary_->LoadedChunks(); }
  size_t LoadedSlices() const { return bsi_->LoadedSlices(); }

 private:
  RangeBitmapReader() = default;

  Result<Bitmap32> Evaluate(const Predicate& leaf) const;
  Result<Probe> ProbeOf(const Literal& literal) const;

  Result<Bitmap32> NotNull() const;
  Result<Bitmap32> IsNull() const;
  // Code bounds of a key, using the header's min/max before the dictionary (as Java does):
  // the first code of a key >= key (> key when `strict`), cardinality if none; the last code
  // of a key <= key (< key when `strict`), -1 if none; the key's own code, -1 if absent.
  Result<int64_t> FirstCodeAbove(const LookupKey& key, bool strict) const;
  Result<int64_t> LastCodeBelow(const LookupKey& key, bool strict) const;
  Result<int64_t> CodeOf(const LookupKey& key) const;
  // The same for a probe, which may fall between two possible keys.
  Result<int64_t> FirstCodeAbove(const Probe& p, bool strict) const;
  Result<int64_t> LastCodeBelow(const Probe& p, bool strict) const;
  Result<Bitmap32> EqProbe(const Probe& p) const;
  Result<Bitmap32> CodesBetween(int64_t low, int64_t high) const;
  // The codes [first, last] of keys starting with `prefix` (first > last when none).
  Result<std::pair<int64_t, int64_t>> PrefixCodes(std::string_view prefix) const;
  // Rows of the ascending `codes`.
  Result<Bitmap32> RowsOfCodes(const std::vector<int64_t>& codes) const;

  DataType type_;
  KeySpec spec_;
  int8_t version_ = 0;
  uint32_t row_count_ = 0;
  int64_t cardinality_ = 0;
  std::string_view min_;  // stored keys (strings without their length prefix)
  std::string_view max_;
  std::unique_ptr<DictionaryReader> dictionary_;
  std::unique_ptr<CodeBsiReader> bsi_;
};

}  // namespace pyfileindex::index::range_bitmap
