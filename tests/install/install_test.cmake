# ctest: the installed package (tests/install/prefix.cmake installed it into
# PREFIX), used by tests/install/consumer as another project would, with
# the packages bankcheck::model does not need hidden from CMake (Eigen3,
# Graphviz, nlohmann_json, MPI):
#  1. find_package(bankcheck COMPONENTS model): configures, builds, runs;
#  2. find_package(bankcheck) without components: the same, and CMake says
#     which layers are not available and which package each lacks;
#  3. find_package(bankcheck COMPONENTS proofs), with Eigen3's package folder
#     (EIGEN3_DIR) out of CMake's sight as if Eigen were not installed,
#     fails, naming "Eigen3".
# Any failing step fails the test.
cmake_minimum_required(VERSION 3.25)  # if(IN_LIST) and the other policies of the project
foreach(var PREFIX SOURCE_DIR WORK_DIR EIGEN3_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_test.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(hidden)
foreach(package Eigen3 Graphviz nlohmann_json MPI)
  list(APPEND hidden -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON)
endforeach()
function(step expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(expect STREQUAL "passes" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  elseif(expect STREQUAL "fails" AND rc EQUAL 0)
    message(FATAL_ERROR "passed, but must fail: ${ARGN}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()
function(consumer name)
  set(build ${WORK_DIR}/${name})
  step(passes ${CMAKE_COMMAND} --no-warn-unused-cli -S ${SOURCE_DIR}/tests/install/consumer -B ${build} -G Ninja
       -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${PREFIX} ${hidden} ${ARGN})
  set(step_output "${step_output}" PARENT_SCOPE)
  step(passes ${CMAKE_COMMAND} --build ${build})
  step(passes ${build}/count_conflicts)
endfunction()

consumer(components "-DBANKCHECK_COMPONENTS=model")
consumer(all)
foreach(missing "bankcheck::proofs (needs Eigen3" "bankcheck::draw (needs Graphviz" "bankcheck::report (needs nlohmann_json")
  string(FIND "${step_output}" "${missing}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "find_package(bankcheck) without components did not say: ${missing}")
  endif()
endforeach()
step(fails ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${WORK_DIR}/proofs -G Ninja
     -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_IGNORE_PATH=${EIGEN3_DIR} -DBANKCHECK_COMPONENTS=proofs)
string(FIND "${step_output}" "\"Eigen3\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "find_package(bankcheck COMPONENTS proofs) without Eigen3 failed without saying so")
endif()
message("the consumer built and ran against bankcheck::model without Eigen3, Graphviz, nlohmann_json, MPI")
