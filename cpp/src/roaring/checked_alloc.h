// CRoaring reports allocation failure with NULL; the library's convention is std::bad_alloc
// (caught at the API boundary), as for every other allocation.
#pragma once

#include <new>

namespace pyfileindex::roaring {

template <typename T>
T* Checked(T* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace pyfileindex::roaring
