/// @file
/// Build facts the library can report about itself (shown by the Python package and CLI).
#pragma once

#include "pyfileindex/export.h"

namespace pyfileindex {

/// The pyfileindex version this library was built as (from pyproject.toml), e.g. "0.1.0".
/// A static string; never null.
PYFILEINDEX_EXPORT const char* LibraryVersion();

/// The version of the CRoaring compiled into this library (its ROARING_VERSION), e.g. "5.2.2".
/// That copy is private (its symbols are renamed), so it is independent of any CRoaring the
/// calling program links.
PYFILEINDEX_EXPORT const char* CRoaringVersion();

/// The widest SIMD kernels this process uses, chosen at run time from the CPU (and lowered
/// by the PYFILEINDEX_SIMD environment variable when set): "scalar", "avx2", "avx512" or
/// "avx512-icelake". Always "scalar" off x86-64. A static string; never null.
PYFILEINDEX_EXPORT const char* SimdLevelInUse();

}  // namespace pyfileindex
