#pragma once
// What the benchmarks of bench/ share: the median of a figure's runs, a
// wall-clock timer (for work done on other threads) and the thread's CPU
// time (single-threaded passes: steadier than wall time on a shared machine). bench.verify keeps its
// own median, the mean of the middle two for an even count.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace bankcheck::bench {

/// The upper median of `v` (the middle value for an odd count). @pre !v.empty()
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Wall-clock seconds of f().
template <class F>
double wall_seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// CPU time (user + system) this thread has used, in seconds.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// This thread's CPU seconds spent in f().
template <class F>
double thread_seconds(F&& f) {
  const double t0 = thread_cpu_seconds();
  f();
  return thread_cpu_seconds() - t0;
}

}  // namespace bankcheck::bench
