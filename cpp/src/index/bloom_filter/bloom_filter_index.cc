#include "index/bloom_filter/bloom_filter_index.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "index/bloom_filter/bloom_probes.h"
#include "index/bloom_filter/bloom_shape.h"
#include "index/bloom_filter/fast_hash.h"
#include "index/bloom_filter/recent_hashes.h"
#include "index/bloom_filter/recent_values.h"
#include "io/bit_count.h"
#include "io/endian.h"

namespace pyfileindex::index {
namespace {

using bloom_filter::BloomProbes;
using bloom_filter::BloomShape;
using bloom_filter::FastHash;
using bloom_filter::RecentHashes;
using bloom_filter::RecentValues;

constexpr int32_t kDefaultItems = 1000000;
constexpr double kDefaultFpp = 0.1;
constexpr size_t kHeaderBytes = 4;  // int32 BE number of hash functions

// Java computes numBits = (length - 4) * 8 in an int; longer bit sets cannot come from Java.
constexpr size_t kMaxBitSetBytes = (size_t{1} << 28) - 1;

class BloomFilterWriter final : public ColumnIndexWriter {
 public:
  BloomFilterWriter(FastHash hash, BloomShape shape)
      : hash_(std::move(hash)),
        probes_(static_cast<uint32_t>(shape.num_bits), shape.num_hash_functions),
        bytes_(kHeaderBytes + static_cast<size_t>(shape.num_bytes()), 0) {
    io::StoreU32BE(bytes_.data(), static_cast<uint32_t>(shape.num_hash_functions));
    const int table_bits = RecentValues::MaxSlotBitsFor(static_cast<size_t>(shape.num_bytes()));
    if (hash_.kind() == FastHash::Kind::kBytes && table_bits > 0) {
      recent_values_ = std::make_unique<RecentValues>(table_bits);
    }
  }

  // Strings are hashed from views made a block at a time (in cache) from Arrow's offsets:
  // a view per row of the whole batch would be written to memory and read back.
  bool TakesStringOffsets() const override { return true; }
  // Dictionary-encoded strings are taken as they are: each used value is hashed once.
  bool TakesDictionaries() const override { return hash_.kind() == FastHash::Kind::kBytes; }

  Status Write(const column::ColumnBatch& batch) override {
    if (serialized_) return Status::Internal("bloom-filter: Write after Serialize");
    // Hashes are made a block at a time and their bits set in a separate tight loop, so the
    // hashing and the read-modify-writes to random lines of the bit set overlap instead of
    // stalling each other.
    uint8_t* const bits = bytes_.data() + kHeaderBytes;
    return hash_.ForEachHashBlock(
        batch,
        [&](uint64_t* hashes, size_t count) {
          probes_.AddMany(hashes, recent_.KeepNew(hashes, count), bits);
        },
        recent_values_.get());
  }

  Result<std::vector<uint8_t>> Serialize() override {
    if (serialized_) return Status::Internal("bloom-filter: Serialize called twice");
    serialized_ = true;
    return std::move(bytes_);  // a default filter is 599071 bytes: hand it over, no copy
  }

 private:
  FastHash hash_;
  BloomProbes probes_;
  RecentHashes recent_;
  // Byte values only, and not for tiny filters: skips repeated strings before they are hashed.
  std::unique_ptr<RecentValues> recent_values_;
  std::vector<uint8_t> bytes_;  // the whole payload: header, then the bit set
  bool serialized_ = false;
};

class BloomFilterReader final : public ColumnIndexReader {
 public:
  BloomFilterReader(FastHash hash, int32_t num_hash_functions, ByteSpan bits)
      : hash_(std::move(hash)),
        probes_(static_cast<uint32_t>(bits.size() * 8), num_hash_functions),
        bits_(bits) {}

