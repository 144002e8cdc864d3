#include "index/range_bitmap/range_bitmap_reader.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "io/byte_reader.h"

namespace pyfileindex::index::range_bitmap {

namespace {

constexpr int8_t kMaxVersion = 1;

// Consecutive codes of an IN list from which a range scan beats a tie per code in the
// shared walk: the range scan keeps at most two ties whatever the run's length.
constexpr size_t kRangeScanRun = 4;

template <typename... Pieces>
Status Bad(const Pieces&... what) {
  return Status::Corrupt("range-bitmap: ", what...);
}

Result<std::string_view> ReadKey(const KeySpec& spec, io::ByteReader* in, const char* what) {
  size_t length = static_cast<size_t>(spec.width);
  if (spec.kind == KeyKind::kString) {
    PFI_ASSIGN_OR_RETURN(uint32_t string_length, in->ReadLength(what));
    length = string_length;
  }
  PFI_ASSIGN_OR_RETURN(io::ByteSpan bytes, in->ReadBytes(length, what));
  return bytes.AsStringView();
}

}  // namespace

Result<std::unique_ptr<RangeBitmapReader>> RangeBitmapReader::Open(const DataType& type,
                                                                   ByteSpan payload) {
  PFI_ASSIGN_OR_RETURN(KeySpec spec, KeySpecFor(type));
  std::unique_ptr<RangeBitmapReader> reader(new RangeBitmapReader());
  reader->type_ = type;
  reader->spec_ = spec;

  io::ByteReader in(payload);
  PFI_ASSIGN_OR_RETURN(uint32_t header_length, in.ReadLength("header length"));
  PFI_ASSIGN_OR_RETURN(io::ByteSpan header_bytes, in.ReadBytes(header_length, "header"));
  io::ByteReader header(header_bytes);
  PFI_ASSIGN_OR_RETURN(reader->version_, header.ReadI8("version"));
  if (reader->version_ > kMaxVersion) {
    return Bad("unsupported version ", reader->version_);
  }
  PFI_ASSIGN_OR_RETURN(int32_t rows, header.ReadI32BE("row count"));
  PFI_ASSIGN_OR_RETURN(int32_t cardinality, header.ReadI32BE("cardinality"));
  if (rows < 0 || cardinality < 0 || cardinality > rows) {
    return Bad(cardinality, " distinct keys in ", rows, " rows");
  }
  if (cardinality > 0) {
    PFI_ASSIGN_OR_RETURN(reader->min_, ReadKey(spec, &header, "min key"));
    PFI_ASSIGN_OR_RETURN(reader->max_, ReadKey(spec, &header, "max key"));
  }
  PFI_ASSIGN_OR_RETURN(int32_t dictionary_length, header.ReadI32BE("dictionary length"));
  if (dictionary_length < 0) return Bad("dictionary length ", dictionary_length);
  PFI_ASSIGN_OR_RETURN(io::ByteSpan dictionary,
                       in.ReadBytes(static_cast<size_t>(dictionary_length), "dictionary"));
  reader->row_count_ = static_cast<uint32_t>(rows);
  reader->cardinality_ = cardinality;
  PFI_ASSIGN_OR_RETURN(reader->dictionary_, DictionaryReader::Open(dictionary, spec, cardinality));
  PFI_ASSIGN_OR_RETURN(reader->bsi_,
                       CodeBsiReader::Open(in.Rest(), cardinality, static_cast<uint32_t>(rows)));
  return reader;
}

// ---- predicates ----------------------------------------------------------------------------

Result<FileIndexResult> RangeBitmapReader::Visit(const Predicate& leaf) const {
  // A NULL literal: Java throws (NullPointerException in the comparator); the always-safe
  // answer is REMAIN. Non-null literals of the list are still checked for their kind.
  bool has_null_literal = false;
  for (const Literal& literal : leaf.literals) {
    if (literal.is_null()) {
      has_null_literal = true;
    } else {
      PFI_RETURN_NOT_OK(ProbeOf(literal).status());
    }
  }
  if (has_null_literal && leaf.is_leaf()) return FileIndexResult::Remain();
  const bool nan_test = leaf.op == PredicateOp::kIsNaN || leaf.op == PredicateOp::kIsNotNaN;
  if (nan_test && spec_.kind != KeyKind::kFloat && spec_.kind != KeyKind::kDouble) {
    return FileIndexResult::Remain();  // as the other index types: the caller checks types
  }
  PFI_ASSIGN_OR_RETURN(Bitmap32 rows, Evaluate(leaf));
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

// Codes follow the values' order and literals between keys are placed exactly, so every
// answer is exact, except comparisons on FLOAT / DOUBLE: the dictionary orders them as Java's
// Float.compare (-0.0 below 0.0, NaN above +Infinity), which SQL does not.
bool RangeBitmapReader::ExactFor(const Predicate& leaf) const {
  if (!leaf.is_leaf()) return false;
  for (const Literal& literal : leaf.literals) {
    if (literal.is_null()) return false;
  }
  const bool floats = spec_.kind == KeyKind::kFloat || spec_.kind == KeyKind::kDouble;
  switch (leaf.op) {
    case PredicateOp::kIsNull:
    case PredicateOp::kIsNotNull:
      return true;
    case PredicateOp::kIsNaN:
    case PredicateOp::kIsNotNaN:
      return floats;
    default:
      return !floats;
  }
}

Result<std::optional<std::pair<Literal, Literal>>> RangeBitmapReader::MinMax(
    const RowBitmap* selection) const {
  using Answer = std::optional<std::pair<Literal, Literal>>;
  if (cardinality_ <= 0) return Answer();
  auto literal_of = [&](std::string_view key) {
    return KeyLiteral(spec_, reinterpret_cast<const uint8_t*>(key.data()), key.size());
  };
  if (selection == nullptr) return Answer(std::make_pair(literal_of(min_), literal_of(max_)));
  // The header's min and max may be rows outside the selection (deleted rows): the lowest and
  // highest code among the selected rows, found by a TopN of one row each way.
  auto extreme = [&](bool largest) -> Result<std::optional<Literal>> {
    PFI_ASSIGN_OR_RETURN(Bitmap32 rows, bsi_->TopK(1, &selection->impl(), /*strict=*/true,
                                                   largest));
    if (rows.IsEmpty()) return std::optional<Literal>();
    PFI_ASSIGN_OR_RETURN(int64_t code, bsi_->CodeOfRow(rows.Minimum()));
    if (code < 0 || code >= cardinality_) {
      return Status::Corrupt("range-bitmap: row ", rows.Minimum(), " has code ", code, " of ",
                             cardinality_);
    }
    PFI_ASSIGN_OR_RETURN(std::string_view key, dictionary_->KeyOfCode(code));
    return std::optional<Literal>(literal_of(key));
  };
  PFI_ASSIGN_OR_RETURN(std::optional<Literal> low, extreme(false));
  if (!low) return Answer();
  PFI_ASSIGN_OR_RETURN(std::optional<Literal> high, extreme(true));
  if (!high) return Answer();
  return Answer(std::make_pair(std::move(*low), std::move(*high)));
}

Result<Probe> RangeBitmapReader::ProbeOf(const Literal& literal) const {
  return MakeProbe(spec_, type_, literal);
}

Result<Bitmap32> RangeBitmapReader::Evaluate(const Predicate& leaf) const {
  switch (leaf.op) {
    case PredicateOp::kIsNull:
      return IsNull();
    case PredicateOp::kIsNotNull:
      return NotNull();
    case PredicateOp::kEqual:
    case PredicateOp::kNotEqual:
    case PredicateOp::kLessThan:
    case PredicateOp::kLessOrEqual:
    case PredicateOp::kGreaterThan:
    case PredicateOp::kGreaterOrEqual: {
      PFI_ASSIGN_OR_RETURN(Probe p, ProbeOf(leaf.literals[0]));
      switch (leaf.op) {
        case PredicateOp::kEqual:
          return EqProbe(p);
        case PredicateOp::kNotEqual: {
          PFI_ASSIGN_OR_RETURN(Bitmap32 equal, EqProbe(p));
          PFI_ASSIGN_OR_RETURN(Bitmap32 rows, NotNull());
          rows -= equal;
          return rows;
        }
        default:
          break;
      }
      if (cardinality_ <= 0) return Bitmap32();
      switch (leaf.op) {
        case PredicateOp::kLessThan:
        case PredicateOp::kLessOrEqual: {
          PFI_ASSIGN_OR_RETURN(int64_t last, LastCodeBelow(p, leaf.op == PredicateOp::kLessThan));
          return CodesBetween(0, last);
        }
        default: {
          PFI_ASSIGN_OR_RETURN(int64_t first,
                               FirstCodeAbove(p, leaf.op == PredicateOp::kGreaterThan));
          return CodesBetween(first, cardinality_ - 1);
        }
      }
    }
    case PredicateOp::kIn:
    case PredicateOp::kNotIn: {
      std::vector<int64_t> codes;  // of the literals present in the dictionary
      codes.reserve(leaf.literals.size());
      for (const Literal& literal : leaf.literals) {
        PFI_ASSIGN_OR_RETURN(Probe p, ProbeOf(literal));
        if (!p.exact || cardinality_ <= 0) continue;
        PFI_ASSIGN_OR_RETURN(int64_t code, CodeOf(p.key));
        if (code >= 0) codes.push_back(code);
      }
      std::sort(codes.begin(), codes.end());
      codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
      // A long run of consecutive codes is one range scan (IN of every value of a
      // low-cardinality column reads the EBM alone); the other codes share one walk.
      std::vector<Bitmap32> matches;
      std::vector<int64_t> scattered;
      for (size_t i = 0; i < codes.size();) {
        size_t j = i + 1;
        while (j < codes.size() && codes[j] == codes[j - 1] + 1) ++j;
        if (j - i >= kRangeScanRun) {
          PFI_ASSIGN_OR_RETURN(Bitmap32 rows, CodesBetween(codes[i], codes[j - 1]));
          if (!rows.IsEmpty()) matches.push_back(std::move(rows));
        } else {
          scattered.insert(scattered.end(), codes.begin() + i, codes.begin() + j);
        }
        i = j;
      }
      if (!scattered.empty()) {
        PFI_ASSIGN_OR_RETURN(Bitmap32 rows, bsi_->CodesIn(scattered));
        if (!rows.IsEmpty()) matches.push_back(std::move(rows));
      }
      Bitmap32 any = Bitmap32::FastUnion(matches);
      if (leaf.op == PredicateOp::kIn) return any;
      PFI_ASSIGN_OR_RETURN(Bitmap32 rows, NotNull());
      rows -= any;
      return rows;
    }
    case PredicateOp::kBetween: {
      PFI_ASSIGN_OR_RETURN(Probe low, ProbeOf(leaf.literals[0]));
      PFI_ASSIGN_OR_RETURN(Probe high, ProbeOf(leaf.literals[1]));
      if (cardinality_ <= 0) return Bitmap32();
      PFI_ASSIGN_OR_RETURN(int64_t first, FirstCodeAbove(low, false));
      PFI_ASSIGN_OR_RETURN(int64_t last, LastCodeBelow(high, false));
      return CodesBetween(first, last);
    }
    case PredicateOp::kStartsWith:
    case PredicateOp::kEndsWith:
    case PredicateOp::kContains:
    case PredicateOp::kLike:
    case PredicateOp::kNotLike:
      return Status::InvalidArgument("range-bitmap: ", PredicateOpName(leaf.op),
                                     " is answered by VisitPattern");
    case PredicateOp::kIsNaN:
    case PredicateOp::kIsNotNaN: {
      // The dictionary orders every NaN as the one canonical NaN key (above +Infinity), so
      // that key's code holds all NaN rows whatever their bit patterns.
      PFI_ASSIGN_OR_RETURN(Probe nan,
                           ProbeOf(Literal::Double(std::numeric_limits<double>::quiet_NaN())));
      PFI_ASSIGN_OR_RETURN(Bitmap32 nan_rows, EqProbe(nan));
      if (leaf.op == PredicateOp::kIsNaN) return nan_rows;
      PFI_ASSIGN_OR_RETURN(Bitmap32 rows, NotNull());
      rows -= nan_rows;
      return rows;
    }
    case PredicateOp::kAnd:
    case PredicateOp::kOr:
      break;
  }
  return Status::InvalidArgument("range-bitmap: ", PredicateOpName(leaf.op),
                                 " is not a leaf predicate");
}

Result<Bitmap32> RangeBitmapReader::NotNull() const {
  if (cardinality_ <= 0) return Bitmap32();
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, bsi_->Ebm());
  return *ebm;
}

Result<Bitmap32> RangeBitmapReader::IsNull() const {
  Bitmap32 rows = Bitmap32::Range(0, row_count_);
  // Java 2.0 answers {0, rows-1} here when there are no keys (apache/paimon#9140).
  if (cardinality_ <= 0) return rows;
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, bsi_->Ebm());
  rows -= *ebm;
  return rows;
}

