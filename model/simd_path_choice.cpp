#include "model/simd_degree.hpp"

// Which SIMD path replay runs: timed once at start-up on this CPU (the
// declaration and the reason are in model/simd_degree.hpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

namespace bankcheck {
namespace {

/// Nanoseconds per request of `kernel` on a fixed mix of the shapes real
/// traces issue (conflict-free rows, random words, one bank, one word), the
/// least of three passes.
double nanoseconds_per_request(DegreeKernel kernel) {
  constexpr unsigned kRequests = 64;
  std::uint64_t addr[kRequests][32];
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (unsigned i = 0; i < kRequests; ++i)
    for (unsigned l = 0; l < 32; ++l) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t random_word = (state >> 33) % 4096;
      addr[i][l] = 4 * (i % 4 == 0 ? l : i % 4 == 1 ? random_word : i % 4 == 2 ? 32 * l : 16);
    }
  const CellKeyMap map;
  double best = 1e300;
  std::uint32_t sink = 0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 8; ++rep)
      for (const auto& request : addr) sink += kernel(request, map);
    const std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - t0;
    best = std::min(best, t.count() / (8.0 * kRequests));
  }
  volatile std::uint32_t keep = sink;  // the calls must happen
  (void)keep;
  return best;
}

/// BANKCHECK_SIMD=none|avx2|avx512, where this CPU has it; nullopt otherwise.
std::optional<SimdPath> requested_simd_path() {
  const char* name = std::getenv("BANKCHECK_SIMD");
  if (name == nullptr) return std::nullopt;
  for (SimdPath p : available_simd_paths())
    if (simd_path_name(p) == name) return p;
  return std::nullopt;
}

}  // namespace

SimdPath best_simd_path() {
  // Measured, not assumed: vpconflictd is slow on some CPUs that have
  // AVX-512 (an Intel Xeon VM: 100 ns per request on one bank against AVX2's
  // 16.6 ns, bench/results/simd-devvm-2026-11-26.txt), so having the
  // instructions does not make a path faster.
  static const SimdPath best = [] {
    if (const auto p = requested_simd_path()) return *p;
    SimdPath fastest = SimdPath::none;
    double fastest_ns = 1e300;
    for (SimdPath p : available_simd_paths()) {
      const DegreeKernel kernel = simd_degree_kernel(CellKeyMap{}, p);  // none: no kernel
      if (kernel == nullptr) continue;
      const double ns = nanoseconds_per_request(kernel);
      if (ns < fastest_ns) {
        fastest = p;
        fastest_ns = ns;
      }
    }
    return fastest;
  }();
  return best;
}

}  // namespace bankcheck