  Result<FileIndexResult> Visit(const Predicate& leaf) const override {
    switch (leaf.op) {
      case PredicateOp::kEqual: {
        PFI_ASSIGN_OR_RETURN(bool maybe, MightContain(leaf.literals[0]));
        return maybe ? FileIndexResult::Remain() : FileIndexResult::Skip();
      }
      case PredicateOp::kIn: {
        // Java ORs `=` over the list. Every literal is checked, so a bad one is always reported.
        // An empty list matches no row at all: SKIP.
        bool maybe = false;
        for (const Literal& literal : leaf.literals) {
          PFI_ASSIGN_OR_RETURN(bool one, MightContain(literal));
          maybe = maybe || one;
        }
        return maybe ? FileIndexResult::Remain() : FileIndexResult::Skip();
      }
      case PredicateOp::kNotEqual:
      case PredicateOp::kLessThan:
      case PredicateOp::kLessOrEqual:
      case PredicateOp::kGreaterThan:
      case PredicateOp::kGreaterOrEqual:
        PFI_RETURN_NOT_OK(CheckLiterals(leaf));
        return FileIndexResult::Remain();
      case PredicateOp::kBetween:
        PFI_RETURN_NOT_OK(CheckLiterals(leaf));
        return FileIndexResult::Remain();
      case PredicateOp::kNotIn:
        PFI_RETURN_NOT_OK(CheckLiterals(leaf));
        return FileIndexResult::Remain();
      case PredicateOp::kIsNaN: {
        // Every NaN bit pattern hashes as the canonical NaN (floatToIntBits / doubleToLongBits),
        // so a filter without the canonical NaN holds no NaN row: SKIP is exact.
        if (hash_.kind() != FastHash::Kind::kFloat && hash_.kind() != FastHash::Kind::kDouble) {
          return FileIndexResult::Remain();
        }
        PFI_ASSIGN_OR_RETURN(
            bool maybe, MightContain(Literal::Double(std::numeric_limits<double>::quiet_NaN())));
        return maybe ? FileIndexResult::Remain() : FileIndexResult::Skip();
      }
      case PredicateOp::kIsNull:
      case PredicateOp::kIsNotNull:
      case PredicateOp::kStartsWith:
      case PredicateOp::kEndsWith:
      case PredicateOp::kContains:
      case PredicateOp::kLike:
      case PredicateOp::kNotLike:
      case PredicateOp::kIsNotNaN:
        return FileIndexResult::Remain();
      case PredicateOp::kAnd:
      case PredicateOp::kOr:
        break;
    }
    return Status::InvalidArgument("bloom-filter: Visit needs a leaf predicate");
  }

  Result<std::vector<std::pair<std::string, std::string>>> Describe() const override {
    const uint64_t bits_set = io::CountSetBits(bits_.data(), bits_.size());
    const double fill = static_cast<double>(bits_set) / static_cast<double>(probes_.num_bits());
    char fill_text[32];
    std::snprintf(fill_text, sizeof fill_text, "%.6f", fill);
    // With fill ratio f and k probes, an absent value passes all probes with probability f^k.
    char fpp_text[32];
    std::snprintf(fpp_text, sizeof fpp_text, "%.6g", std::pow(fill, probes_.num_hash_functions()));
    return std::vector<std::pair<std::string, std::string>>{
        {"num_hash_functions", std::to_string(probes_.num_hash_functions())},
        {"num_bits", std::to_string(probes_.num_bits())},
        {"bits_set", std::to_string(bits_set)},
        {"fill_ratio", fill_text},
        {"estimated_fpp", fpp_text},
    };
  }

 private:
  // False only when the literal is certainly absent. A NULL literal: Java answers REMAIN.
  Result<bool> MightContain(const Literal& literal) const {
    if (literal.is_null()) return true;
    PFI_ASSIGN_OR_RETURN(std::optional<uint64_t> hash, hash_.HashLiteral(literal));
    if (!hash.has_value()) return false;  // no value of the column type can equal it
    return probes_.MightContain(*hash, bits_.data());
  }