Result<int64_t> RangeBitmapReader::FirstCodeAbove(const LookupKey& key, bool strict) const {
  const int cmp_min = -CompareStoredKey(spec_, min_, key);  // compare(key, min)
  const int cmp_max = -CompareStoredKey(spec_, max_, key);
  if (cmp_min < 0 || (cmp_min == 0 && !strict)) return 0;
  if (cmp_max > 0 || (cmp_max == 0 && strict)) return cardinality_;
  if (cmp_max == 0) return cardinality_ - 1;
  PFI_ASSIGN_OR_RETURN(int64_t code, dictionary_->Find(key));
  if (code < 0) return -code - 1;  // the insertion point: first key above
  return strict ? code + 1 : code;
}

Result<int64_t> RangeBitmapReader::LastCodeBelow(const LookupKey& key, bool strict) const {
  const int cmp_min = -CompareStoredKey(spec_, min_, key);
  const int cmp_max = -CompareStoredKey(spec_, max_, key);
  if (cmp_max > 0 || (cmp_max == 0 && !strict)) return cardinality_ - 1;
  if (cmp_min < 0 || (cmp_min == 0 && strict)) return -1;
  if (cmp_min == 0) return 0;
  PFI_ASSIGN_OR_RETURN(int64_t code, dictionary_->Find(key));
  if (code < 0) return -code - 2;  // just below the insertion point
  return strict ? code - 1 : code;
}

