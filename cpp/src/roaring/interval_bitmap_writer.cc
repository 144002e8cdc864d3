#include "roaring/interval_bitmap_writer.h"

#include "io/endian.h"

namespace pyfileindex::roaring {

void IntervalBitmapShape::Add(const uint32_t* bounds, size_t count) {
  const uint32_t card = IntervalsCardinality(bounds, count);
  if (card == 0) return;
  const uint32_t runs = static_cast<uint32_t>(count);
  const ContainerKind kind = JavaContainerKind(card, runs);
  ++containers_;
  body_bytes_ += ContainerBodyBytes(kind, card, runs);
  has_run_ = has_run_ || kind == ContainerKind::kRun;
}

IntervalBitmapWriter::IntervalBitmapWriter(const IntervalBitmapShape& shape, uint8_t* out)
    : out_(out) {
  const PortableHead head = shape.head();
  descriptors_ = head.WriteStart(out);
  offsets_ = head.has_offsets() ? descriptors_ + 4 * head.containers : nullptr;
  body_ = out + head.bytes();
}

void IntervalBitmapWriter::Add(uint16_t key, const uint32_t* bounds, size_t count) {
  const uint32_t card = IntervalsCardinality(bounds, count);
  if (card == 0) return;
  const uint32_t runs = static_cast<uint32_t>(count);
  const ContainerKind kind = JavaContainerKind(card, runs);
  if (kind == ContainerKind::kRun) PortableHead::SetRunFlag(out_, next_);
  io::StoreU16LE(descriptors_ + 4 * next_, key);
  io::StoreU16LE(descriptors_ + 4 * next_ + 2, static_cast<uint16_t>(card - 1));
  // Offsets are absolute from the bitmap's first byte.
  if (offsets_ != nullptr) io::StoreU32LE(offsets_ + 4 * next_, static_cast<uint32_t>(body_ - out_));
  WriteIntervalsBody(kind, bounds, count, body_);
  body_ += ContainerBodyBytes(kind, card, runs);
  ++next_;
}

}  // namespace pyfileindex::roaring