  // Operators the filter cannot answer still reject literals of the wrong kind.
  Status CheckLiterals(const Predicate& leaf) const {
    for (const Literal& literal : leaf.literals) {
      if (literal.is_null()) continue;
      PFI_RETURN_NOT_OK(hash_.HashLiteral(literal).status());
    }
    return Status::OK();
  }

  FastHash hash_;
  BloomProbes probes_;
  // The bit set (header stripped), borrowed like every reader's payload: a point lookup
  // probes a few words, and copying the whole set would cost far more than the probes.
  ByteSpan bits_;
};

class BloomFilterIndexTypeImpl final : public IndexType {
 public:
  std::string_view name() const override { return "bloom-filter"; }

  std::vector<std::string_view> OptionNames() const override { return {"items", "fpp"}; }

  Status CheckType(const DataType& type) const override { return FastHash::For(type).status(); }

  Result<std::unique_ptr<ColumnIndexWriter>> MakeWriter(const DataType& type,
                                                        const Options& options) const override {
    PFI_ASSIGN_OR_RETURN(FastHash hash, FastHash::For(type));
    PFI_ASSIGN_OR_RETURN(int64_t items, options.GetInt("items", kDefaultItems));
    if (items < std::numeric_limits<int32_t>::min() ||
        items > std::numeric_limits<int32_t>::max()) {
      return Status::InvalidArgument("bloom-filter option 'items' = ", items,
                                     " does not fit a Java int");
    }
    PFI_ASSIGN_OR_RETURN(double fpp, options.GetDouble("fpp", kDefaultFpp));
    PFI_ASSIGN_OR_RETURN(BloomShape shape,
                         bloom_filter::ComputeBloomShape(static_cast<int32_t>(items), fpp));
    return std::unique_ptr<ColumnIndexWriter>(new BloomFilterWriter(std::move(hash), shape));
  }

  Result<std::unique_ptr<ColumnIndexReader>> OpenReader(const DataType& type,
                                                        ByteSpan payload) const override {
    PFI_ASSIGN_OR_RETURN(FastHash hash, FastHash::For(type));
    if (payload.size() < kHeaderBytes + 1 || payload.data() == nullptr) {
      return Status::Corrupt("bloom-filter: payload of ", payload.size(),
                             " bytes is too short (needs a 4-byte header and at least one bit-set "
                             "byte)");
    }
    const size_t bit_set_bytes = payload.size() - kHeaderBytes;
    if (bit_set_bytes > kMaxBitSetBytes) {
      return Status::Corrupt("bloom-filter: bit set of ", bit_set_bytes,
                             " bytes is larger than any Java bloom filter");
    }
    // Java reassembles k from signed bytes: (b0 << 24) + (b1 << 16) + (b2 << 8) + b3.
    const auto sb = [&payload](size_t i) { return static_cast<int32_t>(
        static_cast<int8_t>(payload[i])); };
    const int32_t k = static_cast<int32_t>(
        static_cast<uint32_t>(sb(0)) * (1u << 24) + static_cast<uint32_t>(sb(1)) * (1u << 16) +
        static_cast<uint32_t>(sb(2)) * (1u << 8) + static_cast<uint32_t>(sb(3)));
    const int64_t num_bits = static_cast<int64_t>(bit_set_bytes) * 8;
    if (k < 1 || k > num_bits || k > bloom_filter::MaxJavaHashFunctions()) {
      return Status::Corrupt("bloom-filter: ", k, " hash functions for ", num_bits,
                             " bits is not a filter Java writes (it uses 1 to ",
                             bloom_filter::MaxJavaHashFunctions(), ")");
    }
    const ByteSpan bits(payload.data() + kHeaderBytes, bit_set_bytes);
    return std::unique_ptr<ColumnIndexReader>(new BloomFilterReader(std::move(hash), k, bits));
  }
};

}  // namespace

const IndexType& BloomFilterIndexType() {
  static const BloomFilterIndexTypeImpl instance;
  return instance;
}

}  // namespace pyfileindex::index
