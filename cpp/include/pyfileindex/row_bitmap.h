/// @file
/// A set of row positions (0-based, < 2^32), backed by a (private) Roaring bitmap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "pyfileindex/export.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

namespace roaring {
class Bitmap32;  // internal; no CRoaring type appears in the public API
}

/// The rows an index selects, as a set of 0-based row positions of the data file.
///
/// Read it as ranges for a format reader's row selection (ToRanges), iterate it in ascending
/// order (`for (uint32_t row : bitmap)`, ForEach), or copy it out (ToVector, ToArray).
///
/// Thread safety: like a standard container: const methods may run from many threads at once;
/// a bitmap being modified must not be read concurrently.
class PYFILEINDEX_EXPORT RowBitmap {
 public:
  /// Iterates the rows in ascending order. Reads the bitmap in batches (no allocation); the
  /// bitmap must outlive the iterator and stay unmodified while it is in use. Copies iterate
  /// independently.
  class PYFILEINDEX_EXPORT const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const uint32_t*;
    using reference = uint32_t;

    /// The end iterator.
    const_iterator() = default;

    /// The current row.
    uint32_t operator*() const { return batch_[position_]; }
    /// Advances to the next row (or to the end).
    const_iterator& operator++() {
      if (++position_ == count_) Refill(uint64_t{batch_[position_ - 1]} + 1);
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    /// Equal when both are at the end, or at the same row of the same bitmap.
    bool operator==(const const_iterator& other) const {
      if (at_end() || other.at_end()) return at_end() && other.at_end();
      return bitmap_ == other.bitmap_ && **this == *other;
    }
    bool operator!=(const const_iterator& other) const { return !(*this == other); }

   private:
    friend class RowBitmap;
    static constexpr uint32_t kBatch = 64;

    explicit const_iterator(const RowBitmap* bitmap) : bitmap_(bitmap) { Refill(0); }
    bool at_end() const { return position_ >= count_; }
    // Loads the next batch of rows >= `start`; becomes the end iterator when there is none.
    void Refill(uint64_t start);

    const RowBitmap* bitmap_ = nullptr;
    uint32_t position_ = 0;
    uint32_t count_ = 0;
    uint32_t batch_[kBatch] = {};
  };

  /// The empty set.
  RowBitmap();
  ~RowBitmap();
  RowBitmap(const RowBitmap& other);
  RowBitmap& operator=(const RowBitmap& other);
  RowBitmap(RowBitmap&& other) noexcept;
  RowBitmap& operator=(RowBitmap&& other) noexcept;

  /// The rows [begin, end) (end is clamped to 2^32).
  static RowBitmap FromRange(uint64_t begin, uint64_t end);
  /// The rows of an ascending array.
  static RowBitmap FromSorted(const uint32_t* rows, size_t count);
  /// The rows of an array in any order; duplicates are fine.
  static RowBitmap FromRows(const uint32_t* rows, size_t count);
  /// Reads the portable Roaring format (what Paimon writes); Corrupt on truncated or damaged
  /// bytes. Copies what it needs: `data` may be freed afterwards.
  static Result<RowBitmap> Deserialize(const uint8_t* data, size_t size);

  /// Number of rows in the set.
  uint64_t Cardinality() const;
  /// True when the set has no row.
  bool IsEmpty() const;
  /// Whether `row` is in the set.
  bool Contains(uint32_t row) const;

  /// Adds one row.
  void Add(uint32_t row);
  /// In-place intersection, union and difference.
  RowBitmap& operator&=(const RowBitmap& other);
  RowBitmap& operator|=(const RowBitmap& other);
  RowBitmap& operator-=(const RowBitmap& other);  ///< and-not
  /// Same rows.
  bool operator==(const RowBitmap& other) const;
  bool operator!=(const RowBitmap& other) const { return !(*this == other); }

  /// Writes the rows in ascending order into `out`, which must hold Cardinality() values.
  void ToArray(uint32_t* out) const;
  /// The rows in ascending order.
  std::vector<uint32_t> ToVector() const;
  /// Maximal runs of consecutive rows as [begin, end) pairs, ascending: what a format reader
  /// selects (e.g. Parquet row ranges).
  std::vector<std::pair<uint64_t, uint64_t>> ToRanges() const;
  /// Java-identical bytes: the portable format after Paimon's run-optimisation rule.
  std::vector<uint8_t> Serialize() const;

  /// Ascending iteration: `for (uint32_t row : rows) ...`.
  const_iterator begin() const { return const_iterator(this); }
  const_iterator end() const { return const_iterator(); }
  /// Calls `visit(uint32_t row)` for every row in ascending order.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    for (uint32_t row : *this) visit(row);
  }
  /// Copies up to `max` rows >= `start`, ascending, into `out`; returns how many. Lets a caller
  /// walk a large set in chunks of its own size.
  size_t ReadFrom(uint64_t start, uint32_t* out, size_t max) const;

  /// Internal: the library's own bitmap type (not usable outside the library).
  const roaring::Bitmap32& impl() const { return *impl_; }
  roaring::Bitmap32& impl() { return *impl_; }
  explicit RowBitmap(roaring::Bitmap32 impl);

 private:
  std::unique_ptr<roaring::Bitmap32> impl_;
};

}  // namespace pyfileindex
