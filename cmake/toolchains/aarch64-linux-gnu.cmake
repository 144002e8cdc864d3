# Cross-compile for aarch64 Linux (glibc) with Debian's cross toolchain, and run what ctest
# starts (the tests, and gtest_discover_tests listing them) under qemu user-mode emulation.
#
# Debian packages: g++-aarch64-linux-gnu (compilers, binutils and the target's libc under
# /usr/aarch64-linux-gnu) and qemu-user (qemu-aarch64). `./dev cross-test aarch64` installs
# them and uses this file.
#
# GoogleTest: Debian's libgtest-dev is for the build machine; a cross build compiles it from
# the sources of the `googletest` package (see PYFILEINDEX_GTEST_SOURCE_DIR in cpp/CMakeLists.txt).

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(_pfi_triple aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${_pfi_triple}-gcc)
set(CMAKE_CXX_COMPILER ${_pfi_triple}-g++)

# The target's libraries and headers live here (not in a full sysroot: the cross compiler
# already knows where they are, so CMAKE_SYSROOT stays unset).
set(_pfi_target_root /usr/${_pfi_triple})
set(CMAKE_FIND_ROOT_PATH ${_pfi_target_root})
# Programs found (python3) run on the build machine; libraries, headers and packages must be
# the target's. CMake takes nm and objdump from the compiler's prefix (aarch64-linux-gnu-nm).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# qemu-aarch64 finds the target's dynamic loader and shared libraries under -L.
find_program(PYFILEINDEX_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(PYFILEINDEX_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${PYFILEINDEX_QEMU_AARCH64};-L;${_pfi_target_root}")
else()
  message(WARNING "qemu-aarch64 not found (Debian package qemu-user): the aarch64 build "
                  "works, but ctest cannot run its tests here")
endif()
