/// @file
/// PYFILEINDEX_EXPORT: marks the public API of the pyfileindex library.
///
/// The library is compiled with hidden symbol visibility, so its shared library exports only
/// what carries this mark (the public classes and functions of this include directory) and
/// nothing of its internals or of the CRoaring copy inside it.
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
// Windows: import from the DLL unless the library itself is being built or linked statically.
#if defined(PYFILEINDEX_STATIC)
#define PYFILEINDEX_EXPORT
#elif defined(PYFILEINDEX_BUILDING)
#define PYFILEINDEX_EXPORT __declspec(dllexport)
#else
#define PYFILEINDEX_EXPORT __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
// The standard attribute form, so it can stand next to other standard attributes
// (`class [[nodiscard]] PYFILEINDEX_EXPORT Status`), which the __attribute__ form cannot.
#define PYFILEINDEX_EXPORT [[gnu::visibility("default")]]
#else
#define PYFILEINDEX_EXPORT
#endif
