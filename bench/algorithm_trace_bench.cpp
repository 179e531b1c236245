// Tracing + replay speed of the algorithm recorder (tracing must
// not be the bottleneck): PBS over Q queries (K = 4096, u = 1024, random
// queries) and the CUB-style merge over n keys (E = 15, u = 256), in active
// lane-accesses per second:
//   trace only      the registry's driver with a listener that only counts
//                   (BlockRecorder, the algorithm, input generation, output check)
//   trace + replay  run_algorithm(): the same plus BankModel::cost of every
//                   instruction and the per-site / per-round tallies
// Each figure is the median of --runs runs of the thread's CPU time, as in
// bench.replay; compare with bench.replay's (b) line (replay of a stored
// binary trace through sm90), run on the same machine at the same time:
//   bench.replay --runs 5 && bench.algorithm_trace --queries 100000000 --keys 100000000
// With --replay-rate R (bench.replay's (b) figure) the ratios R / figure are printed.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "bench/bench_stats.hpp"
#include "model/bank_model.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

using namespace bankcheck;
using bench::median;
using bench::thread_cpu_seconds;

namespace {
struct Null final : InstructionListener {
  std::uint64_t lanes = 0;
  void instruction(const InstructionInfo& i, const WarpRequest&) override { lanes += i.active; }
};

struct Figure {
  std::uint64_t lanes = 0;
  double seconds = 0;
  double rate() const { return static_cast<double>(lanes) / seconds; }
};

// Median CPU time of `runs` calls of f (which returns the lane-accesses it covered).
template <class F>
Figure measure(unsigned runs, F&& f) {
  std::vector<double> times;
  Figure fig;
  for (unsigned r = 0; r < runs; ++r) {
    const double t0 = thread_cpu_seconds();
    fig.lanes = f();
    times.push_back(thread_cpu_seconds() - t0);
  }
  fig.seconds = median(times);
  return fig;
}

void report(const std::string& what, const Figure& f, double replay_rate) {
  std::printf("%-36s %14llu lane-accesses %9.3f s %11.3e lane-accesses/s", what.c_str(),
              static_cast<unsigned long long>(f.lanes), f.seconds, f.rate());
  if (replay_rate > 0) std::printf("   replay/this = %.2f", replay_rate / f.rate());
  std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.algorithm_trace: recorder + replay throughput of `bankcheck run` (lane-accesses/s, one core)"};
  std::int64_t queries = 10'000'000, keys = 10'000'000;
  unsigned runs = 3;
  double replay_rate = 0;
  std::string only;
  std::vector<std::string> presets = {"sm90"};
  app.add_option("--queries", queries, "PBS queries (default 10^7)")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--keys", keys, "keys merged, rounded down to whole tiles of 15*256 (default 10^7)")
      ->check(CLI::Range(std::int64_t{3840}, std::int64_t{1} << 40));
  app.add_option("--runs", runs, "runs per figure; the median is printed (default 3)")->check(CLI::Range(1u, 101u));
  app.add_option("--replay-rate", replay_rate, "bench.replay's (b) figure, to print the ratios")
      ->check(CLI::PositiveNumber);
  app.add_option("--only", only, "pbs or merge")->check(CLI::IsMember({"pbs", "merge"}));
  app.add_option("--models", presets, "presets to replay through (default sm90)");
  CLI11_PARSE(app, argc, argv);

  const Params pbs{{"w", 32}, {"K", 4096}, {"queries", queries}, {"u", 1024}};
  const Params merge{{"w", 32}, {"E", 15}, {"u", 256}, {"blocks", keys / (15 * 256)}};
  const auto random = InputChoice::parse("random", 1);
  try {
    for (const auto& [name, params] : {std::pair{"pbs", pbs}, std::pair{"merge", merge}}) {
      if (!only.empty() && only != name) continue;
      const AlgorithmSpec& spec = find_algorithm(name);
      const Params p = resolve_params(spec, params);
      report(std::string(name) + " trace only", measure(runs, [&] {
               Null null;
               spec.drive(p, random, null);
               return null.lanes;
             }),
             replay_rate);
      for (const auto& preset : presets) {
        const auto model = make_preset(preset, 32);
        report(std::string(name) + " trace + replay (" + preset + ")", measure(runs, [&] {
                 const AlgorithmReport r = run_algorithm(name, p, random, model);
                 if (!r.outcome.output_ok) throw std::logic_error(std::string(name) + ": output check failed");
                 return r.total.lane_accesses;
               }),
               replay_rate);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench.algorithm_trace: %s\n", e.what());
    return 2;
  }
  return 0;
}
