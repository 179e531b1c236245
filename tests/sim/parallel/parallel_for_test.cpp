// Tests of sim/parallel/parallel_for.hpp.
#include "sim/parallel/parallel_for.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using bankcheck::parallel_for;

TEST_CASE("every index is called exactly once, on at most the threads asked for") {
  for (unsigned threads : {0u, 1u, 2u, 4u, 16u}) {
    std::vector<std::atomic<int>> calls(1000);
    std::mutex m;
    std::set<std::thread::id> ids;
    const unsigned used = parallel_for(calls.size(), threads, [&](std::size_t i) {
      ++calls[i];
      std::lock_guard lock(m);
      ids.insert(std::this_thread::get_id());
    });
    for (const auto& c : calls) CHECK(c.load() == 1);
    if (threads != 0) CHECK(used == threads);
    CHECK(ids.size() <= used);
  }
  CHECK(parallel_for(3, 16, [](std::size_t) {}) == 3);  // never more threads than indices
  // At most `threads` calls at once: each call sleeps, so more workers would overlap.
  for (unsigned threads : {1u, 2u, 3u}) {
    std::atomic<int> in_flight{0}, most{0};
    parallel_for(60 * threads, threads, [&](std::size_t) {
      const int now = ++in_flight;
      for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --in_flight;
    });
    CHECK(most.load() <= static_cast<int>(threads));
  }
  CHECK(parallel_for(0, 4, [](std::size_t) { FAIL("no index"); }) == 1);
}

TEST_CASE("one thread per core (threads 0) runs each index once, for none, one and many indices") {
  // capture's post-processing (disassembling cubins, refining traces) asks for this form.
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    CAPTURE(n);
    std::vector<std::atomic<int>> calls(n);
    parallel_for(n, 0, [&](std::size_t i) { ++calls[i]; });
    for (std::size_t i = 0; i < n; ++i) CHECK(calls[i].load() == 1);
  }
}

TEST_CASE("the lowest failing index's exception is rethrown, and later indices are skipped") {
  // Index 7 fails after index 9 has: the exception kept is still 7's (one thread, in order, would throw it).
  for (unsigned threads : {2u, 4u}) {
    try {
      parallel_for(12, threads, [](std::size_t i) {
        if (i == 7) std::this_thread::sleep_for(std::chrono::milliseconds(50)), throw std::runtime_error("late 7");
        if (i == 9) throw std::runtime_error("early 9");
      });
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "late 7");
    }
  }
  std::atomic<std::size_t> ran{0};
  try {
    parallel_for(10000, 4, [&](std::size_t i) {
      ++ran;
      if (i == 7 || i == 9) throw std::runtime_error("index " + std::to_string(i));
    });
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "index 7");
  }
  CHECK(ran.load() < 10000);
  // One thread runs in order: it stops at the first failure.
  ran = 0;
  CHECK_THROWS_WITH(parallel_for(100, 1, [&](std::size_t i) {
                      ++ran;
                      if (i == 5) throw std::runtime_error("five");
                    }),
                    "five");
  CHECK(ran.load() == 6);
}

TEST_CASE("the watcher sees the count grow and is called at the end with everything done") {
  std::vector<std::size_t> seen;
  parallel_for(
      50, 2, [](std::size_t) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); },
      [&](std::size_t done) { seen.push_back(done); }, std::chrono::milliseconds(5));
  REQUIRE(!seen.empty());
  CHECK(seen.back() == 50);
  for (std::size_t k = 1; k < seen.size(); ++k) CHECK(seen[k - 1] <= seen[k]);
}