Result<int64_t> RangeBitmapReader::CodeOf(const LookupKey& key) const {
  const int cmp_min = -CompareStoredKey(spec_, min_, key);
  const int cmp_max = -CompareStoredKey(spec_, max_, key);
  if (cmp_min < 0 || cmp_max > 0) return -1;
  if (cmp_min == 0) return 0;
  if (cmp_max == 0) return cardinality_ - 1;
  PFI_ASSIGN_OR_RETURN(int64_t code, dictionary_->Find(key));
  return code < 0 ? -1 : code;
}

Result<int64_t> RangeBitmapReader::FirstCodeAbove(const Probe& p, bool strict) const {
  if (p.exact) return FirstCodeAbove(p.key, strict);
  if (!p.has_hi) return cardinality_;
  return FirstCodeAbove(p.hi, false);  // above a gap = at least the key just over it
}

Result<int64_t> RangeBitmapReader::LastCodeBelow(const Probe& p, bool strict) const {
  if (p.exact) return LastCodeBelow(p.key, strict);
  if (!p.has_lo) return -1;
  return LastCodeBelow(p.lo, false);
}

Result<Bitmap32> RangeBitmapReader::CodesBetween(int64_t low, int64_t high) const {
  if (cardinality_ <= 0) return Bitmap32();
  return bsi_->CodesBetween(low, high);
}

