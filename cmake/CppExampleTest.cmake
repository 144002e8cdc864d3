# ctest script (cmake -P) for the installed C++ package, see cmake/EmbeddingTests.cmake.
#   STEP=install  fresh `cmake --install MAIN_BUILD_DIR --prefix PREFIX`; checks what landed
#   STEP=example  configures examples/cpp_engine against PREFIX with find_package (LINKAGE
#                 shared or static), builds it, runs it on GOLDEN_INDEX and compares its
#                 output with examples/cpp_engine/expected_output.txt; EMULATOR (its
#                 arguments separated by "|") runs it when the build is a cross build
cmake_minimum_required(VERSION 3.18)

function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${result}): ${command}\n${out}\n${err}")
  endif()
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")  # a fresh prefix: no stale header can make this pass
  run_checked("${CMAKE_COMMAND}" --install "${MAIN_BUILD_DIR}" --prefix "${PREFIX}")

  file(GLOB_RECURSE installed RELATIVE "${PREFIX}" "${PREFIX}/*")
  set(headers)
  foreach(path IN LISTS installed)
    if(path MATCHES "\\.h$")
      list(APPEND headers "${path}")
      if(NOT path MATCHES "^include/pyfileindex/[a-z_0-9]+\\.h$")
        message(FATAL_ERROR "a header outside include/pyfileindex/ was installed: ${path}")
      endif()
      # Quoted includes must name other public headers; <...> ones are the standard library.
      file(READ "${PREFIX}/${path}" text)
      if(text MATCHES "roaring\\.h")
        message(FATAL_ERROR "installed header ${path} mentions CRoaring's header")
      endif()
      string(REGEX MATCHALL "#include +\"[^\"]*\"" includes "${text}")
      foreach(include IN LISTS includes)
        if(NOT include MATCHES "\"pyfileindex/[a-z_0-9]+\\.h\"$")
          message(FATAL_ERROR "installed header ${path} has ${include}: not a public header")
        endif()
      endforeach()
    endif()
  endforeach()
  foreach(required include/pyfileindex/reader.h include/pyfileindex/writer.h
                   include/pyfileindex/export.h)
    if(NOT required IN_LIST headers)
      message(FATAL_ERROR "${required} was not installed (installed: ${installed})")
    endif()
  endforeach()
  foreach(pattern "libpyfileindex\\.a$" "libpyfileindex\\.so$"
                  "cmake/pyfileindex/pyfileindexConfig\\.cmake$"
                  "cmake/pyfileindex/pyfileindexConfigVersion\\.cmake$"
                  "cmake/pyfileindex/pyfileindexTargets\\.cmake$")
    set(found FALSE)
    foreach(path IN LISTS installed)
      if(path MATCHES "${pattern}")
        set(found TRUE)
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "nothing matching ${pattern} was installed: ${installed}")
    endif()
  endforeach()
  list(LENGTH headers header_count)
  message(STATUS "installed ${header_count} public headers and the package into ${PREFIX}")

elseif(STEP STREQUAL "example")
  if(LINKAGE STREQUAL "static")
    set(use_static ON)
  elseif(LINKAGE STREQUAL "shared")
    set(use_static OFF)
  else()
    message(FATAL_ERROR "LINKAGE must be shared or static, not '${LINKAGE}'")
  endif()
  set(build_dir "${EXAMPLE_BUILD_ROOT}/example-${LINKAGE}")
  file(REMOVE_RECURSE "${build_dir}")  # fresh: find_package must find the new prefix
  run_checked("${CMAKE_COMMAND}" -S "${EXAMPLE_SOURCE_DIR}" -B "${build_dir}" -G "${GENERATOR}"
              "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
              -DCMAKE_BUILD_TYPE=Release
              "-DCMAKE_PREFIX_PATH=${PREFIX}"
              -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
              "-DPYFILEINDEX_USE_STATIC_LIBS=${use_static}"
              "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}"
              "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
  file(STRINGS "${build_dir}/CMakeCache.txt" package_dir REGEX "^pyfileindex_DIR:")
  string(REGEX REPLACE "^[^=]*=" "" package_dir "${package_dir}")
  string(FIND "${package_dir}" "${PREFIX}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "find_package(pyfileindex) found '${package_dir}', not the package "
                        "installed under ${PREFIX}")
  endif()
  run_checked("${CMAKE_COMMAND}" --build "${build_dir}")

  set(program "${build_dir}/cpp_engine")
  if(OBJDUMP)
    # The executable needs libpyfileindex.so exactly when it was linked against the shared one.
    execute_process(COMMAND "${OBJDUMP}" -p "${program}" OUTPUT_VARIABLE headers RESULT_VARIABLE r)
    if(r EQUAL 0)
      string(REGEX MATCH "NEEDED +libpyfileindex" needs_shared "${headers}")
      if(use_static AND needs_shared)
        message(FATAL_ERROR "the static build of the example needs libpyfileindex.so")
      elseif(NOT use_static AND NOT needs_shared)
        message(FATAL_ERROR "the shared build of the example does not use libpyfileindex.so")
      endif()
    endif()
  endif()

  string(REPLACE "|" ";" emulator "${EMULATOR}")  # empty unless cross-compiled
  execute_process(COMMAND ${emulator} "${program}" "${GOLDEN_INDEX}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "cpp_engine exited with ${result}\nstdout:\n${output}\nstderr:\n${error}")
  endif()
  file(READ "${EXAMPLE_SOURCE_DIR}/expected_output.txt" expected)
  if(NOT output STREQUAL expected)
    message(FATAL_ERROR "cpp_engine printed\n${output}\nbut expected_output.txt says\n${expected}")
  endif()
  message(STATUS "examples/cpp_engine (${LINKAGE}) printed the expected output:\n${output}")
else()
  message(FATAL_ERROR "STEP must be install or example, not '${STEP}'")
endif()
