// HeapTrim: whether a writer may hand the C library's free heap back to the system.
//
// The C library keeps freed blocks resident for reuse. After a writer frees many small blocks
// at once (a dictionary of many keys, the row lists of many rare keys), handing them back
// lowers the build's resident peak. But the heap is the whole process's: a trim walks, and
// shrinks, what every other part of an embedding program allocated too, and that program may
// have its own policy for it. So the caller decides (pyfileindex::WriterMemoryPolicy); a
// default HeapTrim never trims. Handing back the pages of the writer's own large blocks as it
// frees them (ReturnPages) touches nothing else and is always done.
#pragma once

#include "memory/return_pages.h"

namespace pyfileindex::memory {

class HeapTrim {
 public:
  constexpr HeapTrim() = default;
  constexpr explicit HeapTrim(bool allowed) : allowed_(allowed) {}

  constexpr bool allowed() const { return allowed_; }
  // Hands the free heap pages back to the system, when allowed.
  void Trim() const {
    if (allowed_) ReturnFreeHeapPages();
  }

 private:
  bool allowed_ = false;
};

}  // namespace pyfileindex::memory
