// LazyCell<T>: a value parsed on first use, at most once, safely from many threads. A failed
// load is remembered too, so corrupt bytes give the same Status on every call.
#pragma once

#include <mutex>
#include <optional>
#include <utility>

#include "pyfileindex/status.h"

namespace pyfileindex::index::range_bitmap {

template <typename T>
class LazyCell {
 public:
  // `load` returns Result<T>; it runs only on the first call.
  template <typename Load>
  Result<const T*> Get(Load&& load) const {
    std::call_once(once_, [&] {
      Result<T> loaded = load();
      if (loaded.ok()) {
        value_.emplace(std::move(loaded).ValueOrDie());
      } else {
        status_ = loaded.status();
      }
    });
    if (!status_.ok()) return status_;
    return &*value_;
  }

 private:
  mutable std::once_flag once_;
  mutable Status status_;
  mutable std::optional<T> value_;
};

}  // namespace pyfileindex::index::range_bitmap
