# docs/extending.md's code, built into its test (tests/docs/extending_test.cpp),
# so the walkthrough cannot drift from the library. At configure time (and
# again whenever the page changes) every fenced block that starts
#   ```cpp
#   // file: PATH
# is written to ${CMAKE_CURRENT_BINARY_DIR}/docs_extending/PATH (rewritten only
# when its text changed, so an unchanged page rebuilds nothing); the .cpp
# files among them are compiled into test.docs, and the directory
# is on its include path so the blocks include each other by the paths the
# page gives them.
set(BANKCHECK_EXTENDING_DOC ${PROJECT_SOURCE_DIR}/docs/extending.md)
set(BANKCHECK_EXTENDING_DIR ${CMAKE_CURRENT_BINARY_DIR}/docs_extending)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${BANKCHECK_EXTENDING_DOC})

function(bankcheck_extract_doc_code doc out_dir sources_var)
  file(READ ${doc} text)
  set(marker "```cpp\n// file: ")
  string(LENGTH "${marker}" marker_length)
  set(sources)
  while(TRUE)
    string(FIND "${text}" "${marker}" at)
    if(at EQUAL -1)
      break()
    endif()
    math(EXPR path_at "${at} + ${marker_length}")
    string(SUBSTRING "${text}" ${path_at} -1 text)
    string(FIND "${text}" "\n" eol)
    string(SUBSTRING "${text}" 0 ${eol} path)
    if(path MATCHES "\\.\\." OR path MATCHES "^/")
      message(FATAL_ERROR "${doc}: code block file '${path}' must be a relative path inside the build tree")
    endif()
    string(FIND "${text}" "\n```" end)
    if(end EQUAL -1)
      message(FATAL_ERROR "${doc}: the code block of '${path}' is not closed")
    endif()
    math(EXPR body_length "${end} + 1")
    string(SUBSTRING "${text}" 0 ${body_length} body)  # from PATH through the block's last newline
    file(WRITE ${out_dir}/${path}.new "// file: ${body}")
    file(COPY_FILE ${out_dir}/${path}.new ${out_dir}/${path} ONLY_IF_DIFFERENT)
    file(REMOVE ${out_dir}/${path}.new)
    if(path MATCHES "\\.cpp$")
      list(APPEND sources ${out_dir}/${path})
    endif()
    math(EXPR next "${end} + 4")
    string(SUBSTRING "${text}" ${next} -1 text)
  endwhile()
  set(${sources_var} ${sources} PARENT_SCOPE)
endfunction()

bankcheck_extract_doc_code(${BANKCHECK_EXTENDING_DOC} ${BANKCHECK_EXTENDING_DIR} BANKCHECK_EXTENDING_SOURCES)
target_sources(test.docs PRIVATE ${BANKCHECK_EXTENDING_SOURCES})
target_include_directories(test.docs PRIVATE ${BANKCHECK_EXTENDING_DIR})
target_compile_definitions(test.docs PRIVATE
  BANKCHECK_EXTENDING_DIR="${BANKCHECK_EXTENDING_DIR}"
  BANKCHECK_EXTENDING_REGISTRATION="${BANKCHECK_EXTENDING_DIR}/sim/algorithms/registered_algorithms.def")
