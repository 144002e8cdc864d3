# Make sure the CRoaring amalgamation is present in cpp/third_party/croaring/.
#
# It is not committed: cmake/fetch_croaring.py takes it from the pinned pyroaring sdist. An
# sdist of pyfileindex already contains the files, so a build from it never runs the script.
set(PYFILEINDEX_CROARING_DIR "${PROJECT_SOURCE_DIR}/cpp/third_party/croaring")

set(_croaring_missing FALSE)
foreach(_croaring_file roaring.c roaring.h LICENSE)
  if(NOT EXISTS "${PYFILEINDEX_CROARING_DIR}/${_croaring_file}")
    set(_croaring_missing TRUE)
  endif()
endforeach()

if(_croaring_missing)
  if(NOT Python3_Interpreter_FOUND)
    message(FATAL_ERROR
      "CRoaring is missing from ${PYFILEINDEX_CROARING_DIR} and no Python 3 interpreter was "
      "found to run cmake/fetch_croaring.py. Run `python3 cmake/fetch_croaring.py` by hand.")
  endif()
  message(STATUS "CRoaring not found: running cmake/fetch_croaring.py")
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/fetch_croaring.py"
            --dest "${PYFILEINDEX_CROARING_DIR}"
    RESULT_VARIABLE _croaring_result)
  if(NOT _croaring_result EQUAL 0)
    message(FATAL_ERROR
      "cmake/fetch_croaring.py failed (${_croaring_result}): could not vendor CRoaring into "
      "${PYFILEINDEX_CROARING_DIR}. It needs pip and access to the Python package index to "
      "download the pinned pyroaring sdist; see the messages above.")
  endif()
endif()

# Re-run configure if someone deletes the vendored files.
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PYFILEINDEX_CROARING_DIR}/roaring.h")
