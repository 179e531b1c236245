#pragma once
// Launches of kernels/cf_merge_sort.cuh that may overlap the kernel before
// them on the stream (programmatic dependent launch, compute capability 9.0
// and up): the next kernel's blocks are launched once every block of the
// current one has started, and wait in wait_for_previous_grid() until it has
// finished, so a launch's latency hides behind the tail of the one before.
// Each kernel of the sort waits before its first global access (a read of
// what the last kernel wrote, or a write over what it reads); without the
// launch attribute, or below sm_90, the wait returns at once. Also: the
// shared-memory opt-in, and the device's counts the dispatch decides by (SMs,
// the opt-in limit, a kernel's resident blocks), each looked up once a device.
// C++17.
#include <cuda_runtime.h>

#include <atomic>
#include <utility>

namespace bankcheck::cf::detail {

/// Waits until the previous kernel on the stream has finished and its writes are visible.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Lets the next kernel on the stream launch once every block of this one has called it.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// A kernel's first step: wait for the kernel before it, then let the one
/// after it launch. Waiting first keeps the chain one kernel deep: letting the
/// next launch first let every later pass of a small sort launch at once and
/// wait on the GPU (slower by 4-7% at 2^20 keys, docs/cf-merge.md).
__device__ __forceinline__ void follow_previous_grid() {
  wait_for_previous_grid();
  allow_next_grid();
}

/// kernel<<<grid, block, smem, stream>>>(args...), allowed to overlap the previous kernel when `overlap`.
template <class... Params, class... Args>
cudaError_t launch(bool overlap, void (*kernel)(Params...), unsigned grid, unsigned block, int smem,
                   cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = static_cast<std::size_t>(smem);
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = overlap ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

/// Lets `kernel` take `smem` bytes of dynamic shared memory where that is above
/// the 48 KiB default (cheap when already set).
template <class... Params>
cudaError_t opt_in_smem(void (*kernel)(Params...), int smem) {
  if (smem <= 48 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
}

/// A positive count of the current device, looked up (lookup(device, count)) once a device and
/// kept in `known` (0: not looked up yet).
template <class Lookup>
cudaError_t once_a_device(std::atomic<int> (&known)[64], int& count, Lookup lookup) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  if (device < 64 && (count = known[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  e = lookup(device, count);
  if (e == cudaSuccess && device < 64) known[device].store(count, std::memory_order_relaxed);
  return e;
}

/// The current device's SMs.
inline cudaError_t multiprocessors(int& sms) {
  static std::atomic<int> known[64] = {};
  return once_a_device(known, sms, [](int device, int& count) {
    return cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
  });
}

/// The current device's largest dynamic shared memory a block may opt in to, bytes.
inline cudaError_t optin_shared_bytes(int& bytes) {
  static std::atomic<int> known[64] = {};
  return once_a_device(known, bytes, [](int device, int& count) {
    return cudaDeviceGetAttribute(&count, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  });
}

/// The blocks of `kernel` the current device holds at once (SMs x occupancy), for each Policy:
/// kernels of two policies can have one function type, so the type alone does not tell their
/// counts apart. The kernel is let take its `smem` bytes first (the occupancy of a kernel not
/// opted in to more than 48 KiB is 0).
template <class Policy, class Kernel>
cudaError_t resident_blocks(Kernel kernel, int threads, int smem, int& blocks) {
  static std::atomic<int> known[64] = {};
  return once_a_device(known, blocks, [&](int, int& count) {
    int sms = 0, per_sm = 0;
    cudaError_t e = opt_in_smem(kernel, smem);
    if (e == cudaSuccess) e = multiprocessors(sms);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    count = sms * per_sm;
    return e;
  });
}

}  // namespace bankcheck::cf::detail
