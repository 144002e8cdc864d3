#include "roaring/frozen_copy.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "io/endian.h"
#include "roaring/checked_alloc.h"
#include "roaring/portable_header.h"
#include "roaring/portable_layout.h"

namespace pyfileindex::roaring {

using namespace ::roaring::internal;  // CRoaring's container layer

namespace {

constexpr size_t kWordAlign = alignof(uint64_t);

constexpr size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// The block: the bitmap, then a struct per container, the container pointers, the keys and the
// type codes (CRoaring's roaring_array_t reads these three as arrays), then the bodies.
struct BlockHead {
  static constexpr size_t kSlot = RoundUp(
      std::max({sizeof(array_container_t), sizeof(bitset_container_t), sizeof(run_container_t)}),
      kWordAlign);
  size_t structs = RoundUp(sizeof(roaring_bitmap_t), kWordAlign);
  size_t pointers = 0;
  size_t keys = 0;
  size_t typecodes = 0;
  size_t bytes = 0;  // up to the first body, which starts on a word boundary

  explicit BlockHead(size_t n) {
    pointers = structs + kSlot * n;
    keys = pointers + sizeof(container_t*) * n;
    typecodes = keys + sizeof(uint16_t) * n;
    bytes = RoundUp(typecodes + n, kWordAlign);
  }
};

// Walks the bodies in order, calling place(i, from, to, bytes) with each body's offset in the
// portable bytes and in the block: bodies follow each other, except that a bitmap container
// whose words would land off a word boundary is moved up to the next one. Returns the block's
// size, or 0 if a body overruns `size`.
template <typename Place>
size_t PlaceBodies(const PortableHeader& head, const uint8_t* data, size_t size,
                   size_t first, Place&& place) {
  size_t from = head.bodies;
  size_t to = first;
  for (size_t i = 0; i < head.count; ++i) {
    size_t body = 0;
    if (head.IsRun(i)) {
      if (from + 2 > size) return 0;
      body = 2 + 4 * size_t{io::LoadU16LE(data + from)};
    } else if (head.Cardinality(i) > kArrayMaxValues) {
      body = kBitmapBytes;
      to = RoundUp(to, kWordAlign);
    } else {
      body = 2 * size_t{head.Cardinality(i)};
    }
    if (body > size - from) return 0;
    place(i, from, to, body);
    from += body;
    to += body;
  }
  return to;
}

}  // namespace

roaring_bitmap_t* FreezeCopyOf(const uint8_t* data, size_t size) {
  if (!io::endian_internal::kHostIsLittleEndian) return nullptr;
  Result<PortableHeader> read = PortableHeader::Read(data, size);
  if (!read.ok()) return nullptr;
  const PortableHeader& head = *read;
  const BlockHead block(head.count);
  const size_t bytes = PlaceBodies(head, data, size, block.bytes, [](size_t, size_t, size_t,
                                                                     size_t) {});
  if (bytes == 0) return nullptr;

  auto* base = static_cast<uint8_t*>(Checked(roaring_malloc(bytes)));
  auto* bitmap = reinterpret_cast<roaring_bitmap_t*>(base);
  roaring_array_t& ra = bitmap->high_low_container;
  ra.size = static_cast<int32_t>(head.count);
  ra.allocation_size = static_cast<int32_t>(head.count);
  ra.containers = reinterpret_cast<container_t**>(base + block.pointers);
  ra.keys = reinterpret_cast<uint16_t*>(base + block.keys);
  ra.typecodes = base + block.typecodes;
  ra.flags = ROARING_FLAG_FROZEN;
  // Bodies that follow each other in both places are copied together.
  size_t stretch_from = 0;
  size_t stretch_to = 0;
  size_t stretch_bytes = 0;
  PlaceBodies(head, data, size, block.bytes, [&](size_t i, size_t from, size_t to, size_t body) {
    if (stretch_from + stretch_bytes != from || stretch_to + stretch_bytes != to) {
      if (stretch_bytes != 0) std::memcpy(base + stretch_to, data + stretch_from, stretch_bytes);
      stretch_from = from;
      stretch_to = to;
      stretch_bytes = 0;
    }
    stretch_bytes += body;

    uint8_t* slot = base + block.structs + BlockHead::kSlot * i;
    const uint8_t* source = data + from;
    uint8_t* place = base + to;
    const auto cardinality = static_cast<int32_t>(head.Cardinality(i));
    ra.keys[i] = head.Key(i);
    if (head.IsRun(i)) {
      auto* run = new (slot) run_container_t;
      run->n_runs = io::LoadU16LE(source);
      run->capacity = run->n_runs;  // a copy of the container allocates this many runs
      run->runs = reinterpret_cast<rle16_t*>(place + 2);
      ra.typecodes[i] = RUN_CONTAINER_TYPE;
      ra.containers[i] = run;
    } else if (cardinality > static_cast<int32_t>(kArrayMaxValues)) {
      auto* words = new (slot) bitset_container_t;
      words->cardinality = cardinality;
      words->words = reinterpret_cast<uint64_t*>(place);
      ra.typecodes[i] = BITSET_CONTAINER_TYPE;
      ra.containers[i] = words;
    } else {
      auto* array = new (slot) array_container_t;
      array->cardinality = cardinality;
      array->capacity = cardinality;
      array->array = reinterpret_cast<uint16_t*>(place);
      ra.typecodes[i] = ARRAY_CONTAINER_TYPE;
      ra.containers[i] = array;
    }
  });
  if (stretch_bytes != 0) std::memcpy(base + stretch_to, data + stretch_from, stretch_bytes);
  return bitmap;
}

roaring_bitmap_t* CopyFrozen(const roaring_bitmap_t* frozen) {
  const roaring_array_t& ra = frozen->high_low_container;
  const auto* old_base = reinterpret_cast<const uint8_t*>(frozen);
  // The last body ends the block (bodies keep their order; padding only precedes them).
  size_t bytes = BlockHead(static_cast<size_t>(ra.size)).bytes;
  if (ra.size > 0) {
    const size_t last = static_cast<size_t>(ra.size) - 1;
    const container_t* c = ra.containers[last];
    const uint8_t* end = nullptr;
    switch (ra.typecodes[last]) {
      case RUN_CONTAINER_TYPE: {
        const auto* run = static_cast<const run_container_t*>(c);
        end = reinterpret_cast<const uint8_t*>(run->runs + run->n_runs);
        break;
      }
      case BITSET_CONTAINER_TYPE:
        end = reinterpret_cast<const uint8_t*>(static_cast<const bitset_container_t*>(c)->words) +
              kBitmapBytes;
        break;
      default: {
        const auto* array = static_cast<const array_container_t*>(c);
        end = reinterpret_cast<const uint8_t*>(array->array + array->cardinality);
      }
    }
    bytes = static_cast<size_t>(end - old_base);
  }
  auto* base = static_cast<uint8_t*>(Checked(roaring_malloc(bytes)));
  std::memcpy(base, old_base, bytes);
  // Every pointer within the block moves with it; offsets from the block's start (a multiple
  // of 8 either way) keep the words aligned.
  auto moved = [old_base, base](auto* pointer) {
    return reinterpret_cast<decltype(pointer)>(
        base + (reinterpret_cast<const uint8_t*>(pointer) - old_base));
  };
  auto* bitmap = reinterpret_cast<roaring_bitmap_t*>(base);
  roaring_array_t& copy = bitmap->high_low_container;
  copy.containers = moved(copy.containers);
  copy.keys = moved(copy.keys);
  copy.typecodes = moved(copy.typecodes);
  for (int32_t i = 0; i < copy.size; ++i) {
    copy.containers[i] = moved(copy.containers[i]);
    container_t* c = copy.containers[i];
    switch (copy.typecodes[i]) {
      case RUN_CONTAINER_TYPE: {
        auto* run = static_cast<run_container_t*>(c);
        run->runs = moved(run->runs);
        break;
      }
      case BITSET_CONTAINER_TYPE: {
        auto* words = static_cast<bitset_container_t*>(c);
        words->words = moved(words->words);
        break;
      }
      default: {
        auto* array = static_cast<array_container_t*>(c);
        array->array = moved(array->array);
      }
    }
  }
  return bitmap;
}

}  // namespace pyfileindex::roaring
