#include "pyfileindex/build_info.h"

#include "cpu/cpu_features.h"
#include "roaring.h"

#ifndef PYFILEINDEX_VERSION
#error "PYFILEINDEX_VERSION must be defined by the build (see cpp/CMakeLists.txt)"
#endif

namespace pyfileindex {

const char* LibraryVersion() { return PYFILEINDEX_VERSION; }

// Read from the header this library was compiled against, so it names the CRoaring that is
// actually linked in (the amalgamation is built into pyfileindex_core).
const char* CRoaringVersion() { return ROARING_VERSION; }

const char* SimdLevelInUse() { return cpu::SimdLevelName(cpu::Features().Level()); }

}  // namespace pyfileindex
