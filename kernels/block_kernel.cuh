#pragma once
// Runs a single-source algorithm (docs/algorithms.md, "single-source accessor
// design") as a CUDA kernel, in two builds from the same header:
//   * plain:   shared memory through SharedArray (one LDS/STS per access);
//   * capture: shared memory through CaptureArray, which does the same
//              access and appends (block, phase, thread, sequence, site,
//              byte address, width, op) to a global buffer.
// The host turns a capture into warp instructions keyed by
// (block, phase, warp, site, occurrence) exactly as sim/algorithms/block_recorder.hpp
// defines them, so a test can check GPU == CPU instruction by instruction:
// the proof that the kernel runs the code bankcheck replays.
//
// An algorithm is built per block by an AlgorithmFactory
// (kernels/algorithm_factory.hpp): a trivially copyable struct with
// `BANKCHECK_HD Algo operator()(unsigned block) const` returning a
// BlockAlgorithm (sim/algorithms/block_algorithm.hpp). The CPU recorder calls
// the same factory for the same block index.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/algorithm_factory.hpp"
#include "kernels/capture_trace.cuh"
#include "model/hd.hpp"
#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/shared_accessor.hpp"

namespace bankcheck::kernels {

/// Every CUDA call goes through this: a failure prints where and exits 1.
#define BANKCHECK_CUDA(call)                                                                  \
  do {                                                                                        \
    cudaError_t err_ = (call);                                                                \
    if (err_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "CUDA error '%s' in %s at %s:%d\n", cudaGetErrorString(err_), #call, \
                   __FILE__, __LINE__);                                                       \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

/// After each launch: launch errors now, execution errors at the sync.
#define BANKCHECK_LAUNCHED()                         \
  do {                                               \
    BANKCHECK_CUDA(cudaGetLastError());              \
    BANKCHECK_CUDA(cudaDeviceSynchronize());         \
  } while (0)

/// Where captures go: a global array and its fill counter.
struct CaptureBuffer {
  CaptureRecord* records;
  unsigned long long* count;  ///< records wanted (may exceed capacity: the host then fails)
  unsigned long long capacity;
};

/// Device accessor that performs the access and logs it.
class CaptureArray {
 public:
  struct ThreadState {
    CaptureBuffer buffer;
    unsigned char* shared_base;
    std::uint32_t block, thread, seq;
    std::uint16_t phase;
  };
  __device__ CaptureArray(ThreadState* state, std::uint32_t offset) : state_(state), offset_(offset) {}
  __device__ CaptureArray at(std::size_t byte_offset) const {
    return CaptureArray(state_, offset_ + static_cast<std::uint32_t>(byte_offset));
  }
  template <class T>
  __device__ T load(int site, std::size_t index) const {
    const std::uint32_t addr = offset_ + static_cast<std::uint32_t>(index * sizeof(T));
    log(site, addr, sizeof(T), 0);
    return *reinterpret_cast<const T*>(state_->shared_base + addr);
  }
  template <class T>
  __device__ void store(int site, std::size_t index, T value) const {
    const std::uint32_t addr = offset_ + static_cast<std::uint32_t>(index * sizeof(T));
    log(site, addr, sizeof(T), 1);
    *reinterpret_cast<T*>(state_->shared_base + addr) = value;
  }

 private:
  __device__ void log(int site, std::uint32_t addr, unsigned width, unsigned op) const {
    const unsigned long long slot = atomicAdd(state_->buffer.count, 1ull);
    if (slot < state_->buffer.capacity) {
      CaptureRecord r;
      r.block = state_->block;
      r.thread = state_->thread;
      r.seq = state_->seq;
      r.addr = addr;
      r.site = static_cast<std::uint16_t>(site);  // < 65536: BlockAlgorithm's bound on sites
      r.phase = state_->phase;
      r.width = static_cast<std::uint8_t>(width);
      r.op = static_cast<std::uint8_t>(op);
      r.reserved = 0;
      state_->buffer.records[slot] = r;
    }
    ++state_->seq;
  }
  ThreadState* state_;
  std::uint32_t offset_;
};

/// The block's work in the plain build: every phase over the dynamic
/// shared memory, a barrier after each (shared by every plain kernel,
/// whatever its launch bounds).
template <AlgorithmFactory Factory>
__device__ __forceinline__ void run_phases(const Factory& factory) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const auto algo = factory(blockIdx.x);
  SharedArray smem(shared_bytes);
  const int phases = block_phases(algo);
  for (int k = 0; k < phases; ++k) {
    algo.phase(k, static_cast<int>(threadIdx.x), smem);
    __syncthreads();
  }
}

/// The plain build: every block runs every phase, a barrier after each.
template <AlgorithmFactory Factory>
__global__ void phased_kernel(Factory factory) {
  run_phases(factory);
}

/// The capture build: same phases, every shared access logged.
template <AlgorithmFactory Factory>
__global__ void phased_capture_kernel(Factory factory, CaptureBuffer buffer) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const auto algo = factory(blockIdx.x);
  CaptureArray::ThreadState state{buffer, shared_bytes, blockIdx.x, threadIdx.x, 0, 0};
  CaptureArray smem(&state, 0);
  const int phases = block_phases(algo);
  for (int k = 0; k < phases; ++k) {
    state.phase = static_cast<std::uint16_t>(k);  // capture() checked phases <= 65536
    state.seq = 0;
    algo.phase(k, static_cast<int>(threadIdx.x), smem);
    __syncthreads();
  }
}

