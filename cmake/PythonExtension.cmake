# The Cython extension module pyfileindex._native, linked against pyfileindex_core.
#
# Cython runs as a custom command (the interpreter's own `-m cython`, so the build-isolation
# environment's Cython is used), writing C++ into the build tree.
set(_native_pyx "${PROJECT_SOURCE_DIR}/pyfileindex/_native.pyx")
set(_native_cpp "${CMAKE_CURRENT_BINARY_DIR}/pyfileindex/_native.cpp")

execute_process(
  COMMAND "${Python3_EXECUTABLE}" -c "import Cython; print(Cython.__version__)"
  OUTPUT_VARIABLE _cython_version OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _cython_result)
if(NOT _cython_result EQUAL 0)
  message(FATAL_ERROR "Cython is not importable by ${Python3_EXECUTABLE}; install cython>=3.0")
endif()
message(STATUS "Cython ${_cython_version}")

set(_cython_depfile_args)
set(_cython_depfile_option)
# Cython's depfile lists the .pxd/.pxi files it read, so editing them re-runs Cython.
if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
  set(_cython_depfile_args --depfile)
  set(_cython_depfile_option DEPFILE "${_native_cpp}.dep")
endif()

add_custom_command(
  OUTPUT "${_native_cpp}"
  COMMAND "${Python3_EXECUTABLE}" -m cython --cplus -3 ${_cython_depfile_args}
          -I "${PROJECT_SOURCE_DIR}" --output-file "${_native_cpp}" "${_native_pyx}"
  DEPENDS "${_native_pyx}"
  ${_cython_depfile_option}
  COMMENT "Cythonizing pyfileindex/_native.pyx"
  VERBATIM)

Python3_add_library(_native MODULE WITH_SOABI "${_native_cpp}")
# The suffix scikit-build-core packages (it follows SETUPTOOLS_EXT_SUFFIX when cross-compiling);
# FindPython's SOABI is always the build machine interpreter's.
if(SKBUILD_SOABI)
  set_property(TARGET _native PROPERTY SUFFIX ".${SKBUILD_SOABI}${CMAKE_SHARED_MODULE_SUFFIX}")
endif()
target_link_libraries(_native PRIVATE pyfileindex_core)
# Generated code: Cython's output is not ours to warn about.
target_compile_options(_native PRIVATE -w)
set_target_properties(_native PROPERTIES
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  # Export PyInit__native only: the static core's symbols (CRoaring's roaring_* among them)
  # and a statically linked C++ runtime stay out of the module's dynamic symbol table, so they
  # can never clash with another module's copy (pyroaring, pyarrow's libstdc++). A version
  # script rather than --exclude-libs, which zig's linker (the portable wheel) does not know.
  set(_native_version_script "${CMAKE_CURRENT_BINARY_DIR}/pyfileindex/_native.map")
  # CONFIGURE writes only when the text changes, so a reconfigure does not relink.
  file(CONFIGURE OUTPUT "${_native_version_script}"
       CONTENT "{\n  global: PyInit__native;\n  local: *;\n};\n")
  target_link_options(_native PRIVATE "LINKER:--version-script=${_native_version_script}")
  set_property(TARGET _native APPEND PROPERTY LINK_DEPENDS "${_native_version_script}")
endif()

install(TARGETS _native LIBRARY DESTINATION pyfileindex)
