#include "index/bsi/bsi_index.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "index/bsi/bit_slice_index.h"
#include "index/bsi/bsi_value.h"
#include "index/bsi/tuning.h"
#include "io/byte_reader.h"
#include "io/endian.h"
#include "roaring/bitmap32.h"

namespace pyfileindex::index {
namespace {

using bsi::BitSliceIndex;
using bsi::BitSliceIndexBuilder;
using bsi::CompareOp;
using bsi::LiteralKey;
using roaring::Bitmap32;

constexpr int8_t kVersion = 1;
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxRows = std::numeric_limits<int32_t>::max();  // Java int row numbers

class BsiWriter final : public ColumnIndexWriter {
 public:
  BsiWriter(DataType type, keys::PhysicalKey key) : type_(std::move(type)), key_(key) {}

  Status Write(const column::ColumnBatch& batch) override {
    if (serialized_) return Status::InvalidArgument("bsi: Write after Serialize");
    if (batch.length < 0 || batch.length > kMaxRows - row_count_) {
      return Status::InvalidArgument("bsi: more than ", kMaxRows,
                                     " rows in one data file");
    }
    int64_t keys[bsi::tuning::kKeysPerBatch];
    for (int64_t begin = 0; begin < batch.length; begin += bsi::tuning::kKeysPerBatch) {
      const int64_t count = std::min(bsi::tuning::kKeysPerBatch, batch.length - begin);
      PFI_RETURN_NOT_OK(bsi::MapBatch(type_, key_, batch, begin, count, keys));
      for (int64_t i = 0; i < count; ++i) {
        const uint32_t row = static_cast<uint32_t>(row_count_ + begin + i);
        if (batch.validity != nullptr && !batch.IsValid(begin + i)) continue;
        const int64_t key = keys[i];
        if (key >= 0) {
          positive_.Append(row, static_cast<uint64_t>(key));
        } else if (key != kLongMin) {
          negative_.Append(row, static_cast<uint64_t>(-key));
        } else {
          // |Long.MIN_VALUE| has no long; Java's writer throws on it too.
          return Status::InvalidArgument(
              "bsi: the value -9223372036854775808 (Long.MIN_VALUE) cannot be stored in a BSI "
              "index (column type ", type_.ToString(), ", row ", row, ")");
        }
      }
    }
    row_count_ += batch.length;
    return Status::OK();
  }

  Result<std::vector<uint8_t>> Serialize() override {
    PFI_ASSIGN_OR_RETURN(size_t size, PrepareSerialize());
    std::vector<uint8_t> out(size);
    SerializeTo(out.data());
    return out;
  }

  // In place: version, row count, then each side behind its presence flag.
  Result<size_t> PrepareSerialize() override {
    if (serialized_) return Status::Internal("bsi: Serialize called twice");
    serialized_ = true;  // the bitmaps are consumed by SerializeTo
    size_t size = 1 + 4 + 1 + 1;  // version, row count, two presence flags
    if (!positive_.empty()) size += positive_.PrepareSerialize();
    if (!negative_.empty()) size += negative_.PrepareSerialize();
    pending_ = true;
    return size;
  }

  void SerializeTo(uint8_t* out) override {
    if (!pending_) return;  // only once, after PrepareSerialize
    pending_ = false;
    *out++ = static_cast<uint8_t>(kVersion);
    io::StoreU32BE(out, static_cast<uint32_t>(row_count_));
    out += 4;
    for (BitSliceIndexBuilder* side : {&positive_, &negative_}) {
      const bool present = !side->empty();
      *out++ = present ? 1 : 0;
      if (present) out = side->SerializeTo(out);
    }
  }

 private:
  DataType type_;
  keys::PhysicalKey key_;
  int64_t row_count_ = 0;
  BitSliceIndexBuilder positive_;
  BitSliceIndexBuilder negative_;
  bool serialized_ = false;  // PrepareSerialize ran: the payload can be written once
  bool pending_ = false;     // between PrepareSerialize and SerializeTo
};

class BsiReader final : public ColumnIndexReader {
 public:
  BsiReader(DataType type, keys::PhysicalKey key, int32_t row_count, BitSliceIndex positive,
            BitSliceIndex negative)
      : type_(std::move(type)),
        key_(key),
        row_count_(row_count),
        positive_(std::move(positive)),
        negative_(std::move(negative)),
        non_null_(positive_.existence() | negative_.existence()) {}

