// Tests of capture/host/run/each_in_parallel.hpp.
#include "capture/host/run/each_in_parallel.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <vector>

using bankcheck::capture::each_in_parallel;

TEST_CASE("each index runs exactly once, for none, one and many indices") {
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    CAPTURE(n);
    std::vector<std::atomic<int>> calls(n);
    each_in_parallel(n, [&](std::size_t i) { ++calls[i]; });
    for (std::size_t i = 0; i < n; ++i) CHECK(calls[i].load() == 1);
  }
}
