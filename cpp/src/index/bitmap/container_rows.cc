#include "index/bitmap/container_rows.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "index/bitmap/tuning.h"
#include "io/endian.h"
#include "memory/return_pages.h"

namespace pyfileindex::index::bitmap {

namespace {
// Largest body a closed run or bitmap container can have: Java picks a run container only
// when it is smaller than the array or the 8 KiB bitmap.
constexpr size_t kMaxRewrittenBytes = kBitmapBytes;
}  // namespace

ContainerRows::~ContainerRows() { Release(); }

ContainerRows::ContainerRows(ContainerRows&& other) noexcept { *this = std::move(other); }

ContainerRows& ContainerRows::operator=(ContainerRows&& other) noexcept {
  if (this != &other) {
    Release();
    body_ = std::exchange(other.body_, nullptr);
    body_size_ = std::exchange(other.body_size_, 0);
    body_capacity_ = std::exchange(other.body_capacity_, 0);
    reserved_ = std::exchange(other.reserved_, 0);
    borrowed_ = std::exchange(other.borrowed_, false);
    closed_ = std::move(other.closed_);
    count_ = std::exchange(other.count_, 0);
    first_row_ = other.first_row_;
    open_count_ = std::exchange(other.open_count_, 0);
    open_high_ = other.open_high_;
    run_first_ = other.run_first_;
    open_is_run_ = std::exchange(other.open_is_run_, false);
  }
  return *this;
}

void ContainerRows::Release() {
  if (!borrowed_) std::free(body_);
  body_ = nullptr;
  borrowed_ = false;
  body_size_ = body_capacity_ = reserved_ = 0;
  closed_ = std::vector<ContainerInfo>();
  count_ = 0;
  open_count_ = 0;
  open_is_run_ = false;
}

void ContainerRows::Grow(uint32_t count) {
  GrowTo(body_size_ + 2 * (size_t{open_count_} + count));
}

void ContainerRows::GrowTo(size_t needed) {
  size_t grown = body_capacity_ == 0 ? tuning::kFirstContainerBodyBytes : 2 * body_capacity_;
  if (grown < needed) grown = needed;
  void* bigger;
  if (borrowed_) {  // outgrew the writer's room: from here on the rows live on the heap
    bigger = std::malloc(grown);
    if (bigger == nullptr) throw std::bad_alloc();
    std::memcpy(bigger, body_, UsedBytes());
    memory::ReturnPages(body_, body_capacity_);  // the room is not used again
  } else {
    bigger = std::realloc(body_, grown);
  }
  if (bigger == nullptr) throw std::bad_alloc();
  body_ = static_cast<uint8_t*>(bigger);
  body_capacity_ = grown;
  borrowed_ = false;
}

void ContainerRows::MoveInto(uint8_t* room, size_t bytes) {
  if (room == nullptr || bytes == 0 || bytes < UsedBytes() || borrowed_) return;
  if (body_ != nullptr) std::memcpy(room, body_, UsedBytes());
  std::free(body_);
  body_ = room;
  body_capacity_ = reserved_ = bytes;
  borrowed_ = true;
}

void ContainerRows::WriteOutRun() {
  const uint32_t count = open_count_;
  open_is_run_ = false;
  open_count_ = 0;
  if (body_size_ + 2 * size_t{count} > body_capacity_) GrowTo(body_size_ + 2 * size_t{count});
  uint16_t* values = OpenValues();
  for (uint32_t k = 0; k < count; ++k) values[k] = static_cast<uint16_t>(run_first_ + k);
  open_count_ = count;
}

void ContainerRows::CloseOpen() {
  if (open_count_ == 0) return;
  const uint32_t card = open_count_;
  if (open_is_run_) {
    const ContainerKind kind = JavaContainerKind(card, 1);
    const uint32_t bytes = ContainerBodyBytes(kind, card, 1);
    if (body_size_ + bytes > body_capacity_) GrowTo(body_size_ + bytes);
    WriteConsecutiveBody(kind, run_first_, card, body_ + body_size_);
    Record(kind, card, 1, bytes);
    open_is_run_ = false;
    return;
  }
  uint16_t* values = OpenValues();
  uint32_t breaks = 0;
  for (uint32_t k = 1; k < card; ++k) breaks += values[k] != values[k - 1] + 1;
  const uint32_t runs = 1 + breaks;
  const ContainerKind kind = JavaContainerKind(card, runs);
  const uint32_t bytes = ContainerBodyBytes(kind, card, runs);
  uint8_t* body = body_ + body_size_;
  if (kind == ContainerKind::kArray) {
    // The values already are the array body on little-endian hosts.
    if (!io::endian_internal::kHostIsLittleEndian) {
      for (uint32_t k = 0; k < card; ++k) io::StoreU16LE(body + 2 * k, values[k]);
    }
  } else {
    // Run and bitmap bodies are smaller than the values they replace, but overlap them.
    uint8_t rewritten[kMaxRewrittenBytes];
    WriteContainerBody(kind, values, card, runs, rewritten);
    std::memcpy(body, rewritten, bytes);
  }
  Record(kind, card, runs, bytes);
  // A span of a key that turned into a few runs (sorted or clustered columns) leaves room
  // for its whole array behind: give it back, or every key would keep a span's worth.
  // A projected reservation stays: its room is for the key's later spans.
  const size_t spare = body_capacity_ - body_size_;
  if (spare > kMaxRewrittenBytes && spare > body_size_ && body_capacity_ > reserved_) Shrink();
}

void ContainerRows::Record(ContainerKind kind, uint32_t card, uint32_t runs, uint32_t bytes) {
  // Written field by field where it stays: a record built aside and copied in is read back
  // 16 bytes at once from narrower stores, which the CPU cannot forward (a stall per record).
  ContainerInfo& c = closed_.emplace_back();
  c.key = open_high_;
  c.kind = kind;
  c.card = card;
  c.runs = runs;
  c.bytes = bytes;
  body_size_ += bytes;
  open_count_ = 0;
}

void ContainerRows::Shrink() {
  if (borrowed_) return;  // the room is the writer's
  // A fresh small block, not a realloc in place: the large block is then freed whole, and
  // the next span's open containers (the same size again in a sorted column) reuse it. Cut
  // in place, its tail is a hole too small for them, and every span would take new pages.
  const size_t fitted = body_size_ + tuning::kFirstContainerBodyBytes;
  void* smaller = std::malloc(fitted);
  if (smaller == nullptr) return;  // keeping the larger block is fine
  std::memcpy(smaller, body_, body_size_);
  std::free(body_);
  body_ = static_cast<uint8_t*>(smaller);
  body_capacity_ = fitted;
}

size_t ContainerRows::SerializedSize() {
  CloseOpen();
  return JavaRoaringHeadBytes(closed_.data(), closed_.size()) + body_size_;
}

void ContainerRows::SerializeTo(uint8_t* out) {
  CloseOpen();
  uint8_t* body = WriteJavaRoaringHead(closed_.data(), closed_.size(), out);
  if (body_size_ > 0) std::memcpy(body, body_, body_size_);
  memory::ReturnPages(body_, body_capacity_);  // not resident alongside the container
  Release();
}

}  // namespace pyfileindex::index::bitmap
