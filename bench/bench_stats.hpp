#pragma once
// What the benchmarks of bench/ share: the median of a figure's runs and a
// wall-clock timer (for work done on other threads). bench.verify keeps its
// own median, the mean of the middle two for an even count.
#include <algorithm>
#include <chrono>
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

}  // namespace bankcheck::bench
