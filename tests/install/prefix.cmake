# ctest fixture: install the built bankcheck into a scratch prefix inside the
# build tree (emptied first, so that a header removed from the tree is not
# still found installed), for the tests of tests/install/.
cmake_minimum_required(VERSION 3.25)  # if(IN_LIST) and the other policies of the project
foreach(var BUILD_DIR PREFIX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "prefix.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc}): ${err}")
endif()
message("installed into ${PREFIX}")
