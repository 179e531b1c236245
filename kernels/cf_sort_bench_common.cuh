#pragma once
// What the modes of kernel.cf_sort_bench (kernels/cf_sort_bench.cu) share:
// CHECK_CUDA, the comparators, device buffers, CUB's tiling and ours, the
// options and the failure count. The program's headers are one translation
// unit's pieces: their names stay in its unnamed namespace.
#include <cub/device/device_merge_sort.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cf_merge_sort.cuh"

namespace {

using bankcheck::cf::DefaultPolicy;
using bankcheck::cf::DeviceMergeSort;
using bankcheck::cf::DeviceMergeSortPolicy;
using bankcheck::cf::Policy;

#define CHECK_CUDA(call)                                                                                      \
  do {                                                                                                        \
    const cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                                  \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #call); \
      std::exit(1);                                                                                           \
    }                                                                                                         \
  } while (0)

struct Less {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
struct Greater {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return b < a;
  }
};

/// The value type of a key size's pairs: an unsigned integer of the key's width.
template <class Key>
using ValueOf = std::conditional_t<sizeof(Key) == 8, std::uint64_t, std::uint32_t>;

/// Device memory, freed on scope exit.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) : n_(n) {
    if (n > 0) CHECK_CUDA(cudaMalloc(&p_, n * sizeof(T)));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~Buffer() {
    if (p_) cudaFree(p_);
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  void upload(const std::vector<T>& v) {
    if (!v.empty()) CHECK_CUDA(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(std::size_t n) const {
    std::vector<T> v(n);
    if (n > 0) CHECK_CUDA(cudaMemcpy(v.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

/// CUB's own merge-sort tiling for the key type on sm_90 (the policy that
/// cub::DeviceMergeSort dispatches to there), read from CUB's tuning header.
template <class Key>
struct CubTiling {
  using Pol = typename cub::detail::merge_sort::policy_hub<Key*>::Policy600::MergeSortPolicy;
  static constexpr int kThreads = Pol::BLOCK_THREADS;
  static constexpr int kItems = Pol::ITEMS_PER_THREAD;
};
static_assert(CubTiling<std::int32_t>::kThreads == 256 && CubTiling<std::int32_t>::kItems == 17,
              "CUB 13.0 sm_90 merge sort, 4-byte keys: u = 256, E = 17");
static_assert(CubTiling<std::int64_t>::kThreads == 256 && CubTiling<std::int64_t>::kItems == 8,
              "CUB 13.0 sm_90 merge sort, 8-byte keys: u = 256, E = 8");

/// Our default tiling (kernels/cf_merge_sort.cuh) for keys of the type, keys only or pairs.
template <class Key, bool kPairs>
using CfDefault = typename DefaultPolicy<Key, std::conditional_t<kPairs, ValueOf<Key>, bankcheck::CfNoValue>>::type;

/// The command line (cf_sort_bench.cu parses it).
struct Options {
  std::string mode = "check", csv, keys = "all", pairs = "all", algo = "cf", input = "random";
  int log_min = 16, log_max = 26, reps = 10, log = 18;
  bool radix = true, quick = false;
};

/// Checks that failed, over the whole run (the exit status).
int failures = 0;

}  // namespace
