# `cmake --install` rules of the C++ package that query engines link against:
#   include/pyfileindex/*.h                      the public API (no CRoaring, no internal header)
#   lib/libpyfileindex.a, lib/libpyfileindex.so  static and shared library
#   lib/cmake/pyfileindex/                       pyfileindexConfig.cmake, version file, targets
#   share/doc/pyfileindex/                       CRoaring's license (it is compiled into both)
# An engine then writes:
#   find_package(pyfileindex CONFIG REQUIRED)
#   target_link_libraries(engine PRIVATE pyfileindex::pyfileindex)
# pyfileindex::pyfileindex is the shared library, or the static one when the engine sets
# PYFILEINDEX_USE_STATIC_LIBS=ON; pyfileindex::pyfileindex_shared / _static name one directly.
include(CMakePackageConfigHelpers)

set(PYFILEINDEX_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/pyfileindex")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/cpp/include/pyfileindex"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT pyfileindex_cpp
  FILES_MATCHING PATTERN "*.h")

install(TARGETS pyfileindex_core pyfileindex_shared
  EXPORT pyfileindexTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT pyfileindex_cpp
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT pyfileindex_cpp
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT pyfileindex_cpp)

install(EXPORT pyfileindexTargets
  NAMESPACE pyfileindex::
  DESTINATION "${PYFILEINDEX_CMAKE_INSTALL_DIR}"
  COMPONENT pyfileindex_cpp)

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/pyfileindexConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/pyfileindexConfig.cmake"
  INSTALL_DESTINATION "${PYFILEINDEX_CMAKE_INSTALL_DIR}")
# 0.x: only the same minor version is compatible (the API may still change between minors).
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/package/pyfileindexConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/package/pyfileindexConfig.cmake"
  "${PROJECT_BINARY_DIR}/package/pyfileindexConfigVersion.cmake"
  DESTINATION "${PYFILEINDEX_CMAKE_INSTALL_DIR}"
  COMPONENT pyfileindex_cpp)

install(FILES "${PYFILEINDEX_CROARING_DIR}/LICENSE"
  DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/pyfileindex"
  RENAME LICENSE-CRoaring
  COMPONENT pyfileindex_cpp)
