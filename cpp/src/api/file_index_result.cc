#include "pyfileindex/file_index_result.h"

namespace pyfileindex {

FileIndexResult FileIndexResult::Rows(RowBitmap rows) {
  FileIndexResult result(Kind::kRows);
  // Not a const object: TakeRows may move it out once no other result shares it.
  result.rows_ = std::make_shared<RowBitmap>(std::move(rows));
  return result;
}

RowBitmap FileIndexResult::TakeRows() && {
  std::shared_ptr<const RowBitmap> held = std::move(rows_);
  kind_ = Kind::kRemain;
  if (held.use_count() == 1) return std::move(const_cast<RowBitmap&>(*held));
  return *held;
}

bool FileIndexResult::remain() const {
  switch (kind_) {
    case Kind::kRemain: return true;
    case Kind::kSkip: return false;
    case Kind::kRows: return !rows_->IsEmpty();
  }
  return true;
}

// Paimon: REMAIN.and(x) = x; SKIP.and(x) = SKIP; rows.and(rows) = intersection;
// rows.and(other) = rows if other remains, else SKIP.
FileIndexResult FileIndexResult::And(const FileIndexResult& other) const {
  if (kind_ == Kind::kRemain) return other;
  if (kind_ == Kind::kSkip) return *this;
  if (other.kind_ == Kind::kRows) {
    RowBitmap both = *rows_;
    both &= *other.rows_;
    return Rows(std::move(both));
  }
  return other.remain() ? *this : Skip();
}

// Paimon: REMAIN.or(x) = REMAIN; SKIP.or(x) = x; rows.or(rows) = union;
// rows.or(other) = REMAIN if other remains, else rows.
FileIndexResult FileIndexResult::Or(const FileIndexResult& other) const {
  if (kind_ == Kind::kRemain) return *this;
  if (kind_ == Kind::kSkip) return other;
  if (other.kind_ == Kind::kRows) {
    RowBitmap either = *rows_;
    either |= *other.rows_;
    return Rows(std::move(either));
  }
  return other.remain() ? Remain() : *this;
}

}  // namespace pyfileindex
