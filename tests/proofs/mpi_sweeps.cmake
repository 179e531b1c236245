# ctest driver: `bankcheck verify` and `bankcheck adversary --search` under
# `mpirun -n 2` and `-n 3` must print what one process prints (the verify
# certificate without its timing fields; the search's best input and text),
# with refuted claims among the selection so the first counterexample must
# survive the merge; a bad parameter fails every run (exit 2) without a result.
# -DCLI=... -DMPIRUN=... -DWORK_DIR=...
include(${CMAKE_CURRENT_LIST_DIR}/../sim/parallel/mpi_script.cmake)
mpi_script_setup(mpi_sweeps.cmake CLI MPIRUN WORK_DIR)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Runs `[mpirun -n N] bankcheck ARGS`; N = 1 runs one process.
function(run_bankcheck n out_var rc_var err_var)
  set(launcher)
  if(n GREATER 1)
    set(launcher ${MPIRUN} -n ${n})
  endif()
  execute_process(COMMAND ${launcher} ${CLI} ${ARGN} WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

# verify: holds, fails (mutations) and a finding, over a grid that puts
# several ranks' points before the first counterexample.
set(claims spaa.lemma1 spaa.gather.warp spaa.gather.warp.no_shift hipc.pbs_cf.offset_stride_2 hipc.corollary4.1)
foreach(n 1 2 3)
  run_bankcheck(${n} out rc err verify ${claims} --w 1..12 --E 1..12 --json --quiet --threads 1)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "verify on ${n} rank(s): exit ${rc} (expected 1: mutations fail): ${err}")
  endif()
  string(REGEX REPLACE "\"(seconds|threads|ranks)\": [0-9.e+-]+,?" "" out "${out}")
  if(n EQUAL 1)
    set(one "${out}")
    if(NOT one MATCHES "\"counterexample\": {")
      message(FATAL_ERROR "verify found no counterexample: the comparison would be vacuous\n${one}")
    endif()
  elseif(NOT out STREQUAL one)
    message(FATAL_ERROR "verify on ${n} ranks printed another certificate:\n${out}\n--- one process:\n${one}")
  endif()
endforeach()
message("verify: the same certificate on 1, 2 and 3 ranks")

# adversary --search: the chains are the unit of work, so the ranks do not change the result.
foreach(n 1 2 3)
  run_bankcheck(${n} out rc err adversary merge-warp w=8 E=4 --search --iterations 4000 --chains 5 --quiet
                -o best${n}.txt)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "adversary --search on ${n} rank(s): exit ${rc}: ${err}")
  endif()
  string(REPLACE "best${n}.txt" "BEST" out "${out}")
  file(READ ${WORK_DIR}/best${n}.txt best)
  if(n EQUAL 1)
    set(one "${out}")
    set(one_best "${best}")
  elseif(NOT out STREQUAL one OR NOT best STREQUAL one_best)
    message(FATAL_ERROR "adversary --search on ${n} ranks found another input:\n${out}\n--- one process:\n${one}")
  endif()
endforeach()
message("adversary --search: the same best input on 1, 2 and 3 ranks")

# A bad parameter: every run fails with the allowed range and prints no result.
foreach(n 1 3)
  run_bankcheck(${n} out rc err verify spaa.lemma1 --w 0..4 --quiet)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "1\\.\\.1048576" OR NOT out STREQUAL "")
    message(FATAL_ERROR "a bad --w on ${n} rank(s): exit ${rc}, stderr '${err}', stdout '${out}'")
  endif()
  run_bankcheck(${n} out rc err adversary merge-warp w=8 E=4 --search --chains 0 --quiet)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--chains" OR NOT out STREQUAL "")
    message(FATAL_ERROR "--chains 0 on ${n} rank(s): exit ${rc}, stderr '${err}', stdout '${out}'")
  endif()
endforeach()
run_bankcheck(2 out rc err adversary merge-warp w=8 E=4 -o c.txt --quiet)
if(NOT rc EQUAL 2 OR NOT err MATCHES "only `adversary --search`")
  message(FATAL_ERROR "a construction under MPI: exit ${rc}, stderr '${err}'")
endif()
message("bad input fails on 1 and 3 ranks; constructions refuse MPI")
