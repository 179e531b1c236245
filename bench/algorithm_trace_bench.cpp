// Tracing + replay speed of the algorithm recorder: PBS over Q queries and
// the CUB-style merge over n keys, in lane-accesses per second, with the
// replay through BankModel::cost (dmm and sm90) and without it (recorder only).
// Times are the thread's CPU time. Compare with bench.replay's (b) line.
// Usage: bench.algorithm_trace [Q_or_n, default 10^7]
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/bank_model.hpp"
#include "sim/algorithm_registry.hpp"

using namespace bankcheck;

namespace {
struct Null final : InstructionListener {
  std::uint64_t lanes = 0;
  void instruction(const InstructionInfo& i, const WarpRequest&) override { lanes += i.active; }
};

void report(const char* what, std::uint64_t lanes, double seconds) {
  std::printf("%-44s %12llu lane-accesses %8.3f s %10.3g lane-accesses/s\n", what,
              static_cast<unsigned long long>(lanes), seconds, lanes / seconds);
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// CPU time of this thread (as bench.replay measures), so a loaded machine does not skew it.
template <class F>
double timed(F&& f) {
  const double t0 = thread_cpu_seconds();
  f();
  return thread_cpu_seconds() - t0;
}
}  // namespace

int main(int argc, char** argv) {
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 10'000'000;
  const Params pbs{{"w", 32}, {"K", 4096}, {"queries", n}, {"u", 1024}};
  const Params merge{{"w", 32}, {"E", 15}, {"u", 256}, {"blocks", n / (15 * 256)}};
  const auto random = InputChoice::parse("random", 1);
  for (const auto& [name, params] : {std::pair{"pbs", pbs}, std::pair{"merge", merge}}) {
    {
      Null null;
      const double s = timed([&] { find_algorithm(name).drive(resolve_params(find_algorithm(name), params), random, null); });
      report((std::string(name) + " trace only").c_str(), null.lanes, s);
    }
    for (const char* preset : {"dmm", "sm90"}) {
      const auto model = make_preset(preset, 32);
      AlgorithmReport r;
      const double s = timed([&] { r = run_algorithm(name, params, random, model); });
      report((std::string(name) + " trace + replay (" + preset + ")").c_str(), r.total.lane_accesses, s);
    }
  }
}