/// Preferred shared-memory carveout in percent of L1 (-1: the driver's choice).
/// An experiment knob: does the L1/shared split change the counts?
inline int& shared_carveout() {
  static int percent = -1;
  return percent;
}

/// Dynamic shared memory above 48 KB must be allowed per kernel.
template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  BANKCHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  if (shared_carveout() >= 0)
    BANKCHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, shared_carveout()));
}

/// Launch the plain build (checked).
template <AlgorithmFactory Factory>
void launch(const Factory& factory, unsigned blocks, unsigned threads, std::size_t shared, cudaStream_t stream = 0) {
  phased_kernel<Factory><<<blocks, threads, shared, stream>>>(factory);
  BANKCHECK_CUDA(cudaGetLastError());
}

/// Run the capture build for `blocks` blocks and return its instructions.
/// @pre capacity bounds the total lane accesses; exceeding it fails loudly.
template <AlgorithmFactory Factory>
InstructionMap capture(const Factory& factory, unsigned blocks, unsigned threads, std::size_t shared,
                       unsigned long long capacity, unsigned warp = 32) {
  if (block_phases(factory(0)) > 65536)  // CaptureRecord::phase is 16 bits
    throw std::invalid_argument("capture: at most 65536 phases (got " + std::to_string(block_phases(factory(0))) + ")");
  CaptureBuffer buffer{nullptr, nullptr, capacity};
  BANKCHECK_CUDA(cudaMalloc(&buffer.records, capacity * sizeof(CaptureRecord)));
  BANKCHECK_CUDA(cudaMalloc(&buffer.count, sizeof(unsigned long long)));
  BANKCHECK_CUDA(cudaMemset(buffer.count, 0, sizeof(unsigned long long)));
  allow_shared(phased_capture_kernel<Factory>, shared);
  phased_capture_kernel<Factory><<<blocks, threads, shared>>>(factory, buffer);
  BANKCHECK_LAUNCHED();
  unsigned long long count = 0;
  BANKCHECK_CUDA(cudaMemcpy(&count, buffer.count, sizeof count, cudaMemcpyDeviceToHost));
  if (count > capacity)
    throw std::runtime_error("capture buffer too small: " + std::to_string(count) + " accesses, capacity " +
                             std::to_string(capacity));
  std::vector<CaptureRecord> records(count);
  BANKCHECK_CUDA(cudaMemcpy(records.data(), buffer.records, count * sizeof(CaptureRecord), cudaMemcpyDeviceToHost));
  BANKCHECK_CUDA(cudaFree(buffer.records));
  BANKCHECK_CUDA(cudaFree(buffer.count));
  return instructions_from_capture(std::move(records), warp);
}

// ---------------------------------------------------------------------------
// Timing: CUDA events around `launches` back-to-back runs, median of `repeats`.

/// @post milliseconds per run (median over repeats); warm-up runs excluded.
template <class Run>
double median_ms(Run&& run, int repeats = 15, int warmup = 3) {
  cudaEvent_t start, stop;
  BANKCHECK_CUDA(cudaEventCreate(&start));
  BANKCHECK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < warmup; ++i) run();
  BANKCHECK_CUDA(cudaGetLastError());
  BANKCHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int i = 0; i < repeats; ++i) {
    BANKCHECK_CUDA(cudaEventRecord(start));
    run();
    BANKCHECK_CUDA(cudaEventRecord(stop));
    BANKCHECK_CUDA(cudaEventSynchronize(stop));
    BANKCHECK_CUDA(cudaGetLastError());
    float ms = 0;
    BANKCHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  BANKCHECK_CUDA(cudaEventDestroy(start));
  BANKCHECK_CUDA(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// False in CPU-only runs (predict mode, no GPU): device buffers then stay
/// empty and every transfer is skipped.
inline bool& device_enabled() {
  static bool enabled = true;
  return enabled;
}

/// Device owned buffer (freed on scope exit, every call checked).
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    if (device_enabled()) BANKCHECK_CUDA(cudaMalloc(&p_, std::max<std::size_t>(n, 1) * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  void upload(const std::vector<T>& host) {
    if (!p_) return;
    BANKCHECK_CUDA(cudaMemcpy(p_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    if (!p_) return host;
    BANKCHECK_CUDA(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Fill with a byte pattern so unwritten outputs are caught.
  void poison() {
    if (p_) BANKCHECK_CUDA(cudaMemset(p_, 0xA5, n_ * sizeof(T)));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

}  // namespace bankcheck::kernels