Result<Bitmap32> RangeBitmapReader::EqProbe(const Probe& p) const {
  if (!p.exact || cardinality_ <= 0) return Bitmap32();
  PFI_ASSIGN_OR_RETURN(int64_t code, CodeOf(p.key));
  if (code < 0) return Bitmap32();
  return CodesBetween(code, code);
}

// ---- TopN ----------------------------------------------------------------------------------

Result<Bitmap32> RangeBitmapReader::TopNRows(const TopN& top_n, const Bitmap32* selection,
                                             bool strict) const {
  if (top_n.limit < 0) {
    return Status::InvalidArgument("range-bitmap: TopN limit ", top_n.limit,
                                   " on column '", top_n.column, "' is negative");
  }
  const uint64_t k = static_cast<uint64_t>(top_n.limit);
  if (k == 0) return Bitmap32();
  if (cardinality_ <= 0) {
    // Every row is NULL, so all are tied. Java 2.0 returns {0, rows-1} (apache/paimon#9140),
    // later Java every row regardless of selection and limit; the rows of the selection, cut
    // to the limit at the lowest positions like any NULL tie, are the exact answer.
    Bitmap32 rows = Bitmap32::Range(0, row_count_);
    if (selection != nullptr) rows &= *selection;
    return strict ? FirstN(rows, k) : rows;
  }

  auto nulls = [&]() -> Result<Bitmap32> {
    if (selection != nullptr && selection->IsEmpty()) return Bitmap32();
    PFI_ASSIGN_OR_RETURN(Bitmap32 rows, IsNull());
    if (selection != nullptr) rows &= *selection;
    return rows;
  };
  auto values = [&](uint64_t n) {
    return bsi_->TopK(n, selection, strict, /*largest=*/top_n.descending);
  };

  if (!top_n.nulls_first) {
    PFI_ASSIGN_OR_RETURN(Bitmap32 rows, values(k));
    const uint64_t found = rows.Cardinality();
    if (found >= k) return rows;
    PFI_ASSIGN_OR_RETURN(Bitmap32 null_rows, nulls());
    rows |= strict ? FirstN(null_rows, k - found) : null_rows;
    return rows;
  }
  PFI_ASSIGN_OR_RETURN(Bitmap32 rows, nulls());
  const uint64_t found = rows.Cardinality();
  if (found >= k) return strict ? FirstN(rows, k) : rows;
  PFI_ASSIGN_OR_RETURN(Bitmap32 value_rows, values(k - found));
  rows |= value_rows;
  return rows;
}

