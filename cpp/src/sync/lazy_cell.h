// LazyCell<T>: a value loaded on first use, at most once, safely from many threads. A failed
// load is remembered too, so corrupt bytes give the same Status on every call.
//
// Not std::call_once: glibc's pthread_once wakes possible waiters with a futex system call
// after every first run, so a reader opened per query (one evaluate per data file) paid a
// system call for each part it loaded, a third of a point query on a small range-bitmap. Here
// a filled cell is one acquire load, and filling it takes an uncontended mutex, which enters
// the kernel only when another thread is waiting for the same cell.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "pyfileindex/status.h"

namespace pyfileindex::sync {

template <typename T>
class LazyCell {
 public:
  // `load` returns Result<T>; it runs only on the first call (again only if it threw).
  template <typename Load>
  Result<const T*> Get(Load&& load) const {
    if (!filled_.load(std::memory_order_acquire)) Fill(load);
    if (!status_.ok()) return status_;
    return &*value_;
  }

 private:
  template <typename Load>
  void Fill(Load& load) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (filled_.load(std::memory_order_relaxed)) return;  // another thread filled it
    Result<T> loaded = load();
    if (loaded.ok()) {
      value_.emplace(std::move(loaded).ValueOrDie());
    } else {
      status_ = loaded.status();
    }
    filled_.store(true, std::memory_order_release);
  }

  mutable std::atomic<bool> filled_{false};
  mutable std::mutex mutex_;
  mutable Status status_;
  mutable std::optional<T> value_;
};

}  // namespace pyfileindex::sync
