# Tests of pyfileindex as an engine links it (included from cpp/CMakeLists.txt when both the
# tests and the C++ package are built):
#   EmbeddingOwnCRoaring.{static,shared}  a program with its OWN CRoaring (the amalgamation
#                                         compiled again under its real names) linked beside
#                                         pyfileindex: no duplicate symbols, both work
#   ExportedSymbols.{static,shared}       nm: no CRoaring name and (shared) no internal symbol
#                                         leaves the libraries
#   CppPackage.install, CppEngineExample.{shared,static}
#                                         `cmake --install` into a prefix, then
#                                         examples/cpp_engine configured with find_package,
#                                         built and run against it, its output compared
set(_golden_index "${PROJECT_SOURCE_DIR}/../shared/golden/paimon-java-tables/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding/bucket-0/data-783929b2-49d4-4006-a898-194a62e3278d-0.parquet.index")

# The engine's copy of CRoaring: plain names, no prefix header. -O0: it only has to link and run.
add_library(pyfileindex_engine_croaring OBJECT "${PYFILEINDEX_CROARING_SOURCE}")
target_compile_options(pyfileindex_engine_croaring PRIVATE -O0)

set(_embedding_libraries static pyfileindex_core shared pyfileindex_shared)
foreach(_kind static shared)
  list(FIND _embedding_libraries ${_kind} _index)
  math(EXPR _index "${_index} + 1")
  list(GET _embedding_libraries ${_index} _library)

  set(_program pyfileindex_own_croaring_${_kind})
  add_executable(${_program}
    "${CMAKE_CURRENT_SOURCE_DIR}/tests/embedding/own_croaring_engine.cc"
    $<TARGET_OBJECTS:pyfileindex_engine_croaring>)
  # The engine sees CRoaring's header and pyfileindex's public headers, nothing else.
  target_include_directories(${_program} PRIVATE "${PYFILEINDEX_CROARING_DIR}")
  target_compile_options(${_program} PRIVATE -Wall -Wextra)
  target_link_libraries(${_program} PRIVATE ${_library} ${CMAKE_DL_LIBS})
  add_test(NAME EmbeddingOwnCRoaring.${_kind} COMMAND ${_program} "${_golden_index}")

  add_test(NAME ExportedSymbols.${_kind}
    COMMAND "${CMAKE_COMMAND}" "-DNM=${CMAKE_NM}" "-DKIND=${_kind}"
            "-DLIBRARY=$<TARGET_FILE:${_library}>"
            "-DCROARING_SYMBOLS=${PYFILEINDEX_CROARING_SYMBOLS_FILE}"
            -P "${PROJECT_SOURCE_DIR}/cmake/CheckExportedSymbols.cmake")
endforeach()

string(JOIN " " _sanitize_flags_string ${_pyfileindex_sanitize_flags})
# A cross build runs the example under its emulator (a list: "|" keeps it one argument).
set(_example_emulator "")
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  string(REPLACE ";" "|" _example_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
endif()
set(_example_prefix "${PROJECT_BINARY_DIR}/cpp-package-test/install")
set(_example_args
  "-DPREFIX=${_example_prefix}"
  "-DMAIN_BUILD_DIR=${PROJECT_BINARY_DIR}"
  "-DEXAMPLE_SOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/cpp_engine"
  "-DEXAMPLE_BUILD_ROOT=${PROJECT_BINARY_DIR}/cpp-package-test"
  "-DGENERATOR=${CMAKE_GENERATOR}"
  "-DCXX_COMPILER=${CMAKE_CXX_COMPILER}"
  "-DSANITIZE_FLAGS=${_sanitize_flags_string}"
  "-DOBJDUMP=${CMAKE_OBJDUMP}"
  "-DGOLDEN_INDEX=${_golden_index}"
  "-DEMULATOR=${_example_emulator}")
add_test(NAME CppPackage.install
  COMMAND "${CMAKE_COMMAND}" ${_example_args} -DSTEP=install
          -P "${PROJECT_SOURCE_DIR}/cmake/CppExampleTest.cmake")
set_tests_properties(CppPackage.install PROPERTIES FIXTURES_SETUP pyfileindex_cpp_package)
foreach(_linkage shared static)
  add_test(NAME CppEngineExample.${_linkage}
    COMMAND "${CMAKE_COMMAND}" ${_example_args} -DSTEP=example -DLINKAGE=${_linkage}
            -P "${PROJECT_SOURCE_DIR}/cmake/CppExampleTest.cmake")
  set_tests_properties(CppEngineExample.${_linkage} PROPERTIES
    FIXTURES_REQUIRED pyfileindex_cpp_package)
endforeach()
