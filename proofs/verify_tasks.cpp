#include "proofs/verify_tasks.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace bankcheck::proofs {

void order_by_work(std::vector<PointTask>& tasks) {
  std::stable_sort(tasks.begin(), tasks.end(), [](const PointTask& a, const PointTask& b) { return work_of(a) > work_of(b); });
}

std::vector<PointTask> rank_share(const std::vector<PointTask>& tasks, int rank, int ranks) {
  std::vector<PointTask> mine;
  for (std::size_t k = static_cast<std::size_t>(rank); k < tasks.size(); k += static_cast<std::size_t>(ranks))
    mine.push_back(tasks[k]);
  return mine;
}

unsigned run_tasks(const std::vector<PointTask>& tasks, unsigned threads,
                   const std::function<void(const PointTask&)>& run,
                   const std::function<void(const VerifyProgress&)>& progress,
                   const std::function<bool()>& stop) {
  std::uint64_t total_work = 0;
  for (const PointTask& t : tasks) total_work += work_of(t);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, tasks.size())));

  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<std::uint64_t> done_work{0};
  std::atomic<bool> halted{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= tasks.size()) return;
      if (!halted.load() && stop && stop()) halted.store(true);  // the tasks left count as done, unrun
      if (!halted.load()) {
        try {
          run(tasks[k]);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!first_error) first_error = std::current_exception();
          halted.store(true);
        }
      }
      done_work.fetch_add(work_of(tasks[k]));
      done.fetch_add(1);
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned i = 0; i < threads; ++i) pool.emplace_back(worker);
    if (progress) {
      auto report = [&] { progress(VerifyProgress{done.load(), tasks.size(), done_work.load(), total_work}); };
      while (done.load() < tasks.size()) {
        report();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      report();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
  return threads;
}

}  // namespace bankcheck::proofs
