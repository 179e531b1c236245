#pragma once
// The few atomic operations the summary table (capture/host/summary/summary_table.hpp)
// needs, for both sides that run it: the capture patch on the GPU (CUDA's
// atomics on device memory) and the host tests, which hammer the same table
// from threads (std::atomic_ref). One spelling, so the table's code is one.
#include <atomic>
#include <cstdint>
#include <thread>

#include "model/hd.hpp"

namespace bankcheck::capture::hd_atomic {

BANKCHECK_HD_INLINE std::uint64_t add(std::uint64_t* p, std::uint64_t v) {
#ifdef __CUDA_ARCH__
  return atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  return std::atomic_ref<std::uint64_t>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}

/// Compare-and-swap; returns the value found.
BANKCHECK_HD_INLINE std::uint64_t cas(std::uint64_t* p, std::uint64_t expected, std::uint64_t desired) {
#ifdef __CUDA_ARCH__
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(expected),
                   static_cast<unsigned long long>(desired));
#else
  std::atomic_ref<std::uint64_t>(*p).compare_exchange_strong(expected, desired, std::memory_order_acq_rel);
  return expected;
#endif
}

BANKCHECK_HD_INLINE void max(std::uint64_t* p, std::uint64_t v) {
#ifdef __CUDA_ARCH__
  atomicMax(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
  std::atomic_ref<std::uint64_t> a(*p);
  std::uint64_t seen = a.load(std::memory_order_relaxed);
  while (seen < v && !a.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
  }
#endif
}

/// A fresh read of a word other threads update (never a cached copy).
BANKCHECK_HD_INLINE std::uint64_t load(const std::uint64_t* p) {
#ifdef __CUDA_ARCH__
  return *reinterpret_cast<const volatile std::uint64_t*>(p);
#else
  return std::atomic_ref<const std::uint64_t>(*p).load(std::memory_order_acquire);
#endif
}

BANKCHECK_HD_INLINE void store(std::uint64_t* p, std::uint64_t v) {
#ifdef __CUDA_ARCH__
  *reinterpret_cast<volatile std::uint64_t*>(p) = v;
#else
  std::atomic_ref<std::uint64_t>(*p).store(v, std::memory_order_release);
#endif
}

/// Take a spin lock (0 free, 1 held). Safe in a tools patch: only one lane
/// of a warp takes it, and its holder runs a short critical section that
/// waits on nothing, so a waiter always sees it released.
BANKCHECK_HD_INLINE void lock(std::uint64_t* word) {
  while (cas(word, 0, 1) != 0) {
#ifdef __CUDA_ARCH__
    __nanosleep(64);
#else
    std::this_thread::yield();
#endif
  }
#ifdef __CUDA_ARCH__
  __threadfence();  // what the previous holder wrote is seen from here on
#endif
}

BANKCHECK_HD_INLINE void unlock(std::uint64_t* word) {
#ifdef __CUDA_ARCH__
  __threadfence();  // the record is written before the lock is seen free
  atomicExch(reinterpret_cast<unsigned long long*>(word), 0ull);
#else
  std::atomic_ref<std::uint64_t>(*word).store(0, std::memory_order_release);
#endif
}

}  // namespace bankcheck::capture::hd_atomic
