// ContainerRows: the rows of one frequent key, kept as the containers Java's serializer will
// write, built one container span (roaring/container_span.h) at a time.
//
// The rows of the span being filled are the 16-bit values of an array container at the end of
// the body buffer; when a later span begins, that container is closed (rewritten in place as a
// run or bitmap container where Java's runOptimize() would choose one). Serializing is then a
// head plus one copy of the bodies: half the memory of 4-byte row lists, and no second pass
// over the rows. A span whose rows so far are one run (AppendRun: a sorted column) keeps just
// the run's bounds, and closes straight into its run body.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "index/bitmap/java_roaring_encoder.h"

namespace pyfileindex::index::bitmap {

class ContainerRows {
 public:
  ContainerRows() = default;
  ~ContainerRows();
  ContainerRows(ContainerRows&& other) noexcept;
  ContainerRows& operator=(ContainerRows&& other) noexcept;
  ContainerRows(const ContainerRows&) = delete;
  ContainerRows& operator=(const ContainerRows&) = delete;

  // Room for `count` more rows of span `high` (no earlier row is in a later span): the
  // caller stores their low 16 bits there, ascending and above the span's earlier rows, then
  // calls Commit(count).
  uint16_t* Reserve(uint16_t high, uint32_t count) {
    if (open_count_ > 0 && high != open_high_) CloseOpen();
    if (open_is_run_) WriteOutRun();
    open_high_ = high;
    if (body_size_ + 2 * (size_t{open_count_} + count) > body_capacity_) Grow(count);
    return reinterpret_cast<uint16_t*>(body_ + body_size_) + open_count_;
  }
  // Reserve(high, 1), with *room_end where the room ends: rows fit up to it (a store there
  // wants a new room); the caller commits the ones it stored.
  uint16_t* ReserveRoom(uint16_t high, uint16_t** room_end) {
    uint16_t* values = Reserve(high, 1);
    *room_end = reinterpret_cast<uint16_t*>(body_ + (body_capacity_ & ~size_t{1}));
    return values;
  }
  // Commits the rows stored in a room from ReserveRoom, up to (not including) `next`.
  void CommitTo(const uint16_t* next) {
    Commit(static_cast<uint32_t>(next - (OpenValues() + open_count_)));
  }
  void Commit(uint32_t count) {
    if (count_ == 0 && count > 0) {
      first_row_ = (uint32_t{open_high_} << 16) | OpenValues()[0];
    }
    open_count_ += count;
    count_ += count;
  }
  // `row` above every row added before.
  void Append(uint32_t row) {
    *Reserve(static_cast<uint16_t>(row >> 16), 1) = static_cast<uint16_t>(row);
    Commit(1);
  }

  // Rows (high << 16) | first ... + count - 1 (`count` >= 1, within the span), above every
  // row added before. While a span's rows are one run, no values are stored.
  void AppendRun(uint16_t high, uint16_t first, uint32_t count) {
    if (open_count_ > 0 && high != open_high_) CloseOpen();
    const bool starts_span = open_count_ == 0;
    if (starts_span || (open_is_run_ && uint32_t{run_first_} + open_count_ == first)) {
      if (starts_span) {
        open_high_ = high;
        open_is_run_ = true;
        run_first_ = first;
        if (count_ == 0) first_row_ = (uint32_t{high} << 16) | first;
      }
      open_count_ += count;
      count_ += count;
      return;
    }
    uint16_t* out = Reserve(high, count);
    for (uint32_t k = 0; k < count; ++k) out[k] = static_cast<uint16_t>(first + k);
    Commit(count);
  }

  // Closes the container being filled if it belongs to a span before `high`: its rows then
  // take their final (often much smaller) form instead of waiting for the key's next row.
  void CloseBefore(uint16_t high) {
    if (open_count_ > 0 && open_high_ != high) CloseOpen();
  }

  // Bytes the rows take now: the closed bodies and the open container's values.
  size_t UsedBytes() const { return body_size_ + (open_is_run_ ? 0 : 2 * size_t{open_count_}); }
  size_t ClosedBytes() const { return body_size_; }
  size_t ClosedContainers() const { return closed_.size(); }
  // Moves the rows into `room`, `bytes` (>= UsedBytes()) long: the writer's projection of the
  // key's final size, carved from memory the writer owns and keeps until the rows are
  // serialized. One move replaces the doubling reallocations, each of which copies the rows
  // so far into fresh pages. Should the key outgrow its room, it moves to the heap.
  void MoveInto(uint8_t* room, size_t bytes);
  // Room for the records of `containers` closed containers in all (one per span with rows).
  void ReserveContainers(size_t containers) { closed_.reserve(containers); }

  uint64_t Count() const { return count_; }
  uint32_t FirstRow() const { return first_row_; }  // Count() >= 1

  // Java's RoaringBitmap32.serialize() size of the rows (closes the open container).
  size_t SerializedSize();
  // Writes those SerializedSize() bytes to `out`, then releases the rows.
  void SerializeTo(uint8_t* out);

 private:
  uint16_t* OpenValues() const {
    return reinterpret_cast<uint16_t*>(body_ + body_size_);
  }
  void CloseOpen();
  // Appends the record of the open container, closed to `bytes` of body, and empties it.
  void Record(ContainerKind kind, uint32_t card, uint32_t runs, uint32_t bytes);
  // The open run becomes values, for rows that do not continue it.
  void WriteOutRun();
  void Grow(uint32_t count);
  // Capacity for at least `needed` bytes of body in all (closed bodies and open values).
  void GrowTo(size_t needed);
  void Shrink();  // capacity down to the closed bodies and a little room
  void Release();

  uint8_t* body_ = nullptr;   // closed container bodies, then the open container's values
  size_t body_size_ = 0;      // bytes of closed container bodies
  size_t body_capacity_ = 0;
  size_t reserved_ = 0;       // MoveInto's projection: not given back by Shrink
  bool borrowed_ = false;     // body_ is MoveInto's room (not ours to free or realloc)
  std::vector<ContainerInfo> closed_;
  uint64_t count_ = 0;
  uint32_t first_row_ = 0;
  uint32_t open_count_ = 0;
  uint16_t open_high_ = 0;
  uint16_t run_first_ = 0;     // open_is_run_: the open rows are run_first_ + [0, open_count_)
  bool open_is_run_ = false;
};

}  // namespace pyfileindex::index::bitmap
