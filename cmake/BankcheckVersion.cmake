# `bankcheck --version`: the project version, the git revision of the sources
# and the CUDA version of the build. The revision is read on every build (a
# new commit shows without re-running cmake); the generated file is rewritten
# only when its text changes, so an unchanged revision recompiles nothing.
set(BANKCHECK_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/bankcheck_version.cpp)
if(CMAKE_CUDA_COMPILER_VERSION)
  set(BANKCHECK_BUILD_CUDA "CUDA ${CMAKE_CUDA_COMPILER_VERSION}")
else()
  set(BANKCHECK_BUILD_CUDA "no CUDA (built without a CUDA compiler; the kernels were not built)")
endif()
add_custom_target(bankcheck_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${BANKCHECK_VERSION_CPP}
          -DVERSION=${PROJECT_VERSION} "-DCUDA=${BANKCHECK_BUILD_CUDA}"
          -P ${PROJECT_SOURCE_DIR}/cmake/WriteVersion.cmake
  BYPRODUCTS ${BANKCHECK_VERSION_CPP}
  COMMENT "bankcheck version")
target_sources(bankcheck PRIVATE ${BANKCHECK_VERSION_CPP})
# A new revision recompiles this file alone: outside the CLI's unity units,
# and without their precompiled header, which it does not use.
set_source_files_properties(${BANKCHECK_VERSION_CPP} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)
add_dependencies(bankcheck bankcheck_version)