  Result<FileIndexResult> Visit(const Predicate& leaf) const override {
    switch (leaf.op) {
      case PredicateOp::kIsNull: {
        return Rows(Bitmap32::Range(0, static_cast<uint64_t>(row_count_)) - non_null_);
      }
      case PredicateOp::kIsNotNull:
        return Rows(non_null_);
      case PredicateOp::kEqual:
      case PredicateOp::kIn:
      case PredicateOp::kNotEqual:
      case PredicateOp::kNotIn: {
        std::vector<LiteralKey> keys;
        keys.reserve(leaf.literals.size());
        bool has_null = false;
        for (const Literal& literal : leaf.literals) {
          if (literal.is_null()) {
            has_null = true;
            continue;
          }
          PFI_ASSIGN_OR_RETURN(LiteralKey key, MapLiteral(literal));
          keys.push_back(key);
        }
        // Java fails with a NullPointerException on a NULL literal; REMAIN is always safe.
        if (has_null) return FileIndexResult::Remain();
        const bool negated = leaf.op == PredicateOp::kNotEqual || leaf.op == PredicateOp::kNotIn;
        return Rows(negated ? NotIn(keys) : In(keys));
      }
      case PredicateOp::kLessThan:
      case PredicateOp::kLessOrEqual:
      case PredicateOp::kGreaterThan:
      case PredicateOp::kGreaterOrEqual: {
        if (leaf.literals[0].is_null()) return FileIndexResult::Remain();
        PFI_ASSIGN_OR_RETURN(LiteralKey key, MapLiteral(leaf.literals[0]));
        return Rows(Range(leaf.op, key));
      }
      case PredicateOp::kBetween: {
        if (leaf.literals[0].is_null() || leaf.literals[1].is_null()) {
          return FileIndexResult::Remain();
        }
        PFI_ASSIGN_OR_RETURN(LiteralKey low, MapLiteral(leaf.literals[0]));
        PFI_ASSIGN_OR_RETURN(LiteralKey high, MapLiteral(leaf.literals[1]));
        return Rows(Range(PredicateOp::kGreaterOrEqual, low) &
                    Range(PredicateOp::kLessOrEqual, high));
      }
      case PredicateOp::kStartsWith:
      case PredicateOp::kEndsWith:
      case PredicateOp::kContains:
      case PredicateOp::kLike:
      case PredicateOp::kNotLike:
        return FileIndexResult::Remain();  // no dictionary of values: patterns cannot be told
      case PredicateOp::kIsNaN:
      case PredicateOp::kIsNotNaN:  // bsi takes no FLOAT / DOUBLE column
        return FileIndexResult::Remain();
      case PredicateOp::kAnd:
      case PredicateOp::kOr:
        break;
    }
    return Status::InvalidArgument("bsi: Visit needs a leaf predicate");
  }

  // Every answer is the exact row set, except where keys drop nanoseconds (a key stands for a
  // range of values) and for NULL literals (answered REMAIN).
  bool ExactFor(const Predicate& leaf) const override {
    if (leaf.op == PredicateOp::kIsNull || leaf.op == PredicateOp::kIsNotNull) return true;
    if (key_.drops_nanos) return false;
    for (const Literal& literal : leaf.literals) {
      if (literal.is_null()) return false;
    }
    return leaf.is_leaf() && leaf.op != PredicateOp::kIsNaN && leaf.op != PredicateOp::kIsNotNaN;
  }

  int64_t StoredRowCount() const override { return row_count_; }

