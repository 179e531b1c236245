#pragma once
// CHECK(call): end a validation program with the CUDA error, the call, and
// its file and line. The GPU scripts compile each program with nvcc alone,
// so programs include this header by its relative path.
#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    const cudaError_t check_error_ = (call);                                                     \
    if (check_error_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s: CUDA error %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(check_error_));                                            \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// CU_CHECK(call): the same for a driver API call (cuTensorMapEncodeTiled, ...); programs that use it link -lcuda.
#define CU_CHECK(call)                                                                          \
  do {                                                                                          \
    const CUresult check_result_ = (call);                                                      \
    if (check_result_ != CUDA_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s:%d: %s: driver error %d\n", __FILE__, __LINE__, #call,           \
                   static_cast<int>(check_result_));                                            \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
