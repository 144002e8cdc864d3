#include "index/bitmap/java_roaring_encoder.h"

#include <algorithm>

#include "io/endian.h"

namespace pyfileindex::index::bitmap {

namespace {

// One summary per container, on the stack for the usual few containers. (A thread_local
// vector cost a __tls_get_addr call per use in the shared library: ~15 instructions per row on
// columns with many rare keys.)
class ContainerList {
 public:
  void push_back(const ContainerInfo& c) {
    if (size_ < kInline) {
      inline_[size_] = c;
    } else {
      if (size_ == kInline) heap_.assign(inline_, inline_ + kInline);
      heap_.push_back(c);
    }
    ++size_;
  }
  size_t size() const { return size_; }
  const ContainerInfo* data() const { return size_ <= kInline ? inline_ : heap_.data(); }

 private:
  static constexpr size_t kInline = 32;

  ContainerInfo inline_[kInline];
  std::vector<ContainerInfo> heap_;
  size_t size_ = 0;
};

// The body of a container from its ascending values; only their low 16 bits are stored.
template <typename Value>
void WriteBody(ContainerKind kind, const Value* v, uint32_t card, uint32_t runs, uint8_t* p) {
  switch (kind) {
    case ContainerKind::kArray:
      // `card` is a local: `p` may alias anything as far as the compiler knows, and a bound
      // re-read from memory after every store keeps this loop from being vectorized.
      for (uint32_t k = 0; k < card; ++k) io::StoreU16LE(p + 2 * k, static_cast<uint16_t>(v[k]));
      return;
    case ContainerKind::kBitmap:
      std::fill(p, p + kBitmapBytes, uint8_t{0});
      for (uint32_t k = 0; k < card; ++k) {
        const uint32_t low = v[k] & 0xFFFFu;
        p[low >> 3] |= static_cast<uint8_t>(1u << (low & 7));  // LE words = LSB-first bytes
      }
      return;
    case ContainerKind::kRun: {
      io::StoreU16LE(p, static_cast<uint16_t>(runs));
      uint8_t* r = p + 2;
      uint32_t start = v[0];
      for (uint32_t k = 1; k <= card; ++k) {
        if (k == card || uint32_t{v[k]} != uint32_t{v[k - 1]} + 1) {
          io::StoreU16LE(r, static_cast<uint16_t>(start));
          io::StoreU16LE(r + 2, static_cast<uint16_t>(v[k - 1] - start));
          r += 4;
          if (k < card) start = v[k];
        }
      }
      return;
    }
  }
}

}  // namespace

namespace {

roaring::PortableHead HeadOf(const ContainerInfo* containers, size_t count) {
  const bool has_run = std::any_of(containers, containers + count, [](const ContainerInfo& c) {
    return c.kind == ContainerKind::kRun;
  });
  return roaring::PortableHead{count, has_run};
}

}  // namespace

size_t JavaRoaringHeadBytes(const ContainerInfo* containers, size_t count) {
  return HeadOf(containers, count).bytes();
}

uint8_t* WriteJavaRoaringHead(const ContainerInfo* containers, size_t count, uint8_t* out) {
  const roaring::PortableHead head = HeadOf(containers, count);
  uint8_t* p = head.WriteStart(out);
  for (size_t k = 0; k < count; ++k) {
    if (containers[k].kind == ContainerKind::kRun) roaring::PortableHead::SetRunFlag(out, k);
    io::StoreU16LE(p, containers[k].key);
    io::StoreU16LE(p + 2, static_cast<uint16_t>(containers[k].card - 1));
    p += 4;
  }
  if (head.has_offsets()) {
    uint32_t offset = static_cast<uint32_t>(head.bytes());
    for (size_t k = 0; k < count; ++k) {
      io::StoreU32LE(p, offset);
      offset += containers[k].bytes;
      p += 4;
    }
  }
  return p;
}

void WriteContainerBody(ContainerKind kind, const uint16_t* low, uint32_t card, uint32_t runs,
                        uint8_t* out) {
  WriteBody(kind, low, card, runs, out);
}

void WriteConsecutiveBody(ContainerKind kind, uint16_t first, uint32_t card, uint8_t* out) {
  switch (kind) {
    case ContainerKind::kArray:
      for (uint32_t k = 0; k < card; ++k) io::StoreU16LE(out + 2 * k, static_cast<uint16_t>(first + k));
      return;
    case ContainerKind::kBitmap:  // not Java's choice for one run, but a valid body
      std::fill(out, out + kBitmapBytes, uint8_t{0});
      for (uint32_t low = first; low < first + card; ++low) {
        out[low >> 3] |= static_cast<uint8_t>(1u << (low & 7));
      }
      return;
    case ContainerKind::kRun:
      io::StoreU16LE(out, 1);
      io::StoreU16LE(out + 2, first);
      io::StoreU16LE(out + 4, static_cast<uint16_t>(card - 1));
      return;
  }
}

namespace {

// The containers of a sorted row list, and their bodies' total size.
size_t SummarizeContainers(const uint32_t* rows, size_t n, ContainerList* containers) {
  size_t body_bytes = 0;
  for (size_t i = 0; i < n;) {
    const uint32_t high = rows[i] >> 16;
    // Rows ascend, so the container ends at the first row of a later span: a binary search,
    // then one branch-free (vectorizable) pass counts the runs.
    size_t j = i + 1;  // a container of one row is the common case for rare keys
    if (j < n && (rows[j] >> 16) == high) {
      j = high == 0xFFFF ? n
                         : static_cast<size_t>(
                               std::lower_bound(rows + j, rows + n, (high + 1) << 16) - rows);
    }
    uint32_t breaks = 0;
    for (size_t k = i + 1; k < j; ++k) breaks += rows[k] != rows[k - 1] + 1;
    ContainerInfo c;
    c.key = static_cast<uint16_t>(high);
    c.card = static_cast<uint32_t>(j - i);
    c.runs = 1 + breaks;
    c.kind = JavaContainerKind(c.card, c.runs);
    c.bytes = ContainerBodyBytes(c.kind, c.card, c.runs);
    body_bytes += c.bytes;
    containers->push_back(c);
    i = j;
  }
  return body_bytes;
}

}  // namespace

namespace {

// Rows of a rare key (a few per container span, scattered) become array containers only
// when they are at most 4096 and no two are consecutive (one-row runs never pay): then the
// size and the bytes follow from one pass, without a summary per container. Returns the
// number of containers, or 0 if the rows are not of that shape.
size_t ArrayOnlyContainers(const uint32_t* rows, size_t n) {
  if (n == 0 || n > roaring::kArrayMaxValues) return 0;
  size_t containers = 1;
  bool consecutive = false;
  for (size_t k = 1; k < n; ++k) {
    containers += (rows[k] >> 16) != (rows[k - 1] >> 16);
    consecutive |= rows[k] == rows[k - 1] + 1;
  }
  return consecutive ? 0 : containers;
}

size_t ArrayOnlySize(size_t containers, size_t n) {
  return roaring::PortableHead{containers, false}.bytes() + 2 * n;
}

void WriteArrayOnly(const uint32_t* rows, size_t n, size_t containers, uint8_t* p) {
  uint8_t* keys = roaring::PortableHead{containers, false}.WriteStart(p);
  uint8_t* offsets = keys + 4 * containers;
  uint8_t* bodies = offsets + 4 * containers;
  uint32_t body_offset = static_cast<uint32_t>(bodies - p);
  for (size_t k = 0; k < n;) {
    const uint32_t high = rows[k] >> 16;
    size_t end = k + 1;
    while (end < n && (rows[end] >> 16) == high) ++end;
    io::StoreU16LE(keys, static_cast<uint16_t>(high));
    io::StoreU16LE(keys + 2, static_cast<uint16_t>(end - k - 1));
    io::StoreU32LE(offsets, body_offset);
    keys += 4;
    offsets += 4;
    body_offset += static_cast<uint32_t>(2 * (end - k));
    k = end;
  }
  for (size_t k = 0; k < n; ++k) io::StoreU16LE(bodies + 2 * k, static_cast<uint16_t>(rows[k]));
}

}  // namespace

size_t JavaRoaringSize(const uint32_t* rows, size_t n) {
  if (const size_t array_containers = ArrayOnlyContainers(rows, n)) {
    return ArrayOnlySize(array_containers, n);
  }
  ContainerList containers;
  const size_t body_bytes = SummarizeContainers(rows, n, &containers);
  return JavaRoaringHeadBytes(containers.data(), containers.size()) + body_bytes;
}

void WriteJavaRoaring(const uint32_t* rows, size_t n, uint8_t* p) {
  if (const size_t array_containers = ArrayOnlyContainers(rows, n)) {
    WriteArrayOnly(rows, n, array_containers, p);
    return;
  }
  ContainerList containers;
  SummarizeContainers(rows, n, &containers);
  p = WriteJavaRoaringHead(containers.data(), containers.size(), p);
  const uint32_t* v = rows;  // containers hold consecutive stretches of the rows
  for (size_t k = 0; k < containers.size(); ++k) {
    const ContainerInfo& c = containers.data()[k];
    WriteBody(c.kind, v, c.card, c.runs, p);
    v += c.card;
    p += c.bytes;
  }
}

void AppendJavaRoaring(const uint32_t* rows, size_t n, std::vector<uint8_t>* out) {
  const size_t old = out->size();
  out->resize(old + JavaRoaringSize(rows, n));
  WriteJavaRoaring(rows, n, out->data() + old);
}

namespace {

size_t SummarizePieces(const uint32_t* entries, size_t n, ContainerList* containers) {
  // Pieces are maximal, so a container's runs are its pieces.
  ContainerInfo c{};
  bool any = false;
  size_t body_bytes = 0;
  auto close = [&] {
    c.kind = JavaContainerKind(c.card, c.runs);
    c.bytes = ContainerBodyBytes(c.kind, c.card, c.runs);
    body_bytes += c.bytes;
    containers->push_back(c);
  };
  ForEachPiece(entries, n, [&](uint32_t first, uint32_t last) {
    const uint16_t high = static_cast<uint16_t>(first >> 16);
    if (!any || c.key != high) {
      if (any) close();
      c = ContainerInfo{};
      c.key = high;
      any = true;
    }
    c.card += last - first + 1;
    c.runs += 1;
  });
  if (any) close();
  return body_bytes;
}

}  // namespace

size_t JavaRoaringSizeOfRuns(const uint32_t* entries, size_t n) {
  ContainerList containers;
  const size_t body_bytes = SummarizePieces(entries, n, &containers);
  return JavaRoaringHeadBytes(containers.data(), containers.size()) + body_bytes;
}

void WriteJavaRoaringOfRuns(const uint32_t* entries, size_t n, uint8_t* out) {
  ContainerList containers;
  SummarizePieces(entries, n, &containers);
  uint8_t* body = WriteJavaRoaringHead(containers.data(), containers.size(), out);
  size_t k = 0;         // the container being written
  uint8_t* at = body;   // where its next value or run goes
  bool started = false;
  ForEachPiece(entries, n, [&](uint32_t first, uint32_t last) {
    if (!started || containers.data()[k].key != (first >> 16)) {
      if (started) body += containers.data()[k++].bytes;
      started = true;
      const ContainerInfo& c = containers.data()[k];
      at = body;
      if (c.kind == ContainerKind::kBitmap) std::fill(body, body + kBitmapBytes, uint8_t{0});
      if (c.kind == ContainerKind::kRun) {
        io::StoreU16LE(at, static_cast<uint16_t>(c.runs));
        at += 2;
      }
    }
    const uint32_t low = first & 0xFFFFu, high_low = last & 0xFFFFu;
    switch (containers.data()[k].kind) {
      case ContainerKind::kArray:
        for (uint32_t v = low; v <= high_low; ++v, at += 2) io::StoreU16LE(at, static_cast<uint16_t>(v));
        break;
      case ContainerKind::kBitmap:
        for (uint32_t v = low; v <= high_low; ++v) body[v >> 3] |= static_cast<uint8_t>(1u << (v & 7));
        break;
      case ContainerKind::kRun:
        io::StoreU16LE(at, static_cast<uint16_t>(low));
        io::StoreU16LE(at + 2, static_cast<uint16_t>(high_low - low));
        at += 4;
        break;
    }
  });
}

}  // namespace pyfileindex::index::bitmap
