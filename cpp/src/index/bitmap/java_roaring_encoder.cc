#include "index/bitmap/java_roaring_encoder.h"

#include <algorithm>

#include "io/endian.h"

namespace pyfileindex::index::bitmap {

namespace {

constexpr uint32_t kNoRunCookie = 12346;
constexpr uint32_t kRunCookie = 12347;
constexpr size_t kNoOffsetThreshold = 4;  // run-cookie bitmaps list offsets only from 4 chunks
constexpr uint32_t kMaxArrayCardinality = 4096;
constexpr size_t kBitmapBytes = 8192;

enum class Kind : uint8_t { kArray, kBitmap, kRun };

struct Chunk {
  uint16_t key;
  Kind kind;
  uint32_t begin;  // index into rows
  uint32_t card;
  uint32_t runs;
  uint32_t bytes;  // serialized container size
};

Kind JavaKind(uint32_t card, uint32_t runs) {
  const uint64_t run_bytes = 2 + 4 * uint64_t{runs};
  if (card <= kMaxArrayCardinality) return run_bytes < 2 * uint64_t{card} ? Kind::kRun : Kind::kArray;
  return run_bytes < kBitmapBytes ? Kind::kRun : Kind::kBitmap;
}

// One summary per 16-bit chunk, on the stack for the usual few chunks. (A thread_local vector
// cost a __tls_get_addr call per use in the shared library: ~15 instructions per row on
// columns with many rare keys.)
class ChunkList {
 public:
  void push_back(const Chunk& c) {
    if (size_ < kInline) {
      inline_[size_] = c;
    } else {
      if (size_ == kInline) heap_.assign(inline_, inline_ + kInline);
      heap_.push_back(c);
    }
    ++size_;
  }
  size_t size() const { return size_; }
  const Chunk& operator[](size_t k) const { return data()[k]; }
  const Chunk* begin() const { return data(); }
  const Chunk* end() const { return data() + size_; }

 private:
  static constexpr size_t kInline = 32;
  const Chunk* data() const { return size_ <= kInline ? inline_ : heap_.data(); }

  Chunk inline_[kInline];
  std::vector<Chunk> heap_;
  size_t size_ = 0;
};

uint8_t* Grow(std::vector<uint8_t>* out, size_t n) {
  const size_t old = out->size();
  out->resize(old + n);
  return out->data() + old;
}

}  // namespace

void AppendJavaRoaring(const uint32_t* rows, size_t n, std::vector<uint8_t>* out) {
  ChunkList chunks;
  bool has_run = false;
  size_t body_bytes = 0;
  for (size_t i = 0; i < n;) {
    const uint32_t high = rows[i] >> 16;
    // Rows ascend, so the chunk ends at the first row of a later chunk: a binary search, then
    // one branch-free (vectorizable) pass counts the runs.
    size_t j = i + 1;  // a chunk of one row is the common case for rare keys
    if (j < n && (rows[j] >> 16) == high) {
      j = high == 0xFFFF ? n
                         : static_cast<size_t>(
                               std::lower_bound(rows + j, rows + n, (high + 1) << 16) - rows);
    }
    uint32_t breaks = 0;
    for (size_t k = i + 1; k < j; ++k) breaks += rows[k] != rows[k - 1] + 1;
    const uint32_t runs = 1 + breaks;
    Chunk c;
    c.key = static_cast<uint16_t>(high);
    c.begin = static_cast<uint32_t>(i);
    c.card = static_cast<uint32_t>(j - i);
    c.runs = runs;
    c.kind = JavaKind(c.card, runs);
    c.bytes = c.kind == Kind::kRun      ? 2 + 4 * runs
              : c.kind == Kind::kArray ? 2 * c.card
                                       : static_cast<uint32_t>(kBitmapBytes);
    has_run |= c.kind == Kind::kRun;
    body_bytes += c.bytes;
    chunks.push_back(c);
    i = j;
  }

  const size_t count = chunks.size();
  const bool offsets = !has_run || count >= kNoOffsetThreshold;
  const size_t head_bytes = (has_run ? 4 + (count + 7) / 8 : 8) + 4 * count +
                            (offsets ? 4 * count : 0);
  uint8_t* p = Grow(out, head_bytes + body_bytes);

  // Head.
  if (has_run) {
    io::StoreU32LE(p, kRunCookie | (static_cast<uint32_t>(count - 1) << 16));
    p += 4;
    for (size_t k = 0; k < (count + 7) / 8; ++k) p[k] = 0;
    for (size_t k = 0; k < count; ++k) {
      if (chunks[k].kind == Kind::kRun) p[k / 8] |= static_cast<uint8_t>(1u << (k % 8));
    }
    p += (count + 7) / 8;
  } else {
    io::StoreU32LE(p, kNoRunCookie);
    io::StoreU32LE(p + 4, static_cast<uint32_t>(count));
    p += 8;
  }
  for (const Chunk& c : chunks) {
    io::StoreU16LE(p, c.key);
    io::StoreU16LE(p + 2, static_cast<uint16_t>(c.card - 1));
    p += 4;
  }
  if (offsets) {
    uint32_t offset = static_cast<uint32_t>(head_bytes);
    for (const Chunk& c : chunks) {
      io::StoreU32LE(p, offset);
      offset += c.bytes;
      p += 4;
    }
  }

  // Containers.
  for (const Chunk& c : chunks) {
    const uint32_t* v = rows + c.begin;
    switch (c.kind) {
      case Kind::kArray: {
        // A local bound: `p` may alias `c` as far as the compiler knows, and a bound re-read
        // from memory after every store keeps this loop from being vectorized.
        const uint32_t card = c.card;
        for (uint32_t k = 0; k < card; ++k) io::StoreU16LE(p + 2 * k, static_cast<uint16_t>(v[k]));
        break;
      }
      case Kind::kBitmap: {
        for (size_t k = 0; k < kBitmapBytes; ++k) p[k] = 0;
        for (uint32_t k = 0; k < c.card; ++k) {
          const uint32_t low = v[k] & 0xFFFF;
          p[low >> 3] |= static_cast<uint8_t>(1u << (low & 7));  // LE words = LSB-first bytes
        }
        break;
      }
      case Kind::kRun: {
        io::StoreU16LE(p, static_cast<uint16_t>(c.runs));
        uint8_t* r = p + 2;
        uint32_t start = v[0];
        for (uint32_t k = 1; k <= c.card; ++k) {
          if (k == c.card || v[k] != v[k - 1] + 1) {
            io::StoreU16LE(r, static_cast<uint16_t>(start));
            io::StoreU16LE(r + 2, static_cast<uint16_t>(v[k - 1] - start));
            r += 4;
            if (k < c.card) start = v[k];
          }
        }
        break;
      }
    }
    p += c.bytes;
  }
}

}  // namespace pyfileindex::index::bitmap
