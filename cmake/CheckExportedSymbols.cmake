# ctest script (cmake -P): which symbols does a built pyfileindex library define for others?
#   -DNM=<nm> -DKIND=static|shared -DLIBRARY=<file> -DCROARING_SYMBOLS=<one name per line>
# Fails when
#   * any CRoaring symbol (from the list cmake/CRoaringPrefix.cmake made) or anything of
#     CRoaring's C++ namespace `roaring` is defined under its own name: an engine's CRoaring
#     would clash with it;
#   * static: a strong global symbol is not pyfileindex's own (C++ in namespace pyfileindex, or
#     a pyfileindex_-prefixed CRoaring name);
#   * shared: a strong exported symbol is not public API (pyfileindex::<CapitalisedName>...;
#     lower-case nested namespaces are internal), or the public API is missing.
cmake_minimum_required(VERSION 3.18)

if(KIND STREQUAL "static")
  set(nm_args -g --defined-only)
elseif(KIND STREQUAL "shared")
  set(nm_args -D --defined-only)
else()
  message(FATAL_ERROR "KIND must be static or shared")
endif()

file(STRINGS "${CROARING_SYMBOLS}" croaring_symbols)
list(LENGTH croaring_symbols croaring_count)
if(croaring_count LESS 100)
  message(FATAL_ERROR "${CROARING_SYMBOLS} lists only ${croaring_count} CRoaring symbols")
endif()

execute_process(COMMAND "${NM}" ${nm_args} "${LIBRARY}"
                OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result ERROR_VARIABLE nm_error)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} ${nm_args} ${LIBRARY} failed: ${nm_error}")
endif()

string(REPLACE "\n" ";" lines "${nm_output}")
set(problems)
set(names)
set(strong_count 0)
set(weak_count 0)
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-fA-F]+ +([A-Za-z]) +([^ ]+)$")
    continue()  # archive member headers, blank lines
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  list(APPEND names "${name}")
  if(name IN_LIST croaring_symbols)
    list(APPEND problems "CRoaring symbol under its own name: ${type} ${name}")
    continue()
  endif()
  if(name MATCHES "^_Z[A-Z]*N[KVRO]*7roaring")
    list(APPEND problems "CRoaring C++ symbol: ${type} ${name}")
    continue()
  endif()
  if(type MATCHES "^[WVu]$")
    math(EXPR weak_count "${weak_count} + 1")  # inline/template code, merged across objects
    continue()
  endif()
  math(EXPR strong_count "${strong_count} + 1")
  if(KIND STREQUAL "static")
    if(NOT name MATCHES "^pyfileindex_" AND NOT name MATCHES "^_Z.*N[KVRO]*11pyfileindex")
      list(APPEND problems "not pyfileindex's own symbol: ${type} ${name}")
    endif()
  else()
    if(name MATCHES "^(_init|_fini|_edata|_end|__bss_start)$")
      continue()
    endif()
    if(NOT name MATCHES "^_Z.*N[KVRO]*11pyfileindex[0-9]+[A-Z]")
      list(APPEND problems "exported but not public API: ${type} ${name}")
    endif()
  endif()
endforeach()

if(KIND STREQUAL "static")
  set(required "pyfileindex_roaring_bitmap_create" "15FileIndexReader4Open")
else()
  set(required "15FileIndexReader4Open" "15FileIndexWriter4Make" "9Predicate4Leaf"
               "9RowBitmap" "15FileIndexResult" "13ParseDataType" "14LibraryVersion")
endif()
foreach(fragment IN LISTS required)
  set(found FALSE)
  foreach(name IN LISTS names)
    string(FIND "${name}" "${fragment}" at)
    if(NOT at EQUAL -1)
      set(found TRUE)
      break()
    endif()
  endforeach()
  if(NOT found)
    list(APPEND problems "no defined symbol contains '${fragment}'")
  endif()
endforeach()

if(problems)
  list(LENGTH problems problem_count)
  string(REPLACE ";" "\n  " problem_text "${problems}")
  message(FATAL_ERROR "${LIBRARY}: ${problem_count} problem(s):\n  ${problem_text}")
endif()
message(STATUS "${LIBRARY}: ${strong_count} strong + ${weak_count} weak global symbols, "
               "none of CRoaring's ${croaring_count} names")
