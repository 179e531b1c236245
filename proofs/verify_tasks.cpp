#include "proofs/verify_tasks.hpp"

#include <algorithm>
#include <atomic>

#include "sim/parallel/parallel_for.hpp"

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
  std::atomic<std::uint64_t> done_work{0};
  std::atomic<bool> halted{false};
  const auto one = [&](std::size_t k) {
    if (!halted.load() && stop && stop()) halted.store(true);  // the tasks left count as done, unrun
    if (!halted.load()) run(tasks[k]);
    done_work.fetch_add(work_of(tasks[k]));
  };
  const auto watch = [&](std::size_t done) { progress(VerifyProgress{done, tasks.size(), done_work.load(), total_work}); };
  return parallel_for(tasks.size(), threads, one, progress ? std::function<void(std::size_t)>(watch) : nullptr);
}

}  // namespace bankcheck::proofs
