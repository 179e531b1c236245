#pragma once
// What every kernel program does with one case (kernel x variant x input x
// parameters), in one of four modes (docs/validation.md):
//   check    run the plain kernel, verify its output against a CPU reference;
//            run the capture build on the first blocks and require the GPU's
//            warp instructions to equal BlockRecorder's (single source holds)
//   predict  CPU only: replay every block through BlockRecorder and the sm90
//            bank model; one CSV row per kernel launch (predicted wavefronts)
//   profile  launch the plain kernel exactly once per case (for ncu) and
//            write the manifest row that names that launch
//   time     median of >= 10 CUDA-event timings after warm-up
// Inputs come from a fixed-seed generator (inputs::Random, sim/inputs/random.hpp), so predict (here) and profile
// (on the GPU machine) see identical inputs; each row carries the input's
// FNV-1a hash so the harness can check that.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernels/block_kernel.cuh"
#include "model/bank_model.hpp"
#include "sim/inputs/random.hpp"
#include "sim/parallel/parallel_for.hpp"
#include "sim/replay/cost_totals.hpp"

namespace bankcheck::kernels {

enum class Mode { check, predict, profile, time };

inline Mode parse_mode(const std::string& name) {
  if (name == "check") return Mode::check;
  if (name == "predict") return Mode::predict;
  if (name == "profile") return Mode::profile;
  if (name == "time") return Mode::time;
  throw std::invalid_argument("mode must be one of check, predict, profile, time (got '" + name + "')");
}

/// FNV-1a over bytes: identifies an input across machines.
inline std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
template <class T>
std::uint64_t hash_of(const std::vector<T>& v) {
  return fnv1a(v.data(), v.size() * sizeof(T));
}

/// got == expected; otherwise prints the first differing element (for the
/// FAIL line's context) and answers false.
template <class T>
bool equal_or_report(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got == expected) return true;
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i)
    if (got[i] != expected[i]) {
      std::printf("  out[%zu] = %lld, expected %lld\n", i, static_cast<long long>(got[i]), static_cast<long long>(expected[i]));
      return false;
    }
  std::printf("  %zu outputs, expected %zu\n", got.size(), expected.size());
  return false;
}

/// Sums the sm90 model's cost of every instruction, by op, and by site and
/// op (for the per-instruction comparison with ncu's SASS counters).
class PredictListener final : public InstructionListener {
 public:
  explicit PredictListener(const BankModel& model) : model_(model) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    const RequestCost c = model_.cost(request);
    (request.op == Op::load ? load : store).add(info.active, c);
    by_site[{std::string(info.name), request.op}].add(info.active, c);
  }
  CostTotals load, store;
  std::map<std::pair<std::string, Op>, CostTotals> by_site;

 private:
  const BankModel& model_;
};

/// Identity of one case; `launch` names the profiled launch.
struct CaseInfo {
  std::string kernel, variant, input, params;
  unsigned blocks = 1, threads = 32;
  std::size_t shared = 0;
  std::uint64_t input_hash = 0;
  std::string key() const { return kernel + "/" + variant + "/" + input + "/" + params; }
};

/// Output files and tallies shared by all cases of a program run.
/// Exit code of a GPU mode run without a GPU (ctest's SKIP_RETURN_CODE).
inline constexpr int kSkipped = 77;

