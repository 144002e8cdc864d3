#include "roaring/dense_roaring_encoder.h"

#include <algorithm>
#include <cstring>

#include "io/endian.h"
#include "memory/return_pages.h"
#include "roaring/block_ops.h"

namespace pyfileindex::roaring {

namespace {

constexpr uint32_t kCookieNoRun = 12346;
constexpr uint32_t kCookieRun = 12347;
constexpr size_t kNoOffsetThreshold = 4;  // run-flavoured headers carry offsets from 4 containers
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

void SetBitRange(uint64_t* words, uint64_t begin, uint64_t end) {
  for (uint64_t r = begin; r < end;) {
    const uint64_t bit = r & 63;
    const uint64_t take = std::min<uint64_t>(64 - bit, end - r);
    words[r >> 6] |= take == 64 ? ~uint64_t{0} : (((uint64_t{1} << take) - 1) << bit);
    r += take;
  }
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
  if (card == 0) {
    if (reserve_blocks_ > 0) --reserve_blocks_;
    return;
  }

  Container c;
  c.key = key;
  c.card_minus_1 = static_cast<uint16_t>(card - 1);
  c.body_offset = static_cast<uint32_t>(body_.size());
  const uint32_t run_bytes = 2 + 4 * runs;
  if (card <= kArrayMaxValues) {
    c.kind = run_bytes < 2 * card ? Kind::kRun : Kind::kArray;
  } else {
    c.kind = run_bytes < 8192 ? Kind::kRun : Kind::kBitmap;
  }
  const size_t bytes = c.kind == Kind::kRun     ? run_bytes
                       : c.kind == Kind::kArray ? 2 * size_t{card}
                                                : 8 * kBlockWords;
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

  switch (c.kind) {
    case Kind::kArray: {
      uint16_t positions[kArrayMaxValues + 2];  // +2: room for what positions() writes past them
      Ops().positions(words, positions);
      const size_t at = body_.size();
      body_.resize(at + 2 * size_t{card});
      uint8_t* out = body_.data() + at;
      for (uint32_t i = 0; i < card; ++i) io::StoreU16LE(out + 2 * i, positions[i]);
      break;
    }
    case Kind::kBitmap: {
      const size_t at = body_.size();
      body_.resize(at + 8 * kBlockWords);
      uint8_t* out = body_.data() + at;
      for (size_t i = 0; i < kBlockWords; ++i) io::StoreU64LE(out + 8 * i, words[i]);
      break;
    }
    case Kind::kRun: {
      has_run_ = true;
      PutU16(&body_, static_cast<uint16_t>(runs));
      ForEachRun(words, [this](uint32_t start, uint32_t end) {
        PutU16(&body_, static_cast<uint16_t>(start));
        PutU16(&body_, static_cast<uint16_t>(end - start - 1));
      });
      break;
    }
  }
  containers_.push_back(c);
  cardinality_ += card;
}

size_t DenseRoaringEncoder::SerializedSize() const {
  const size_t n = containers_.size();
  size_t header;
  if (has_run_) {
    header = 4 + (n + 7) / 8 + 4 * n + (n >= kNoOffsetThreshold ? 4 * n : 0);
  } else {
    header = 8 + 8 * n;
  }
  return header + body_.size();
}

void DenseRoaringEncoder::WriteTo(uint8_t* out) const {
  const size_t n = containers_.size();
  uint8_t* p = out;
  bool offsets = true;
  if (has_run_) {
    io::StoreU32LE(p, kCookieRun | (static_cast<uint32_t>(n - 1) << 16));
    p += 4;
    std::fill(p, p + (n + 7) / 8, uint8_t{0});
    for (size_t i = 0; i < n; ++i) {
      if (containers_[i].kind == Kind::kRun) p[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
    p += (n + 7) / 8;
    offsets = n >= kNoOffsetThreshold;
  } else {
    io::StoreU32LE(p, kCookieNoRun);
    io::StoreU32LE(p + 4, static_cast<uint32_t>(n));
    p += 8;
  }
  for (const Container& c : containers_) {
    io::StoreU16LE(p, c.key);
    io::StoreU16LE(p + 2, c.card_minus_1);
    p += 4;
  }
  if (offsets) {
    // Offsets are absolute from the bitmap's first byte: header end + body offset.
    const uint32_t data_start = static_cast<uint32_t>((p - out) + 4 * n);
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
