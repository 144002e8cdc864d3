// LIKE-family answers of the range-bitmap index. Its dictionary holds every distinct value,
// sorted by unsigned bytes, which keeps the values with one UTF-8 prefix in one run of codes:
// a prefix pattern is a code range of the bit slices (no dictionary entry read), any other
// pattern tests the keys of its literal prefix's run and selects the rows of those that match.
#include <string>

#include "index/range_bitmap/range_bitmap_reader.h"

namespace pyfileindex::index::range_bitmap {

namespace {

// Past this many separate runs of matching codes, decoding every row's code once is cheaper
// than one walk over the slices per run.
constexpr size_t kMaxCodeRunWalks = 32;

// The smallest byte string above every string that starts with `prefix`; empty when there is
// none (the prefix is all 0xFF bytes).
std::string PrefixSuccessor(std::string_view prefix) {
  std::string successor(prefix);
  while (!successor.empty() && static_cast<unsigned char>(successor.back()) == 0xFF) {
    successor.pop_back();
  }
  if (!successor.empty()) successor.back() = static_cast<char>(successor.back() + 1);
  return successor;
}

}  // namespace

Result<std::pair<int64_t, int64_t>> RangeBitmapReader::PrefixCodes(
    std::string_view prefix) const {
  if (prefix.empty()) return std::make_pair(int64_t{0}, cardinality_ - 1);
  LookupKey low;
  low.bytes = prefix;
  PFI_ASSIGN_OR_RETURN(int64_t first, FirstCodeAbove(low, /*strict=*/false));
  int64_t last = cardinality_ - 1;
  const std::string successor = PrefixSuccessor(prefix);
  if (!successor.empty()) {
    LookupKey high;
    high.bytes = successor;
    PFI_ASSIGN_OR_RETURN(int64_t above, FirstCodeAbove(high, /*strict=*/false));
    last = above - 1;
  }
  return std::make_pair(first, last);
}

Result<Bitmap32> RangeBitmapReader::RowsOfCodes(const std::vector<int64_t>& codes) const {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t code : codes) {
    if (!runs.empty() && runs.back().second + 1 == code) {
      runs.back().second = code;
    } else {
      runs.emplace_back(code, code);
    }
  }
  if (runs.size() > kMaxCodeRunWalks) {
    std::vector<bool> wanted(static_cast<size_t>(codes.back()) + 1, false);
    for (int64_t code : codes) wanted[static_cast<size_t>(code)] = true;
    return bsi_->RowsWithCodeIn(wanted);
  }
  std::vector<Bitmap32> pieces;
  pieces.reserve(runs.size());
  for (const auto& [first, last] : runs) {
    PFI_ASSIGN_OR_RETURN(Bitmap32 rows, CodesBetween(first, last));
    pieces.push_back(std::move(rows));
  }
  return Bitmap32::FastUnion(pieces);
}

Result<FileIndexResult> RangeBitmapReader::VisitPattern(const pattern::LikePattern& like,
                                                        bool negated,
                                                        int64_t scan_limit) const {
  if (spec_.kind != KeyKind::kString) return FileIndexResult::Remain();
  Bitmap32 rows;
  if (cardinality_ > 0) {
    PFI_ASSIGN_OR_RETURN(auto run, PrefixCodes(like.literal_prefix()));
    const auto [first, last] = run;
    if (first <= last && like.prefix_only()) {
      PFI_ASSIGN_OR_RETURN(rows, CodesBetween(first, last));
    } else if (first <= last) {
      if (last - first + 1 > scan_limit) return FileIndexResult::Remain();
      std::vector<int64_t> codes;
      PFI_RETURN_NOT_OK(dictionary_->ForEachKey(first, last,
                                                [&](int64_t code, std::string_view key) {
                                                  if (like.Matches(key)) codes.push_back(code);
                                                }));
      if (!codes.empty()) {
        PFI_ASSIGN_OR_RETURN(rows, RowsOfCodes(codes));
      }
    }
  }
  if (negated) {
    // NULL rows match neither LIKE nor NOT LIKE: the keyed rows the pattern leaves out.
    PFI_ASSIGN_OR_RETURN(Bitmap32 keyed, NotNull());
    keyed -= rows;
    rows = std::move(keyed);
  }
  if (rows.IsEmpty()) return FileIndexResult::Skip();
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

}  // namespace pyfileindex::index::range_bitmap