class Experiment {
 public:
  Experiment(Mode mode, const std::string& out_dir, const std::string& program)
      : mode_(mode), model_(make_preset("sm90", 32)) {
    device_enabled() = mode != Mode::predict;
    if (device_enabled()) {
      // Without a GPU the GPU modes skip visibly (ctest SKIP_RETURN_CODE 77).
      int devices = 0;
      if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("skipped: no GPU (%s needs one; predict mode runs on the CPU)\n", program.c_str());
        std::exit(kSkipped);
      }
    }
    const std::string base = out_dir + "/" + program;
    switch (mode) {
      case Mode::check: break;
      case Mode::predict:
        file_.open(base + ".predicted.csv");
        file_ << "case,blocks,threads,shared_bytes,input_hash,ld_instructions,ld_wavefronts,ld_conflicts,"
                 "st_instructions,st_wavefronts,st_conflicts\n";
        sites_file_.open(base + ".predicted_sites.csv");
        sites_file_ << "case,site,op,instructions,wavefronts,conflicts\n";
        if (!sites_file_) throw std::runtime_error("cannot write under " + out_dir);
        break;
      case Mode::profile:
        file_.open(base + ".manifest.csv");
        file_ << "launch,case,blocks,threads,shared_bytes,input_hash\n";
        break;
      case Mode::time:
        file_.open(base + ".timing.csv");
        file_ << "case,blocks,threads,shared_bytes,input_hash,items,median_ms,repeats\n";
        break;
    }
    if (mode != Mode::check && !file_) throw std::runtime_error("cannot write under " + out_dir);
  }
  Mode mode() const { return mode_; }
  int failures() const { return failures_; }

  /// Run one case. HostFactory builds the block's Algo over host arrays,
  /// DeviceFactory over device arrays (same shape). `verify()` checks the
  /// device output after a plain launch (true = correct); `items` counts the
  /// work for throughput (queries, elements).
  template <AlgorithmFactory HostFactory, AlgorithmFactory DeviceFactory, class Verify>
    requires std::is_same_v<FactoryAlgorithm<HostFactory>, FactoryAlgorithm<DeviceFactory>>
  void run(const CaseInfo& c, const HostFactory& host, const DeviceFactory& device, Verify&& verify,
           std::uint64_t items, unsigned capture_blocks = 2) {
    switch (mode_) {
      case Mode::check: {
        allow_shared(phased_kernel<DeviceFactory>, c.shared);
        launch(device, c.blocks, c.threads, c.shared);
        BANKCHECK_LAUNCHED();
        const bool output_ok = verify();
        const unsigned cb = std::min(capture_blocks, c.blocks);
        std::uint64_t accesses = 0;
        {
          // upper bound on lane accesses: recorder count
          InstructionMap cpu = record_on_cpu(host, cb, c.threads, c.shared);
          for (const auto& [k, b] : cpu)
            for (auto a : b.addr) accesses += a != kInactive;
          InstructionMap gpu = capture(device, cb, c.threads, c.shared, accesses + 1024);
          const TraceComparison cmp = compare(gpu, cpu);
          report(c, output_ok, cmp, cb);
        }
        break;
      }
      case Mode::predict: {
        PredictListener p(model_);
        BlockRecorder recorder(c.shared);
        for (unsigned b = 0; b < c.blocks; ++b) {
          recorder.clear();
          recorder.run(host(b), c.threads, 32, p, b);
        }
        file_ << c.key() << ',' << c.blocks << ',' << c.threads << ',' << c.shared << ',' << c.input_hash << ','
              << p.load.instructions << ',' << p.load.wavefronts << ',' << p.load.conflicts() << ','
              << p.store.instructions << ',' << p.store.wavefronts << ',' << p.store.conflicts() << '\n';
        for (const auto& [key, t] : p.by_site)
          sites_file_ << c.key() << ',' << key.first << ',' << op_name(key.second) << ',' << t.instructions << ','
                      << t.wavefronts << ',' << t.conflicts() << '\n';
        sites_file_.flush();
        std::printf("predicted %-60s ld %llu wf (%llu conflicts)  st %llu wf (%llu conflicts)\n", c.key().c_str(),
                    (unsigned long long)p.load.wavefronts, (unsigned long long)p.load.conflicts(),
                    (unsigned long long)p.store.wavefronts, (unsigned long long)p.store.conflicts());
        break;
      }
      case Mode::profile: {
        allow_shared(phased_kernel<DeviceFactory>, c.shared);
        launch(device, c.blocks, c.threads, c.shared);
        BANKCHECK_LAUNCHED();
        if (!verify()) fail(c, "wrong output in the profiled launch");
        file_ << launches_++ << ',' << c.key() << ',' << c.blocks << ',' << c.threads << ',' << c.shared << ','
              << c.input_hash << '\n';
        break;
      }
      case Mode::time: {
        allow_shared(phased_kernel<DeviceFactory>, c.shared);
        const double ms = median_ms([&] { launch(device, c.blocks, c.threads, c.shared); }, kRepeats);
        BANKCHECK_LAUNCHED();
        if (!verify()) fail(c, "wrong output after timing");
        file_ << c.key() << ',' << c.blocks << ',' << c.threads << ',' << c.shared << ',' << c.input_hash << ','
              << items << ',' << ms << ',' << kRepeats << '\n';
        std::printf("time %-60s %10.4f ms  %8.1f items/us\n", c.key().c_str(), ms, items / (ms * 1e3));
        break;
      }
    }
    file_.flush();
  }

  /// A timing row for a kernel that is not a phased algorithm (e.g. CUB).
  template <class Run, class Verify>
  void time_external(const CaseInfo& c, Run&& run, Verify&& verify, std::uint64_t items) {
    if (mode_ != Mode::time) return;
    const double ms = median_ms(run, kRepeats);
    BANKCHECK_LAUNCHED();
    if (!verify()) fail(c, "wrong output after timing");
    file_ << c.key() << ',' << c.blocks << ',' << c.threads << ',' << c.shared << ',' << c.input_hash << ','
          << items << ',' << ms << ',' << kRepeats << '\n';
    std::printf("time %-60s %10.4f ms  %8.1f items/us\n", c.key().c_str(), ms, items / (ms * 1e3));
    file_.flush();
  }

  void fail(const CaseInfo& c, const std::string& why) {
    ++failures_;
    std::printf("FAIL %s: %s\n", c.key().c_str(), why.c_str());
    std::fflush(stdout);
  }

 private:
  static constexpr int kRepeats = 15;

  void report(const CaseInfo& c, bool output_ok, const TraceComparison& cmp, unsigned cb) {
    if (!output_ok) fail(c, "GPU output differs from the CPU run of the same code");
    if (!cmp.same()) fail(c, "GPU trace != CPU trace: " + cmp.first_difference);
    if (output_ok && cmp.same())
      std::printf("ok   %-60s output correct; trace of %u block(s): %llu GPU == %llu CPU instructions\n",
                  c.key().c_str(), cb, (unsigned long long)cmp.gpu, (unsigned long long)cmp.cpu);
    std::fflush(stdout);
  }

  Mode mode_;
  BankModel model_;
  std::ofstream file_;
  std::ofstream sites_file_;  // predict mode: per-site predictions
  int failures_ = 0;
  unsigned launches_ = 0;
};