Result<FileIndexResult> RangeBitmapReader::VisitTopN(const TopN& top_n,
                                                     const RowBitmap* selection) const {
  PFI_ASSIGN_OR_RETURN(Bitmap32 rows,
                       TopNRows(top_n, selection != nullptr ? &selection->impl() : nullptr,
                                /*strict=*/!top_n.with_ties));
  return FileIndexResult::Rows(RowBitmap(std::move(rows)));
}

// ---- describe ------------------------------------------------------------------------------

Result<std::vector<std::pair<std::string, std::string>>> RangeBitmapReader::Describe() const {
  std::vector<std::pair<std::string, std::string>> facts;
  facts.emplace_back("version", std::to_string(version_));
  facts.emplace_back("rows", std::to_string(row_count_));
  facts.emplace_back("cardinality", std::to_string(cardinality_));
  PFI_ASSIGN_OR_RETURN(const Bitmap32* ebm, bsi_->Ebm());
  facts.emplace_back("nulls", std::to_string(row_count_ - ebm->Cardinality()));
  if (cardinality_ > 0) {
    auto format = [&](std::string_view key) {
      return FormatKey(spec_, reinterpret_cast<const uint8_t*>(key.data()), key.size());
    };
    facts.emplace_back("min", format(min_));
    facts.emplace_back("max", format(max_));
  }
  facts.emplace_back("dictionary chunks", std::to_string(dictionary_->chunk_count()));
  facts.emplace_back("bit slices", std::to_string(bsi_->slice_count()));
  return facts;
}

}  // namespace pyfileindex::index::range_bitmap
