# The capture pieces of `bankcheck capture` (docs/capture.md): the injection
# library libbankcheck_capture.so and the patch fatbin, both built next to
# the bankcheck executable, where the CLI looks for them.
#
# They need nvcc and the Compute Sanitizer API (headers and
# libsanitizer-public.so), found in this order: BANKCHECK_SANITIZER_ROOT
# (CMake or environment variable), the CUDA toolkit's compute-sanitizer
# folder, then .deps/sanitizer (the nvidia-cuda-sanitizer-api wheel that
# scripts/setup.sh unpacks where the toolkit has none). Without them the
# capture is skipped, visibly: CMake says so and the ctest test
# capture.library reports Skipped.

set(BANKCHECK_SANITIZER_ROOT "$ENV{BANKCHECK_SANITIZER_ROOT}" CACHE PATH "Compute Sanitizer API root (include/, lib/)")
set(_sanitizer_roots ${BANKCHECK_SANITIZER_ROOT})
if(CMAKE_CUDA_COMPILER)
  get_filename_component(_cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  get_filename_component(_cuda_root "${_cuda_bin}" DIRECTORY)
  list(APPEND _sanitizer_roots "${_cuda_root}/compute-sanitizer")
endif()
list(APPEND _sanitizer_roots /usr/local/cuda/compute-sanitizer "${PROJECT_SOURCE_DIR}/.deps/sanitizer/nvidia/cu13")

find_path(BANKCHECK_SANITIZER_INCLUDE_DIR sanitizer_patching.h PATHS ${_sanitizer_roots} PATH_SUFFIXES include
          NO_DEFAULT_PATH)
find_library(BANKCHECK_SANITIZER_LIBRARY NAMES sanitizer-public PATHS ${_sanitizer_roots} PATH_SUFFIXES lib .
             NO_DEFAULT_PATH)

set(BANKCHECK_CAPTURE_BUILT OFF)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "capture: skipped: no CUDA compiler (nvcc builds the capture patches)")
elseif(NOT BANKCHECK_SANITIZER_INCLUDE_DIR OR NOT BANKCHECK_SANITIZER_LIBRARY)
  message(STATUS "capture: skipped: no sanitizer API (set BANKCHECK_SANITIZER_ROOT, or run scripts/setup.sh)")