/// The options every kernel program takes: what to do and where to write.
struct ProgramOptions {
  std::string mode = "check";
  std::string out = ".";
};

inline void add_program_options(CLI::App& app, ProgramOptions& o) {
  app.add_option("--mode", o.mode, "check | predict | profile | time")
      ->check(CLI::IsMember({"check", "predict", "profile", "time"}));
  app.add_option("--out", o.out, "directory for CSV files")->check(CLI::ExistingDirectory);
}

/// --blocks of the programs whose blocks are independent tiles: 0 (the
/// default) means `few` blocks for check/predict/profile, 4096 for time.
struct BlockCount {
  unsigned requested = 0;
  unsigned few = 8;
  unsigned in(const Experiment& ex) const { return requested != 0 ? requested : ex.mode() == Mode::time ? 4096 : few; }
};
inline void add_block_count_option(CLI::App& app, BlockCount& b) {
  app.add_option("--blocks", b.requested,
                 "blocks per launch (default " + std::to_string(b.few) + " for check/predict/profile, 4096 for time)")
      ->check(CLI::Range(1u, 1u << 20));
}

/// Runs body(experiment) and turns the outcome into the program's exit code:
/// 0 when every case passed, 1 on a failed case or an error.
template <class Body>
int run_program(const ProgramOptions& o, const std::string& program, Body&& body) {
  try {
    Experiment ex(parse_mode(o.mode), o.out, program);
    body(ex);
    if (ex.failures()) {
      std::printf("%d failure(s)\n", ex.failures());
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace bankcheck::kernels