  Result<std::vector<std::pair<std::string, std::string>>> Describe() const override {
    std::vector<std::pair<std::string, std::string>> facts = {
        {"version", std::to_string(kVersion)},
        {"row_count", std::to_string(row_count_)},
        {"non_null_count", std::to_string(non_null_.Cardinality())},
        {"null_count",
         std::to_string(static_cast<uint64_t>(row_count_) - non_null_.Cardinality())},
    };
    auto describe_side = [&facts](const char* side, const BitSliceIndex& bsi) {
      const std::string prefix = side;
      facts.emplace_back(prefix + ".count", std::to_string(bsi.existence().Cardinality()));
      facts.emplace_back(prefix + ".min", std::to_string(bsi.min()));
      facts.emplace_back(prefix + ".max", std::to_string(bsi.max()));
      facts.emplace_back(prefix + ".slices", std::to_string(bsi.slice_count()));
    };
    describe_side("positive", positive_);
    describe_side("negative", negative_);
    return facts;
  }

 private:
  static FileIndexResult Rows(Bitmap32 rows) {
    return FileIndexResult::Rows(RowBitmap(std::move(rows)));
  }

  Result<LiteralKey> MapLiteral(const Literal& literal) const {
    return bsi::MapLiteral(type_, key_, literal);
  }

  // ---- Java's per-key answers over the two sides (Long.MIN_VALUE handled as in Java 2.0) ----

  Bitmap32 KeyEq(int64_t v) const {
    if (v == kLongMin) return Bitmap32();  // the writer cannot store it
    if (v < 0) return negative_.Compare(CompareOp::kEq, -v);
    return positive_.Compare(CompareOp::kEq, v);
  }
  Bitmap32 KeyLt(int64_t v) const {
    if (v == kLongMin) return Bitmap32();
    if (v < 0) return negative_.Compare(CompareOp::kGt, -v);
    return positive_.Compare(CompareOp::kLt, v) | negative_.existence();
  }
  Bitmap32 KeyLte(int64_t v) const {
    if (v == kLongMin) return Bitmap32();
    if (v < 0) return negative_.Compare(CompareOp::kGte, -v);
    return positive_.Compare(CompareOp::kLte, v) | negative_.existence();
  }
  Bitmap32 KeyGt(int64_t v) const {
    if (v == kLongMin) return non_null_;
    if (v < 0) return positive_.existence() | negative_.Compare(CompareOp::kLt, -v);
    return positive_.Compare(CompareOp::kGt, v);
  }
  Bitmap32 KeyGte(int64_t v) const {
    if (v == kLongMin) return non_null_;
    if (v < 0) return positive_.existence() | negative_.Compare(CompareOp::kLte, -v);
    return positive_.Compare(CompareOp::kGte, v);
  }

  // ---- literals placed between keys ------------------------------------------------------

  // Rows that may equal the literal.
  Bitmap32 EqualRows(const LiteralKey& key) const {
    if (key.position != LiteralKey::Position::kAt) return Bitmap32();
    // A truncated key covers the literal even when the literal has sub-key digits.
    if (!key.exact && !key_.drops_nanos) return Bitmap32();
    return KeyEq(key.floor);
  }

  Bitmap32 In(const std::vector<LiteralKey>& keys) const {
    std::vector<Bitmap32> matches;
    matches.reserve(keys.size());
    for (const LiteralKey& key : keys) {
      Bitmap32 rows = EqualRows(key);
      if (!rows.IsEmpty()) matches.push_back(std::move(rows));
    }
    return Bitmap32::FastUnion(matches);
  }

  Bitmap32 NotIn(const std::vector<LiteralKey>& keys) const {
    // Truncated keys cannot prove a value differs from the literal (Java drops such rows).
    if (key_.drops_nanos) return non_null_;
    return non_null_ - In(keys);
  }