else()
  message(STATUS "capture: sanitizer API at ${BANKCHECK_SANITIZER_INCLUDE_DIR}")
  set(BANKCHECK_CAPTURE_BUILT ON)
  find_package(CUDAToolkit REQUIRED)

  # The patches, as a tools patch (without this ABI patched real
  # kernels fault with illegal addresses). The static_asserts in
  # patches.cu check each callback against this sanitizer's header.
  set(_patches ${CMAKE_BINARY_DIR}/bankcheck_capture_patches.fatbin)
  # nvcc writes the headers the patches include into a depfile, so a change to
  # any rule the summary mode costs with on the GPU (model/sm90_*.hpp) rebuilds
  # the fatbin: a stale one makes the summary disagree with the CPU model.
  add_custom_command(
    OUTPUT ${_patches}
    COMMAND ${CMAKE_CUDA_COMPILER} -std=c++20 -arch=sm_90 --fatbin --keep-device-functions
            -Xptxas --compile-as-tools-patch -I${PROJECT_SOURCE_DIR} -I${BANKCHECK_SANITIZER_INCLUDE_DIR}
            -MD -MF ${_patches}.d -MT ${_patches}
            ${PROJECT_SOURCE_DIR}/capture/device/patches.cu -o ${_patches}
    DEPENDS ${PROJECT_SOURCE_DIR}/capture/device/patches.cu
    DEPFILE ${_patches}.d
    COMMENT "Building the capture patches (tools-patch fatbin)"
    VERBATIM)
  # The fatbin is the longest single job of the build (about 4.5 minutes on
  # two cores) and useful only where a GPU runs the capture: it joins the
  # default target with the GPU programs (BANKCHECK_GPU_PROGRAMS), and is
  # always part of target gpu_programs, which CI builds.
  if(BANKCHECK_GPU_PROGRAMS)
    add_custom_target(bankcheck_capture_patches ALL DEPENDS ${_patches})
  else()
    add_custom_target(bankcheck_capture_patches DEPENDS ${_patches})
  endif()
  add_dependencies(gpu_programs bankcheck_capture_patches)

  add_library(bankcheck_capture_injection SHARED ${PROJECT_SOURCE_DIR}/capture/injection/injection.cpp)
  bankcheck_settings(bankcheck_capture_injection)
  target_include_directories(bankcheck_capture_injection PRIVATE ${PROJECT_SOURCE_DIR} ${BANKCHECK_SANITIZER_INCLUDE_DIR}
                             ${CUDAToolkit_INCLUDE_DIRS})
  target_link_libraries(bankcheck_capture_injection PRIVATE bankcheck::capture ${BANKCHECK_SANITIZER_LIBRARY})
  set_target_properties(bankcheck_capture_injection PROPERTIES
    OUTPUT_NAME bankcheck_capture
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  # The driver loads the library with every symbol resolved and silently
  # skips one that does not load: refuse undefined symbols at link time.
  target_link_options(bankcheck_capture_injection PRIVATE -Wl,--no-undefined)
  # The library is loaded into every captured program: it needs only what it
  # uses. The layers it links bring OpenMPI (sim/parallel, for the CLI's
  # sharding), which none of its objects call: --as-needed leaves it out.
  target_link_options(bankcheck_capture_injection PRIVATE -Wl,--as-needed)
  if(BANKCHECK_GPU_PROGRAMS)
    add_dependencies(bankcheck_capture_injection bankcheck_capture_patches)
  endif()
  add_dependencies(bankcheck bankcheck_capture_injection)
endif()

# The smoke test's pieces (validate/capture/gpu_smoke.sh): its driver, the
# library functions of `capture`, `replay` and `compare` without the CLI,
# and the programs it captures with their expected traces. One build
# description for every place they are built: the GPU machine has nvcc and
# CMake but not the project's dependencies (Boost, nlohmann-json, ...), so
# they are built here and carried (validate/capture/build_carry.sh smoke).
# Target capture_smoke, part of gpu_programs so that CI compiles them too,
# into build/capture-smoke/.
if(BANKCHECK_CAPTURE_BUILT)
  set(_smoke_dir ${CMAKE_BINARY_DIR}/capture-smoke)
  set(_smoke_src ${PROJECT_SOURCE_DIR}/validate/capture)
  add_executable(capture_smoke_driver EXCLUDE_FROM_ALL ${_smoke_src}/smoke_driver.cpp)
  target_link_libraries(capture_smoke_driver PRIVATE bankcheck::capture)
  # It uses none of sim/parallel's MPI (as the injection library above).
  target_link_options(capture_smoke_driver PRIVATE -Wl,--as-needed)
  add_executable(capture_smoke_kernels EXCLUDE_FROM_ALL ${_smoke_src}/programs/smoke_kernels.cu)
  set_target_properties(capture_smoke_kernels PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  add_executable(capture_smoke_driver_api EXCLUDE_FROM_ALL ${_smoke_src}/programs/driver_api.cpp)
  target_link_libraries(capture_smoke_driver_api PRIVATE CUDA::cuda_driver)
  foreach(_smoke capture_smoke_driver capture_smoke_kernels capture_smoke_driver_api)
    bankcheck_settings(${_smoke})
  endforeach()
  set_target_properties(capture_smoke_driver PROPERTIES OUTPUT_NAME smoke_driver RUNTIME_OUTPUT_DIRECTORY ${_smoke_dir})
  set_target_properties(capture_smoke_kernels PROPERTIES OUTPUT_NAME smoke_kernels RUNTIME_OUTPUT_DIRECTORY ${_smoke_dir})
  set_target_properties(capture_smoke_driver_api PROPERTIES OUTPUT_NAME driver_api RUNTIME_OUTPUT_DIRECTORY ${_smoke_dir})
  # The kernel driver_api loads with cuModuleLoad: a cubin, which CMake 3.25
  # has no target property for.
  set(_smoke_cubin ${_smoke_dir}/driver_kernel.cubin)
  add_custom_command(
    OUTPUT ${_smoke_cubin}
    COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_90 -cubin ${_smoke_src}/programs/driver_kernel.cu -o ${_smoke_cubin}
    DEPENDS ${_smoke_src}/programs/driver_kernel.cu
    VERBATIM)
  add_custom_target(capture_smoke_cubin DEPENDS ${_smoke_cubin})
  add_custom_target(capture_smoke)
  add_dependencies(capture_smoke capture_smoke_driver capture_smoke_kernels capture_smoke_driver_api
                   capture_smoke_cubin)
  add_dependencies(gpu_programs capture_smoke)

  # What validate/capture/build_carry.sh carries, part by part: one line
  # "PART TARGET FILE" per file, FILE built by TARGET. The script reads this
  # list rather than naming files itself, and ctest capture.carry checks that
  # what it packs is these files.
  set(_carry_library "bankcheck_capture_injection $<TARGET_FILE:bankcheck_capture_injection>")
  set(_carry_patches "bankcheck_capture_patches ${_patches}")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/capture_carry.txt CONTENT
"capture bankcheck $<TARGET_FILE:bankcheck>
capture ${_carry_library}
capture ${_carry_patches}
smoke ${_carry_library}
smoke ${_carry_patches}
smoke capture_smoke_driver $<TARGET_FILE:capture_smoke_driver>
smoke capture_smoke_kernels $<TARGET_FILE:capture_smoke_kernels>
smoke capture_smoke_driver_api $<TARGET_FILE:capture_smoke_driver_api>
smoke capture_smoke_cubin ${_smoke_cubin}
")
endif()
