#include "memory/huge_pages.h"

#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pyfileindex::memory {

namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// The whole huge pages inside [data, data + size): begin == end when there are none.
void HugePageRange(void* data, size_t size, uintptr_t* begin, uintptr_t* end) {
  *begin = *end = 0;
  if (data == nullptr || size < kAdviseHugePagesMinBytes) return;
  const uintptr_t first = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (reinterpret_cast<uintptr_t>(data) + size) & ~(kHugePage - 1);
  if (last > first) {
    *begin = first;
    *end = last;
  }
}

bool HugePagesAllowed() {
  static const bool allowed = HugePagesAllowedBy(std::getenv("PYFILEINDEX_HUGE_PAGES"));
  return allowed;
}

// THP mode "madvise": the kernel lists the modes with the chosen one in brackets ("always
// [madvise] never"). Read once: it is a machine setting.
bool HugePagesOnAdviceOnly() {
#if defined(__linux__)
  static const bool on_advice = [] {
    std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(setting, text);
    return text.find("[madvise]") != std::string::npos;
  }();
  return on_advice;
#else
  return false;
#endif
}

#if defined(__linux__)
// madvise(advice) on the whole huge pages inside [data, data + size), if any.
void AdviseWholeHugePages(void* data, size_t size, int advice) {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  HugePageRange(data, size, &begin, &end);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}
#endif

}  // namespace

bool HugePagesAllowedBy(const char* setting) {
  if (setting == nullptr) return true;
  const std::string value(setting);
  return !(value == "off" || value == "0" || value == "never" || value == "false");
}

void AdviseHugePages(void* data, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: a kernel without THP answers EINVAL and the block stays as it was.
  if (HugePagesAllowed()) AdviseWholeHugePages(data, size, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

void WithdrawHugePages(void* data, size_t size) {
#if defined(__linux__) && defined(MADV_NOHUGEPAGE)
  AdviseWholeHugePages(data, size, MADV_NOHUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

ScopedHugePages::ScopedHugePages(void* data, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  if (!HugePagesAllowed() || !HugePagesOnAdviceOnly()) return;
  HugePageRange(data, size, &begin_, &end_);
  if (end_ > begin_ &&
      madvise(reinterpret_cast<void*>(begin_), end_ - begin_, MADV_HUGEPAGE) != 0) {
    begin_ = end_ = 0;
  }
#else
  (void)data;
  (void)size;
#endif
}

ScopedHugePages::~ScopedHugePages() {
#if defined(__linux__) && defined(MADV_NOHUGEPAGE)
  // In "madvise" mode, "no huge pages" is what unadvised memory gets: the range is back to
  // the default for its next use. Pages already huge stay as they are (and fully written).
  if (end_ > begin_) madvise(reinterpret_cast<void*>(begin_), end_ - begin_, MADV_NOHUGEPAGE);
#endif
}

}  // namespace pyfileindex::memory