  // Rows that may satisfy `value op literal` for a range operator.
  Bitmap32 Range(PredicateOp op, const LiteralKey& key) const {
    const bool less = op == PredicateOp::kLessThan || op == PredicateOp::kLessOrEqual;
    if (key.position == LiteralKey::Position::kBelowAll) return less ? Bitmap32() : non_null_;
    if (key.position == LiteralKey::Position::kAboveAll) return less ? non_null_ : Bitmap32();
    const int64_t f = key.floor;
    switch (op) {
      case PredicateOp::kLessThan:
        // v < literal: for an inexact literal (floor < literal), v = floor qualifies too.
        return key.exact ? KeyLt(f) : KeyLte(f);
      case PredicateOp::kLessOrEqual:
        return KeyLte(f);
      case PredicateOp::kGreaterThan:
        // A truncated key f holds values up to f + 999 ns: they may exceed the literal unless
        // the literal is the last nanosecond of f.
        if (key_.drops_nanos) return key.unit_end ? KeyGt(f) : KeyGte(f);
        return KeyGt(f);
      case PredicateOp::kGreaterOrEqual:
        if (key_.drops_nanos) return KeyGte(f);
        return key.exact ? KeyGte(f) : KeyGt(f);
      default:
        return Bitmap32();
    }
  }

  DataType type_;
  keys::PhysicalKey key_;
  int32_t row_count_;
  BitSliceIndex positive_;
  BitSliceIndex negative_;
  Bitmap32 non_null_;
};

class BsiIndexTypeImpl final : public IndexType {
 public:
  std::string_view name() const override { return "bsi"; }

  std::vector<std::string_view> OptionNames() const override { return {}; }

  Status CheckType(const DataType& type) const override { return bsi::BsiKeyFor(type).status(); }

  Result<std::unique_ptr<ColumnIndexWriter>> MakeWriter(const DataType& type,
                                                        const Options& options) const override {
    (void)options;  // the BSI index has no options
    PFI_ASSIGN_OR_RETURN(keys::PhysicalKey key, bsi::BsiKeyFor(type));
    return std::unique_ptr<ColumnIndexWriter>(new BsiWriter(type, key));
  }

  Result<std::unique_ptr<ColumnIndexReader>> OpenReader(const DataType& type,
                                                        ByteSpan payload) const override {
    PFI_ASSIGN_OR_RETURN(keys::PhysicalKey key, bsi::BsiKeyFor(type));
    if (payload.data() == nullptr && payload.size() != 0) {
      return Status::Corrupt("bsi: null payload");
    }
    io::ByteReader reader(payload.data(), payload.size());
    PFI_ASSIGN_OR_RETURN(int8_t version, reader.ReadI8("bsi index version"));
    if (version > kVersion) {
      return Status::NotSupported("bsi: index version ", version,
                                  " is newer than the supported version 1");
    }
    PFI_ASSIGN_OR_RETURN(int32_t row_count, reader.ReadI32BE("bsi row count"));
    if (row_count < 0) {
      return Status::Corrupt("bsi: negative row count ", row_count);
    }
    BitSliceIndex positive;
    BitSliceIndex negative;
    PFI_ASSIGN_OR_RETURN(bool has_positive, reader.ReadBool("bsi has-positive flag"));
    if (has_positive) {
      PFI_ASSIGN_OR_RETURN(positive, BitSliceIndex::Read(&reader));
    }
    PFI_ASSIGN_OR_RETURN(bool has_negative, reader.ReadBool("bsi has-negative flag"));
    if (has_negative) {
      PFI_ASSIGN_OR_RETURN(negative, BitSliceIndex::Read(&reader));
    }
    if (!reader.AtEnd()) {
      return Status::Corrupt("bsi: ", reader.remaining(),
                             " unexpected bytes after the index");
    }
    // Rows must lie in [0, row count) and be on one side only.
    for (const BitSliceIndex* side : {&positive, &negative}) {
      if (!side->existence().IsEmpty() &&
          side->existence().Maximum() >= static_cast<uint32_t>(row_count)) {
        return Status::Corrupt("bsi: row ", side->existence().Maximum(),
                               " is beyond the row count ", row_count);
      }
    }
    if (positive.existence().AndCardinality(negative.existence()) != 0) {
      return Status::Corrupt("bsi: a row is both positive and negative");
    }
    return std::unique_ptr<ColumnIndexReader>(new BsiReader(
        type, key, row_count, std::move(positive), std::move(negative)));
  }
};

}  // namespace

const IndexType& BsiIndexType() {
  static const BsiIndexTypeImpl instance;
  return instance;
}

}  // namespace pyfileindex::index
