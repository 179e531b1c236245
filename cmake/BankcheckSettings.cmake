# bankcheck_settings(TARGET): the language standard and warnings of one of
# bankcheck's own targets. They are set on each target, never on the
# directory, so that a project that adds bankcheck as a subdirectory keeps
# its own flags and standard, and a consumer of the installed package gets
# only what a layer's interface asks for (cxx_std_20: the headers are C++20).
function(bankcheck_settings target)
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  # GCC 12 (Debian bookworm) warns -Wrestrict inside libstdc++'s std::string
  # concatenation at -O3 where no overlap exists (GCC bug 105329, fixed in 13).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
endfunction()

# bankcheck_cuda_settings(TARGET): the same for a GPU program's CUDA sources.
# CMake 3.25 does not know nvcc 13's C++20 flag; tell it (newer CMake does).
if(CMAKE_CUDA_COMPILER AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
endif()
function(bankcheck_cuda_settings target)
  bankcheck_settings(${target})
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON)
endfunction()
