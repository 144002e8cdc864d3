#include "memory/page_block.h"

#include <cstdlib>
#include <utility>

#include "memory/address_sanitizer.h"
#include "memory/huge_pages.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif


namespace pyfileindex::memory {

namespace {
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
constexpr size_t kCacheLine = 64;
constexpr size_t kRedZone = kAddressSanitizer ? kCacheLine : 0;
}  // namespace

PageBlock::~PageBlock() { Free(); }

PageBlock::PageBlock(PageBlock&& other) noexcept { *this = std::move(other); }

PageBlock& PageBlock::operator=(PageBlock&& other) noexcept {
  if (this != &other) {
    Free();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    taken_ = std::exchange(other.taken_, 0);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_size_ = std::exchange(other.mapping_size_, 0);
  }
  return *this;
}

size_t PageBlock::RoomSize(size_t bytes) {
  return ((bytes + kCacheLine - 1) & ~(kCacheLine - 1)) + kRedZone;
}

PageBlock PageBlock::Allocate(size_t size) {
  PageBlock block;
  if (size == 0) return block;
#if defined(__linux__)
  // Mapped with a huge page of slack, so the block can start on a huge-page boundary: only
  // whole, aligned huge pages can back it. Pages never touched cost nothing.
  const bool huge = size >= kAdviseHugePagesMinBytes;
  const size_t mapped = huge ? size + kHugePage : size;
  void* mapping = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return block;
  uintptr_t start = reinterpret_cast<uintptr_t>(mapping);
  if (huge) start = (start + kHugePage - 1) & ~(kHugePage - 1);
  block.data_ = reinterpret_cast<uint8_t*>(start);
  if (huge) AdviseHugePages(block.data_, size);
#else
  void* mapping = std::calloc(size, 1);
  if (mapping == nullptr) return block;
  const size_t mapped = size;
  block.data_ = static_cast<uint8_t*>(mapping);
#endif
  block.mapping_ = mapping;
  block.mapping_size_ = mapped;
  block.size_ = size;
  return block;
}

uint8_t* PageBlock::Take(size_t bytes) {
  const size_t room = RoomSize(bytes);
  if (data_ == nullptr || room > size_ - taken_) return nullptr;
  uint8_t* out = data_ + taken_;
  taken_ += room;
  PoisonRegion(out + room - kRedZone, kRedZone);
  return out;
}

void PageBlock::Free() {
  if (mapping_ == nullptr) return;
  UnpoisonRegion(data_, size_);  // the next mapping here must not inherit the red zones
#if defined(__linux__)
  munmap(mapping_, mapping_size_);
#else
  std::free(mapping_);
#endif
  mapping_ = nullptr;
  data_ = nullptr;
  size_ = taken_ = mapping_size_ = 0;
}

}  // namespace pyfileindex::memory
