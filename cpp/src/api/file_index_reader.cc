// FileIndexReader: the container header, lazily opened index readers, predicate evaluation.
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "api/boundary.h"
#include "api/row_type.h"
#include "container/container_format.h"
#include "index/index_type.h"
#include "pattern/leaf_pattern.h"
#include "pyfileindex/reader.h"
#include "sync/lazy_cell.h"

namespace pyfileindex {

namespace {

// Paimon's EmptyFileIndexReader: the writer saw no record, so no value can match.
FileIndexResult EmptyIndexAnswer(PredicateOp op) {
  switch (op) {
    case PredicateOp::kEqual:
    case PredicateOp::kIn:
    case PredicateOp::kIsNotNull:
    case PredicateOp::kLessThan:
    case PredicateOp::kLessOrEqual:
    case PredicateOp::kGreaterThan:
    case PredicateOp::kGreaterOrEqual:
    case PredicateOp::kStartsWith:
    case PredicateOp::kEndsWith:
    case PredicateOp::kContains:
    case PredicateOp::kLike: return FileIndexResult::Skip();
    default: return FileIndexResult::Remain();
  }
}

Status CheckLeafArity(const Predicate& leaf) {
  size_t want_min = 0, want_max = 0;
  switch (leaf.op) {
    case PredicateOp::kIsNull:
    case PredicateOp::kIsNotNull:
    case PredicateOp::kIsNaN:
    case PredicateOp::kIsNotNaN: want_min = want_max = 0; break;
    case PredicateOp::kBetween: want_min = want_max = 2; break;
    case PredicateOp::kIn:
    case PredicateOp::kNotIn: want_min = 0; want_max = SIZE_MAX; break;
    case PredicateOp::kLike:
    case PredicateOp::kNotLike: want_min = 1; want_max = 2; break;
    default: want_min = want_max = 1; break;
  }
  if (leaf.literals.size() < want_min || leaf.literals.size() > want_max) {
    return Status::InvalidArgument("predicate ", PredicateOpName(leaf.op),
                                   " on column '", leaf.column, "' takes ",
                                   want_min, " literal(s), got ",
                                   leaf.literals.size());
  }
  if (leaf.op != PredicateOp::kIn && leaf.op != PredicateOp::kNotIn) {
    for (const Literal& literal : leaf.literals) {
      if (literal.is_null()) {
        return Status::InvalidArgument("predicate on column '", leaf.column,
                                       "' compares with NULL; use IS NULL");
      }
    }
  }
  return Status::OK();
}

class ContainerReader final : public FileIndexReader {
 public:
  ContainerReader(io::ByteSpan bytes, std::vector<Field> fields, const OpenOptions& options,
                  std::shared_ptr<const void> keep_alive, std::vector<IndexEntry> entries)
      : bytes_(bytes),
        fields_(std::move(fields)),
        options_(options),
        keep_alive_(std::move(keep_alive)),
        entries_(std::move(entries)),
        slots_(entries_.size()) {}

  const std::vector<IndexEntry>& entries() const override { return entries_; }

  Result<FileIndexResult> Evaluate(const Predicate& predicate) const override {
    return api::CatchAll("FileIndexReader::Evaluate",
                         [&] { return EvaluateNode(predicate, /*depth=*/0); });
  }

  Result<FileIndexResult> EvaluateTopN(const TopN& top_n,
                                       const RowBitmap* selection) const override {
    return api::CatchAll("FileIndexReader::EvaluateTopN",
                         [&] { return EvaluateTopNUnguarded(top_n, selection); });
  }

  Result<std::vector<std::pair<std::string, std::string>>> Describe(
      const IndexEntry& entry) const override {
    return api::CatchAll("FileIndexReader::Describe", [&] { return DescribeUnguarded(entry); });
  }

  Result<std::optional<uint64_t>> Count(const Predicate& predicate,
                                        const RowBitmap* excluded) const override {
    return api::CatchAll("FileIndexReader::Count", [&]() -> Result<std::optional<uint64_t>> {
      PFI_ASSIGN_OR_RETURN(std::optional<RowBitmap> rows, ExactRows(predicate, /*depth=*/0));
      if (!rows) return std::optional<uint64_t>();
      if (excluded != nullptr) *rows -= *excluded;
      return std::optional<uint64_t>(rows->Cardinality());
    });
  }

