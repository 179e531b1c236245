// The tasks of a verify run: ordered by work, shared between ranks without
// loss or overlap, and run exactly once each on every thread count, with
// progress reaching the totals and a thrown error reaching the caller.
#include "proofs/verify_tasks.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

using namespace bankcheck::proofs;

namespace {

std::vector<PointTask> grid_tasks(std::uint64_t n) {
  std::vector<PointTask> tasks;
  std::uint64_t order = 0;
  for (std::uint64_t w = 1; w <= n; ++w)
    for (std::uint64_t E = 1; E <= n; ++E) tasks.push_back({0, {w, E}, order++});
  return tasks;
}

}  // namespace

TEST_CASE("tasks are ordered by w*E, largest first; equal work keeps its order") {
  std::vector<PointTask> tasks = grid_tasks(6);
  order_by_work(tasks);
  for (std::size_t k = 1; k < tasks.size(); ++k) {
    CHECK(work_of(tasks[k - 1]) >= work_of(tasks[k]));
    if (work_of(tasks[k - 1]) == work_of(tasks[k])) CHECK(tasks[k - 1].order < tasks[k].order);
  }
  CHECK(work_of(tasks.front()) == 36);
  CHECK(work_of(tasks.back()) == 1);
}

TEST_CASE("the ranks' shares cover every task once; rank r takes positions r, r + ranks, ...") {
  const std::vector<PointTask> tasks = grid_tasks(7);  // 49 tasks
  for (int ranks = 1; ranks <= 5; ++ranks) {
    CAPTURE(ranks);
    std::map<std::uint64_t, int> seen;
    for (int rank = 0; rank < ranks; ++rank) {
      const auto mine = rank_share(tasks, rank, ranks);
      CHECK(mine.size() == (tasks.size() - static_cast<std::size_t>(rank) + ranks - 1) / ranks);
      for (std::size_t i = 0; i < mine.size(); ++i) {
        CHECK(mine[i].order == tasks[static_cast<std::size_t>(rank) + i * ranks].order);
        ++seen[mine[i].order];
      }
    }
    CHECK(seen.size() == tasks.size());
    for (const auto& [order, times] : seen) CHECK(times == 1);
  }
}

TEST_CASE("every task runs exactly once on every thread count; progress reaches the totals") {
  const std::vector<PointTask> tasks = grid_tasks(9);
  for (unsigned threads : {0u, 1u, 2u, 4u, 200u}) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> runs(tasks.size());
    VerifyProgress last;
    std::mutex m;
    const unsigned used = run_tasks(
        tasks, threads, [&](const PointTask& t) { ++runs[t.order]; },
        [&](const VerifyProgress& p) {
          std::lock_guard lock(m);
          last = p;
        });
    for (const auto& r : runs) CHECK(r.load() == 1);
    CHECK(used >= 1);
    CHECK(used <= tasks.size());
    if (threads != 0) CHECK(used == std::min<unsigned>(threads, 81));
    CHECK(last.done_points == 81);
    CHECK(last.total_points == 81);
    CHECK(last.total_work == 45 * 45);  // (1 + ... + 9)^2
    CHECK(last.done_work == last.total_work);
  }
  CHECK(run_tasks({}, 8, [](const PointTask&) {}, nullptr) == 1);
}

TEST_CASE("a task that throws stops the run and its error reaches the caller") {
  const std::vector<PointTask> tasks = grid_tasks(5);
  for (unsigned threads : {1u, 3u}) {
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH_AS(run_tasks(
                             tasks, threads,
                             [&](const PointTask& t) {
                               ++ran;
                               if (t.order == 0) throw std::runtime_error("task 0 broke");
                             },
                             nullptr),
                         "task 0 broke", std::runtime_error);
    CHECK(ran.load() >= 1);
  }
}
