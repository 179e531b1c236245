#pragma once
// Runs f(0) .. f(n - 1) on up to one thread per core, each index once; the
// calls must not throw (catch inside f and keep the error with its index).
// Capture's post-processing uses it: disassembling cubins, refining traces.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace bankcheck::capture {

template <class F>
void each_in_parallel(std::size_t n, F f) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) f(i);
  };
  const std::size_t threads = std::min<std::size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();
}

}  // namespace bankcheck::capture
