// kernels/cf_merge_sort.cuh as a C++17 project includes it: this translation
// unit is compiled as C++17 with warnings as errors (kernels/CMakeLists.txt,
// target cf_merge_sort_cxx17_check, in the default build wherever nvcc is)
// and instantiates the drop-in sort, keys and pairs, for 4- and 8-byte keys.
// Nothing here runs: a C++20-only construct in the header or in what it
// includes (concepts, requires-expressions, <span>, <concepts>, ...) fails
// the build. What g++ accepts in C++17 as an extension without a warning
// under -Wall -Wextra (a [[likely]], a designated initializer) passes; nvcc's
// generated host code rules out -Wpedantic.
#include <cstddef>
#include <cstdint>

#include "kernels/cf_merge_sort.cuh"

static_assert(__cplusplus == 201703L, "this translation unit must be compiled as C++17");

namespace {

struct Less {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

template <class Key, class Value>
cudaError_t sort_both(void* temp, std::size_t& bytes, Key* keys, Value* values, std::size_t n, cudaStream_t s) {
  const cudaError_t e = bankcheck::cf::DeviceMergeSort::SortKeys(temp, bytes, keys, n, Less{}, s);
  if (e != cudaSuccess) return e;
  return bankcheck::cf::DeviceMergeSort::SortPairs(temp, bytes, keys, values, n, Less{}, s);
}

}  // namespace

/// Referenced so that the instantiations are compiled (host and device code).
cudaError_t cf_merge_sort_cxx17_instantiations(void* temp, std::size_t& bytes, std::uint32_t* k32,
                                               std::uint64_t* k64, std::uint32_t* v32, std::uint64_t* v64,
                                               std::size_t n, cudaStream_t s) {
  cudaError_t e = sort_both(temp, bytes, k32, v32, n, s);
  if (e == cudaSuccess) e = sort_both(temp, bytes, k64, v64, n, s);
  if (e == cudaSuccess) e = sort_both(temp, bytes, k32, v64, n, s);
  if (e == cudaSuccess) e = sort_both(temp, bytes, k64, v32, n, s);
  return e;
}
