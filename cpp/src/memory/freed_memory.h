// FreedMemory: hands memory freed while a container is assembled back to the operating system.
//
// A writer's rows move into the container key by key; glibc keeps freed heap blocks resident
// for reuse, so without this the rows and the finished container would be resident at the same
// time (twice the index). Trimming every few MiB of frees keeps the peak near one copy. On
// other C libraries this is a no-op.
#pragma once

#include <cstddef>

namespace pyfileindex::memory {

class FreedMemory {
 public:
  explicit FreedMemory(size_t trim_every_bytes = size_t{4} << 20)
      : trim_every_bytes_(trim_every_bytes) {}

  // `bytes` were just freed; trims once enough have accumulated since the last trim.
  void Add(size_t bytes) {
    pending_ += bytes;
    if (pending_ >= trim_every_bytes_) Trim();
  }
  // Trims now if anything was freed since the last trim.
  void Flush() {
    if (pending_ > 0) Trim();
  }

 private:
  void Trim();

  size_t trim_every_bytes_;
  size_t pending_ = 0;
};

}  // namespace pyfileindex::memory