  Result<std::optional<std::pair<Literal, Literal>>> MinMax(
      const std::string& column, const RowBitmap* selection) const override {
    using Answer = std::optional<std::pair<Literal, Literal>>;
    return api::CatchAll("FileIndexReader::MinMax", [&]() -> Result<Answer> {
      for (size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].column != column || entries_[i].index_type != "range-bitmap") continue;
        if (entries_[i].empty()) return Answer();  // the writer saw no value
        PFI_ASSIGN_OR_RETURN(const index::ColumnIndexReader* reader, ReaderAt(i));
        if (reader == nullptr) continue;
        Result<Answer> answer = reader->MinMax(selection);
        if (!answer.ok()) {
          return answer.status().WithContext("column '", column, "' index 'range-bitmap'");
        }
        return answer;
      }
      return Status::NotFound("no range-bitmap index on column '", column,
                              "' to tell its minimum and maximum");
    });
  }

 private:
  // The exact rows where `predicate` is TRUE, or nullopt when the indexes cannot tell them
  // exactly (FileIndexReader::Count). A SKIP from any index is exact: no row matches.
  Result<std::optional<RowBitmap>> ExactRows(const Predicate& predicate, int depth) const {
    using Rows = std::optional<RowBitmap>;
    if (!predicate.is_leaf()) {
      if (depth >= kMaxPredicateDepth) {
        return Status::InvalidArgument("predicate nests AND/OR deeper than ",
                                       kMaxPredicateDepth, " levels");
      }
      std::vector<RowBitmap> known;
      bool unknown = false;
      for (const auto& child : predicate.children) {
        if (child == nullptr) {
          return Status::InvalidArgument(PredicateOpName(predicate.op),
                                         " predicate has a null child");
        }
        PFI_ASSIGN_OR_RETURN(Rows rows, ExactRows(*child, depth + 1));
        if (!rows) {
          unknown = true;
          if (predicate.op == PredicateOp::kOr) return Rows();
          continue;
        }
        // AND with a child no row satisfies: nothing does, whatever the other children say.
        if (predicate.op == PredicateOp::kAnd && rows->IsEmpty()) return rows;
        known.push_back(std::move(*rows));
      }
      // An AND / OR without children answers REMAIN in Evaluate: not a count.
      if (unknown || known.empty()) return Rows();
      RowBitmap acc = std::move(known[0]);
      for (size_t i = 1; i < known.size(); ++i) {
        if (predicate.op == PredicateOp::kAnd) {
          acc &= known[i];
        } else {
          acc |= known[i];
        }
      }
      return Rows(std::move(acc));
    }
    PFI_RETURN_NOT_OK(CheckLeafArity(predicate));
    PFI_ASSIGN_OR_RETURN(std::optional<pattern::LikePattern> like, LeafPattern(predicate));
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].column != predicate.column) continue;
      if (entries_[i].empty()) {
        if (!EmptyIndexAnswer(predicate.op).remain()) return Rows(RowBitmap());
        continue;
      }
      PFI_ASSIGN_OR_RETURN(const index::ColumnIndexReader* reader, ReaderAt(i));
      if (reader == nullptr) continue;
      PFI_ASSIGN_OR_RETURN(FileIndexResult answer, VisitLeaf(*reader, i, predicate, like));
      if (!answer.remain()) return Rows(RowBitmap());
      if (!answer.is_rows() || !reader->ExactFor(predicate)) continue;
      RowBitmap rows = std::move(answer).TakeRows();
      if (predicate.op == PredicateOp::kNotEqual || predicate.op == PredicateOp::kNotIn) {
        // <> and NOT IN may keep the NULL rows (Java's bitmap flips the union): SQL never
        // matches them. They are taken out rather than the rows kept that are not null: the
        // null rows are few where the others may be every row of the file.
        PFI_ASSIGN_OR_RETURN(FileIndexResult nulls,
                             reader->Visit(*Predicate::Leaf(PredicateOp::kIsNull,
                                                            predicate.column)));
        if (nulls.is_rows()) {
          rows -= nulls.rows();
        } else if (nulls.remain()) {
          continue;  // the null rows are not known
        }
      }
      return Rows(std::move(rows));
    }
    return Rows();
  }

  Result<FileIndexResult> EvaluateNode(const Predicate& predicate, int depth) const {
    if (predicate.op == PredicateOp::kAnd || predicate.op == PredicateOp::kOr) {
      if (depth >= kMaxPredicateDepth) {
        return Status::InvalidArgument("predicate nests AND/OR deeper than ",
                                       kMaxPredicateDepth, " levels");
      }
      for (const auto& child : predicate.children) {
        if (child == nullptr) {
          return Status::InvalidArgument(PredicateOpName(predicate.op),
                                         " predicate has a null child");
        }
      }
    }
    if (predicate.op == PredicateOp::kAnd) {
      FileIndexResult acc = FileIndexResult::Remain();
      for (const auto& child : predicate.children) {
        PFI_ASSIGN_OR_RETURN(FileIndexResult r, EvaluateNode(*child, depth + 1));
        acc = acc.And(r);
        if (!acc.remain()) return acc;
      }
      return acc;
    }
    if (predicate.op == PredicateOp::kOr) {
      if (predicate.children.empty()) return FileIndexResult::Remain();
      PFI_ASSIGN_OR_RETURN(FileIndexResult acc, EvaluateNode(*predicate.children[0], depth + 1));
      for (size_t i = 1; i < predicate.children.size(); ++i) {
        PFI_ASSIGN_OR_RETURN(FileIndexResult r, EvaluateNode(*predicate.children[i], depth + 1));
        acc = acc.Or(r);
      }
      return acc;
    }
    PFI_RETURN_NOT_OK(CheckLeafArity(predicate));
    PFI_ASSIGN_OR_RETURN(std::optional<pattern::LikePattern> like, LeafPattern(predicate));
    FileIndexResult acc = FileIndexResult::Remain();
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].column != predicate.column) continue;
      FileIndexResult answer = FileIndexResult::Remain();
      if (entries_[i].empty()) {
        answer = EmptyIndexAnswer(predicate.op);
      } else {
        PFI_ASSIGN_OR_RETURN(const index::ColumnIndexReader* reader, ReaderAt(i));
        if (reader != nullptr) {
          PFI_ASSIGN_OR_RETURN(answer, VisitLeaf(*reader, i, predicate, like));
        }
      }
      acc = acc.And(answer);
      if (!acc.remain()) break;
    }
    return acc;
  }

  // One index's answer to a leaf: a LIKE-family leaf (its pattern made once per leaf, `like`)
  // goes to VisitPattern, any other to Visit. Errors name the column and the index.
  Result<FileIndexResult> VisitLeaf(const index::ColumnIndexReader& reader, size_t entry,
                                    const Predicate& leaf,
                                    const std::optional<pattern::LikePattern>& like) const {
    Result<FileIndexResult> visited =
        like ? reader.VisitPattern(*like, leaf.op == PredicateOp::kNotLike,
                                   options_.dictionary_scan_limit)
             : reader.Visit(leaf);
    if (!visited.ok()) {
      return visited.status().WithContext("column '", leaf.column, "' index '",
                                          entries_[entry].index_type, "'");
    }
    return visited;
  }

  // The pattern of a LIKE-family leaf, nullopt for other leaves; InvalidArgument on a column
  // typed other than CHAR/VARCHAR (a column absent from the row type answers REMAIN, as for
  // any leaf).
  Result<std::optional<pattern::LikePattern>> LeafPattern(const Predicate& leaf) const {
    if (!pattern::IsPatternOp(leaf.op)) return std::optional<pattern::LikePattern>();
    const DataType* type = ColumnType(leaf.column);
    if (type != nullptr && !type->IsString()) {
      return Status::InvalidArgument(PredicateOpName(leaf.op), " on column '", leaf.column,
                                     "' of type ", type->ToString(),
                                     ": string patterns need a CHAR or VARCHAR column");
    }
    PFI_ASSIGN_OR_RETURN(pattern::LikePattern like, pattern::PatternOfLeaf(leaf));
    return std::optional<pattern::LikePattern>(std::move(like));
  }

  Result<FileIndexResult> EvaluateTopNUnguarded(const TopN& top_n,
                                                const RowBitmap* selection) const {
    if (top_n.limit < 0) return Status::InvalidArgument("TopN limit must not be negative");
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].column != top_n.column || entries_[i].empty()) continue;
      PFI_ASSIGN_OR_RETURN(const index::ColumnIndexReader* reader, ReaderAt(i));
      if (reader == nullptr) continue;
      PFI_ASSIGN_OR_RETURN(FileIndexResult answer, reader->VisitTopN(top_n, selection));
      if (answer.kind() != FileIndexResult::Kind::kRemain) return answer;
    }
    return FileIndexResult::Remain();
  }

  Result<std::vector<std::pair<std::string, std::string>>> DescribeUnguarded(
      const IndexEntry& entry) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].column != entry.column || entries_[i].index_type != entry.index_type) {
        continue;
      }
      if (entries_[i].empty()) {
        return std::vector<std::pair<std::string, std::string>>{{"empty", "true"}};
      }
      PFI_ASSIGN_OR_RETURN(const index::ColumnIndexReader* reader, ReaderAt(i));
      if (reader == nullptr) {
        return Status::NotFound("cannot read index '", entry.index_type, "' on column '",
                                entry.column, "': unknown index type or column type");
      }
      return reader->Describe();
    }
    return Status::NotFound("no index '", entry.index_type, "' on column '", entry.column,
                            "'");
  }

  // One lazily opened reader per entry; nullptr when it cannot be read (unknown index type,
  // column absent from the row type): such an index answers REMAIN, as a missing one would.
  using Slot = sync::LazyCell<std::unique_ptr<index::ColumnIndexReader>>;

  const DataType* ColumnType(const std::string& column) const {
    for (const Field& field : fields_) {
      if (field.name == column) return &field.type;
    }
    const size_t bracket = column.find('[');
    if (bracket != std::string::npos && column.back() == ']') {
      const std::string map_name = column.substr(0, bracket);
      for (const Field& field : fields_) {
        if (field.name == map_name && field.type.root == TypeRoot::kMap &&
            field.type.children.size() == 2) {
          return &field.type.children[1];
        }
      }
    }
    return nullptr;
  }

  Result<const index::ColumnIndexReader*> ReaderAt(size_t i) const {
    using Opened = std::unique_ptr<index::ColumnIndexReader>;
    PFI_ASSIGN_OR_RETURN(const Opened* opened, slots_[i].Get([&]() -> Result<Opened> {
      const IndexEntry& entry = entries_[i];
      const index::IndexType* type = index::FindIndexType(entry.index_type);
      const DataType* column_type = ColumnType(entry.column);
      if (type == nullptr || column_type == nullptr || !type->CheckType(*column_type).ok()) {
        return Opened();
      }
      io::ByteSpan payload(bytes_.data() + entry.offset, static_cast<size_t>(entry.length));
      auto reader = type->OpenReader(*column_type, payload);
      if (!reader.ok()) {
        return reader.status().WithContext("column '", entry.column, "' index '",
                                           entry.index_type, "'");
      }
      const int64_t stored = (*reader)->StoredRowCount();
      if (options_.row_count >= 0 && stored >= 0 && stored != options_.row_count) {
        return Status::Corrupt("column '", entry.column, "' index '", entry.index_type,
                               "': stores a row count of ", stored, ", the data file has ",
                               options_.row_count, " rows");
      }
      return Opened(std::move(reader).ValueOrDie());
    }));
    return static_cast<const index::ColumnIndexReader*>(opened->get());
  }

  io::ByteSpan bytes_;
  std::vector<Field> fields_;
  OpenOptions options_;
  std::shared_ptr<const void> keep_alive_;
  std::vector<IndexEntry> entries_;
  mutable std::vector<Slot> slots_;
};

}  // namespace

