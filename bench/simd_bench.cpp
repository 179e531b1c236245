// The SIMD degree kernels of model/simd_degree.hpp, every path this CPU has,
// on the request shapes real traces issue (rows, random words, one bank, one
// word, padded rows, half-idle warps): nanoseconds per 32-lane request, the
// median of --runs runs, and the path best_simd_path() chose by its own
// timing at start-up (model/simd_path_choice.cpp; BANKCHECK_SIMD overrides).
// docs/trace-format.md quotes the figures.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_stats.hpp"
#include "model/simd_degree.hpp"
#include "model/warp_request.hpp"

using namespace bankcheck;
using bench::median;

namespace {

volatile std::uint32_t g_sink;

struct Shape {
  const char* name;
  std::vector<std::uint64_t> addr;  // 32 per request
};

std::vector<Shape> shapes(unsigned requests) {
  std::mt19937_64 rng(2026);
  auto make = [&](const char* name, auto&& lane) {
    Shape s{name, {}};
    for (unsigned i = 0; i < requests; ++i)
      for (unsigned l = 0; l < 32; ++l) s.addr.push_back(lane(i, l));
    return s;
  };
  return {
      make("row", [](unsigned i, unsigned l) { return 4096ull * (i % 8) + 4 * l; }),
      make("random", [&](unsigned, unsigned) { return 4 * (rng() % 12288); }),
      make("column", [](unsigned i, unsigned l) { return 4ull * (i % 32) + 128 * l; }),
      make("broadcast", [](unsigned i, unsigned) { return 4ull * (i % 1024); }),
      make("padded", [](unsigned i, unsigned l) { return 4ull * (i % 32) + 132 * l; }),
      make("partial", [](unsigned i, unsigned l) { return l % 2 ? kInactive : 4096ull * (i % 8) + 4 * l; }),
  };
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.simd: the SIMD degree kernel of every path this CPU has, per request shape"};
  unsigned runs = 7, requests = 2048;
  app.add_option("--runs", runs, "Runs per figure; the median is printed (default 7)")->check(CLI::Range(1u, 101u));
  app.add_option("--requests", requests, "Requests per shape (default 2048)")->check(CLI::Range(1u, 1u << 20));
  CLI11_PARSE(app, argc, argv);
  const std::vector<Shape> all = shapes(requests);
  std::printf("ns per 32-lane request, median of %u runs of %u requests x 20 passes; chosen at start-up: %s\n", runs,
              requests, std::string(simd_path_name(best_simd_path())).c_str());
  for (SimdPath path : available_simd_paths()) {
    const DegreeKernel kernel = simd_degree_kernel(CellKeyMap{}, path);
    if (kernel == nullptr) continue;
    std::printf("  %-7s", std::string(simd_path_name(path)).c_str());
    for (const Shape& s : all) {
      std::vector<double> t;
      for (unsigned r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        std::uint32_t d = 0;
        for (int pass = 0; pass < 20; ++pass)
          for (unsigned i = 0; i < requests; ++i) d += kernel(s.addr.data() + 32 * std::size_t{i}, CellKeyMap{});
        g_sink = d;
        t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                    (20.0 * requests));
      }
      std::printf(" %s %.1f", s.name, median(t));
    }
    std::printf("\n");
  }
  return 0;
}
