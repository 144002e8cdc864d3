// Huge pages for large blocks that are about to be written from start to end.
//
// Building a large index writes many MiB into fresh memory (the container a Python `bytes`
// holds, the row bodies of a bitmap writer). On 4 KiB pages the first write to each page is a
// fault, and in a virtual machine a costly one; a 2 MiB page takes one fault for 512 of them. Only the whole huge pages inside a block are advised, so memory outside it
// is never affected; where transparent huge pages are off (or on another system) nothing
// changes. PYFILEINDEX_HUGE_PAGES=off in the environment turns the advice off.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyfileindex::memory {

// Blocks smaller than this are left alone: too few whole huge pages fit inside.
constexpr size_t kAdviseHugePagesMinBytes = size_t{4} << 20;

// Whether a PYFILEINDEX_HUGE_PAGES value (nullptr: unset) lets blocks use huge pages: all
// but off, 0, never and false. On a host whose huge pages are scarce the kernel compacts
// memory to make one, which can cost more than the faults it saves.
bool HugePagesAllowedBy(const char* setting);

// Advises MADV_HUGEPAGE for the 2 MiB-aligned part of [data, data + size), for memory this
// library mapped itself. Call before the block is first written. A no-op where unsupported.
void AdviseHugePages(void* data, size_t size);

// Takes the huge-page advice back from the 2 MiB-aligned part of [data, data + size), for a
// part of an advised block that will be written out of order after all: there a huge page
// becomes resident on its first touched byte, and scattered writes would fault in the whole
// block at once instead of as it fills. A no-op where unsupported.
void WithdrawHugePages(void* data, size_t size);

// Huge pages for a block someone else allocated (the caller's output buffer), for as long as
// this object lives: the advice is withdrawn at the end, so once the block is freed and its
// addresses reused, the caller's memory is backed as it would have been. Only where the kernel
// uses huge pages on advice alone (THP "madvise"): with "always" they are used anyway.
class ScopedHugePages {
 public:
  ScopedHugePages(void* data, size_t size);
  ~ScopedHugePages();
  ScopedHugePages(const ScopedHugePages&) = delete;
  ScopedHugePages& operator=(const ScopedHugePages&) = delete;

 private:
  uintptr_t begin_ = 0;
  uintptr_t end_ = 0;  // begin_ == end_: nothing advised
};

}  // namespace pyfileindex::memory
