#include "roaring/portable_layout.h"

#include <vector>

#include "io/endian.h"
#include "roaring/block_ops.h"

namespace pyfileindex::roaring {

namespace {
constexpr uint32_t kCookieNoRun = 12346;
constexpr uint32_t kCookieRun = 12347;
}  // namespace

uint8_t* PortableHead::WriteStart(uint8_t* out) const {
  const size_t n = containers;
  if (!has_run) {
    io::StoreU32LE(out, kCookieNoRun);
    io::StoreU32LE(out + 4, static_cast<uint32_t>(n));
    return out + 8;
  }
  io::StoreU32LE(out, kCookieRun | (static_cast<uint32_t>(n - 1) << 16));
  std::fill(out + 4, out + 4 + (n + 7) / 8, uint8_t{0});
  return out + 4 + (n + 7) / 8;
}

uint32_t IntervalsCardinality(const uint32_t* bounds, size_t count) {
  uint32_t card = 0;
  for (size_t k = 0; k < count; ++k) card += bounds[2 * k + 1] - bounds[2 * k];
  return card;
}

void WriteWordsBody(const uint64_t* words, uint8_t* out) {
  for (size_t i = 0; i < kBlockWords; ++i) io::StoreU64LE(out + 8 * i, words[i]);
}

void WriteIntervalsBody(ContainerKind kind, const uint32_t* bounds, size_t count, uint8_t* out) {
  switch (kind) {
    case ContainerKind::kRun:
      io::StoreU16LE(out, static_cast<uint16_t>(count));
      for (size_t k = 0; k < count; ++k) {
        io::StoreU16LE(out + 2 + 4 * k, static_cast<uint16_t>(bounds[2 * k]));
        io::StoreU16LE(out + 4 + 4 * k,
                       static_cast<uint16_t>(bounds[2 * k + 1] - bounds[2 * k] - 1));
      }
      return;
    case ContainerKind::kArray:
      for (size_t k = 0; k < count; ++k) {
        for (uint32_t v = bounds[2 * k]; v < bounds[2 * k + 1]; ++v, out += 2) {
          io::StoreU16LE(out, static_cast<uint16_t>(v));
        }
      }
      return;
    case ContainerKind::kBitmap: {
      // Only past 2047 intervals (more than a block of runs ever holds): through words.
      std::vector<uint64_t> words(kBlockWords, 0);
      for (size_t k = 0; k < count; ++k) SetBitRange(words.data(), bounds[2 * k], bounds[2 * k + 1]);
      WriteWordsBody(words.data(), out);
      return;
    }
  }
}

}  // namespace pyfileindex::roaring
