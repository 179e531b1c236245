#include "sim/parallel/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace bankcheck {

unsigned parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& f,
                      const std::function<void(std::size_t done)>& watch, std::chrono::milliseconds interval) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, n)));
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> halted{false};
  std::mutex failure_mutex;
  std::size_t failed_at = n;
  std::exception_ptr failure;
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n; done.fetch_add(1)) {
      if (halted.load()) continue;  // skipped: an earlier call failed
      try {
        f(i);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (i < failed_at) failed_at = i, failure = std::current_exception();
        halted.store(true);
      }
    }
  };
  {
    // Without a watcher the calling thread is one of the workers; with one it watches them.
    std::vector<std::jthread> pool;
    for (unsigned t = watch ? 0 : 1; t < threads; ++t) pool.emplace_back(work);
    if (!watch) work();
    while (watch && done.load() < n) {
      watch(done.load());
      std::this_thread::sleep_for(interval);
    }
    if (watch) watch(done.load());
  }
  if (failure) std::rethrow_exception(failure);
  return threads;
}

}  // namespace bankcheck