Result<std::shared_ptr<FileIndexReader>> FileIndexReader::Open(
    const uint8_t* data, size_t size, std::vector<Field> fields,
    std::shared_ptr<const void> keep_alive) {
  return Open(data, size, std::move(fields), OpenOptions(), std::move(keep_alive));
}

Result<std::shared_ptr<FileIndexReader>> FileIndexReader::Open(
    const uint8_t* data, size_t size, std::vector<Field> fields, const OpenOptions& options,
    std::shared_ptr<const void> keep_alive) {
  return api::CatchAll("FileIndexReader::Open",
                       [&]() -> Result<std::shared_ptr<FileIndexReader>> {
    if (data == nullptr && size > 0) return Status::InvalidArgument("null data with a size");
    if (options.dictionary_scan_limit < 0) {
      return Status::InvalidArgument("dictionary scan limit ", options.dictionary_scan_limit,
                                     " is negative");
    }
    if (options.row_count < -1) {
      return Status::InvalidArgument("row count ", options.row_count,
                                     " is negative (-1: unknown)");
    }
    PFI_RETURN_NOT_OK(api::CheckUniqueNames(fields));
    io::ByteSpan bytes(data, size);
    PFI_ASSIGN_OR_RETURN(std::vector<IndexEntry> entries, container::ReadContainerHeader(bytes));
    return std::shared_ptr<FileIndexReader>(std::make_shared<ContainerReader>(
        bytes, std::move(fields), options, std::move(keep_alive), std::move(entries)));
  });
}

}  // namespace pyfileindex
