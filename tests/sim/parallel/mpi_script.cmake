# Shared by the ctest drivers that run bankcheck under mpirun
# (mpi_replay_dir.cmake, tests/proofs/mpi_sweeps.cmake): stop unless every
# named -D variable was given, and let OpenMPI run as root and oversubscribe
# (CI runs as root in a container on few cores).
macro(mpi_script_setup script)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script} needs -D${var}=...")
    endif()
  endforeach()
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  set(ENV{OMPI_MCA_rmaps_base_oversubscribe} 1)
  separate_arguments(MPIRUN)
endmacro()
