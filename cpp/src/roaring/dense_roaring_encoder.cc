#include "roaring/dense_roaring_encoder.h"

#include <cstring>

#include "io/endian.h"
#include "memory/return_pages.h"
#include "roaring/block_ops.h"
#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

namespace {

// Bodies below this size grow as vectors do: a bitmap of a few small containers takes no
// page of its own, and the buffers it outgrows are small enough for the heap to reuse.
constexpr size_t kReserveFrom = size_t{8} << 10;

void PutU16(std::vector<uint8_t>* out, uint16_t v) {
  const size_t at = out->size();
  out->resize(at + 2);
  io::StoreU16LE(out->data() + at, v);
}

// Calls emit(start, end) for every maximal run of set bits [start, end) in the block.
template <typename Emit>
void ForEachRun(const uint64_t* words, Emit&& emit) {
  size_t i = 0;
  uint64_t word = words[0];
  for (;;) {
    while (word == 0 && i + 1 < kBlockWords) word = words[++i];
    if (word == 0) return;
    const uint32_t start = static_cast<uint32_t>(i * 64 + __builtin_ctzll(word));
    // Fill the zeros below the first set bit, then look for the first zero above it.
    uint64_t filled = word | (word - 1);
    while (filled == ~uint64_t{0} && i + 1 < kBlockWords) filled = words[++i];
    if (filled == ~uint64_t{0}) {
      emit(start, static_cast<uint32_t>(kBlockWords * 64));
      return;
    }
    const uint32_t end = static_cast<uint32_t>(i * 64 + __builtin_ctzll(~filled));
    emit(start, end);
    word = filled & (filled + 1);  // clear the run just emitted
  }
}

}  // namespace

bool DenseRoaringEncoder::StartContainer(uint16_t key, uint32_t card, uint32_t runs,
                                         Container* c) {
  if (card == 0) {
    if (reserve_blocks_ > 0) --reserve_blocks_;
    return false;
  }
  c->key = key;
  c->card_minus_1 = static_cast<uint16_t>(card - 1);
  c->body_offset = static_cast<uint32_t>(body_.size());
  c->kind = JavaContainerKind(card, runs);
  const size_t bytes = ContainerBodyBytes(c->kind, card, runs);
  if (reserve_blocks_ > 0) {
    // The room announced is taken as soon as the body would reach kReserveFrom: at once for a
    // bitmap whose first container is large, never for one of a few small containers.
    if (body_.size() + bytes >= kReserveFrom) {
      // A container never takes more than a bitmap's 8 KiB: Java picks the smallest kind.
      body_.reserve(body_.size() + reserve_blocks_ * 8192);
      reserve_blocks_ = 0;
    } else {
      --reserve_blocks_;
    }
  }
  return true;
}

void DenseRoaringEncoder::FinishContainer(const Container& c, uint32_t card) {
  has_run_ = has_run_ || c.kind == ContainerKind::kRun;
  containers_.push_back(c);
  cardinality_ += card;
}

void DenseRoaringEncoder::AddBlock(uint16_t key, const uint64_t* words) {
  uint32_t card = 0;
  uint32_t runs = 0;
  if (java_containers_) {
    Ops().cardinality_and_runs(words, &card, &runs);
  } else {
    card = Ops().cardinality(words);
    runs = kBlockWords * 64;  // never worth a run container
  }
  Container c;
  if (!StartContainer(key, card, runs, &c)) return;
  switch (c.kind) {
    case ContainerKind::kArray: {
      uint16_t positions[kArrayMaxValues + 2];  // +2: room for what positions() writes past them
      Ops().positions(words, positions);
      const size_t at = body_.size();
      body_.resize(at + 2 * size_t{card});
      uint8_t* out = body_.data() + at;
      for (uint32_t i = 0; i < card; ++i) io::StoreU16LE(out + 2 * i, positions[i]);
      break;
    }
    case ContainerKind::kBitmap: {
      const size_t at = body_.size();
      body_.resize(at + 8 * kBlockWords);
      WriteWordsBody(words, body_.data() + at);
      break;
    }
    case ContainerKind::kRun: {
      PutU16(&body_, static_cast<uint16_t>(runs));
      ForEachRun(words, [this](uint32_t start, uint32_t end) {
        PutU16(&body_, static_cast<uint16_t>(start));
        PutU16(&body_, static_cast<uint16_t>(end - start - 1));
      });
      break;
    }
  }
  FinishContainer(c, card);
}

void DenseRoaringEncoder::AddIntervals(uint16_t key, const uint32_t* bounds, size_t count) {
  const uint32_t card = IntervalsCardinality(bounds, count);
  const uint32_t runs = java_containers_ ? static_cast<uint32_t>(count) : kBlockWords * 64;
  Container c;
  if (!StartContainer(key, card, runs, &c)) return;
  const size_t at = body_.size();
  body_.resize(at + ContainerBodyBytes(c.kind, card, static_cast<uint32_t>(count)));
  WriteIntervalsBody(c.kind, bounds, count, body_.data() + at);
  FinishContainer(c, card);
}

size_t DenseRoaringEncoder::SerializedSize() const {
  return PortableHead{containers_.size(), has_run_}.bytes() + body_.size();
}

void DenseRoaringEncoder::WriteTo(uint8_t* out) const {
  const PortableHead head{containers_.size(), has_run_};
  uint8_t* p = head.WriteStart(out);
  for (size_t i = 0; i < containers_.size(); ++i) {
    const Container& c = containers_[i];
    if (c.kind == ContainerKind::kRun) PortableHead::SetRunFlag(out, i);
    io::StoreU16LE(p, c.key);
    io::StoreU16LE(p + 2, c.card_minus_1);
    p += 4;
  }
  if (head.has_offsets()) {
    // Offsets are absolute from the bitmap's first byte: head end + body offset.
    const uint32_t data_start = static_cast<uint32_t>(head.bytes());
    for (const Container& c : containers_) {
      io::StoreU32LE(p, data_start + c.body_offset);
      p += 4;
    }
  }
  if (!body_.empty()) std::memcpy(p, body_.data(), body_.size());
}

void DenseRoaringEncoder::MoveTo(uint8_t* out) {
  // The head (cookie, keys, offsets) is written by WriteTo from an empty body; then the bodies.
  const size_t head = SerializedSize() - body_.size();
  std::vector<uint8_t> body;
  body.swap(body_);
  WriteTo(out);
  memory::MoveOutInPieces(out + head, body.data(), body.size());
  body_.swap(body);
  Release();
}

void DenseRoaringEncoder::ReserveBlocks(size_t blocks) {
  reserve_blocks_ += blocks;
  containers_.reserve(containers_.size() + blocks);
}

void DenseRoaringEncoder::Release() {
  memory::ReturnPages(body_.data(), body_.capacity());
  body_ = std::vector<uint8_t>();
  containers_ = std::vector<Container>();
  reserve_blocks_ = 0;
}

}  // namespace pyfileindex::roaring
