// The minimal capture driver of validate/capture/gpu_smoke.sh: the same
// library functions as `bankcheck capture` and `bankcheck replay`, without the
// CLI. CMake's target capture_smoke_driver (cmake/BankcheckCapture.cmake),
// built on the development machine and carried (validate/capture/build_carry.sh smoke).
//   smoke_driver capture OUT LIBRARY PATCHES RING_SLOTS -- PROGRAM [ARGS...]
//   smoke_driver check TRACE EXPECTED.trace     (same records, as multisets, after
//       the reserved base of the shared window and SASS refinement of ops)
//   smoke_driver replay TRACE                    (sm90 totals, unmodelled kinds)
//   smoke_driver compare NCU.csv OUT.csv TRACE...  (per instruction against
//       ncu's SourceCounters table; OUT.csv gets every row; exit 0 iff all equal)
//   smoke_driver summary-check SUMMARY.csv TRACE...  (a `--summary` capture's
//       per-(launch, instruction) rows against the CPU replay of full traces of
//       the same launches, and each worst record re-costed on the CPU; exit 0 iff all equal)
// capture honours SMOKE_KERNEL (regex), SMOKE_LAUNCH_SKIP,
// SMOKE_LAUNCH_COUNT, SMOKE_SUMMARY_SLOTS (--summary with that many
// slots), SMOKE_GENERIC=0 (--no-generic) and SMOKE_DEDUP=1 (merged
// records; the default here is `--no-dedup`), the `bankcheck capture`
// options of the same meaning.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "capture/host/run/capture_run.hpp"
#include "capture/host/ncu/compare.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "capture/host/launch/launch_filter.hpp"
#include "capture/host/ncu/ncu_table.hpp"
#include "model/bank_model.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

using namespace bankcheck;

namespace {

using Key = std::tuple<std::array<std::uint32_t, 3>, std::uint32_t, unsigned, unsigned, std::vector<std::uint64_t>>;

/// The op the program itself issued: capture refines an atomic, a cp.async
/// from its SASS (atom.cas, atom.popc, cpasync.cg, cpasync.cg.zfill,
/// cpasync.cg.notp0, cpasync.unmeasured), which the program's own
/// expected trace cannot know.
unsigned issued_op(Op op) {
  switch (op) {
    case Op::atom_cas:
    case Op::atom_cast:
    case Op::atom_popc: return static_cast<unsigned>(Op::atom);
    case Op::cpasync_cg:
    case Op::cpasync_cg_zfill:
    case Op::cpasync_cg_notp0:
    case Op::cpasync_unmeasured: return static_cast<unsigned>(Op::cpasync);
    default: return static_cast<unsigned>(op);
  }
}

/// The shared window of a CTA on sm_90 starts with 1 KiB that the hardware
/// reserves (docs/capture.md): captured offsets are the program's own plus
/// this base. SMOKE_SHARED_BASE overrides it for another architecture.
std::uint64_t shared_base() {
  const char* v = std::getenv("SMOKE_SHARED_BASE");
  return v ? std::strtoull(v, nullptr, 0) : 1024;
}

/// Records as multisets; `base` is subtracted from every active lane's offset.
std::map<Key, std::uint64_t> records(const std::string& path, std::uint64_t base = 0) {
  auto source = open_trace(path);
  std::map<Key, std::uint64_t> out;
  TraceRecord r;
  while (source->next(r)) {
    const auto block = r.location ? r.location->block : std::array<std::uint32_t, 3>{};
    const std::uint32_t warp = r.location ? r.location->warp : 0;
    std::vector<std::uint64_t> addr(r.request.addr.begin(), r.request.addr.end());
    for (auto& a : addr)
      if (a != kInactive) a -= base;
    ++out[Key{block, warp, issued_op(r.request.op), r.request.width, std::move(addr)}];
  }
  return out;
}

std::string describe(const Key& k) {
  std::string s = "block " + std::to_string(std::get<0>(k)[0]) + " warp " + std::to_string(std::get<1>(k)) + " " +
                  std::string(op_name(static_cast<Op>(std::get<2>(k)))) + " " + std::to_string(std::get<3>(k)) + ":";
  for (auto a : std::get<4>(k)) s += a == kInactive ? " -" : " " + std::to_string(a);
  return s;
}

int check(const std::string& trace, const std::string& expected) {
  const auto got = records(trace, shared_base()), want = records(expected);
  std::uint64_t n = 0, bad = 0;
  for (const auto& [k, count] : want) {
    n += count;
    auto it = got.find(k);
    const std::uint64_t have = it == got.end() ? 0 : it->second;
    if (have != count && bad++ < 5)
      std::cout << "  expected " << count << "x, captured " << have << "x: " << describe(k) << "\n";
  }
  for (const auto& [k, count] : got)
    if (!want.count(k) && bad++ < 10) std::cout << "  captured but not expected (" << count << "x): " << describe(k) << "\n";
  std::cout << (bad == 0 ? "MATCH " : "MISMATCH ") << n << " expected records\n";
  return bad == 0 ? 0 : 1;
}

int replay_trace(const std::string& trace) {
  auto source = open_trace(trace);
  const auto s = replay(*source, make_preset("sm90"));
  std::cout << "  instructions " << s.totals.instructions << " wavefronts " << s.totals.wavefronts << " conflicts "
            << s.totals.conflicts() << "\n";
  for (const auto& k : s.unmodelled)
    std::cout << "  " << k.instructions << " instructions of kind '" << op_name(k.op) << " " << k.width
              << "' not modelled\n";
  return 0;
}

int compare_traces(const std::string& ncu_csv, const std::string& out_csv, const std::vector<std::string>& traces) {
  std::ifstream in(ncu_csv);
  std::stringstream text;
  text << in.rdbuf();
  const auto ncu = capture::parse_ncu_source(text.str(), ncu_csv);
  const auto result = capture::compare_with_ncu(ncu, traces, make_preset("sm90"));
  std::ofstream out(out_csv);
  out << "launch,kernel,offset,sass,executed_model,executed_ncu,wavefronts_model,wavefronts_ncu,modelled,equal\n";
  std::uint64_t equal = 0, wf_model = 0, wf_ncu = 0;
  for (const auto& r : result.rows) {
    std::string sass = r.sass, kernel = r.kernel;
    for (auto* s : {&sass, &kernel})
      for (char& c : *s)
        if (c == ',' || c == '"') c = ' ';
    out << r.launch << "," << kernel << "," << r.offset << "," << sass << "," << r.model_executed << ","
        << r.measured_executed << "," << r.model_wavefronts << "," << r.measured_wavefronts << ","
        << (r.modelled ? 1 : 0) << "," << (r.equal() ? 1 : 0) << "\n";
    equal += r.equal();
    wf_model += r.model_wavefronts;
    wf_ncu += r.measured_wavefronts;
    if (!r.equal())
      std::cout << "  differs: launch " << r.launch << " +0x" << std::hex << r.offset << std::dec << " " << r.sass
                << ": model " << r.model_wavefronts << " (" << r.model_executed << " executions, "
                << (r.modelled ? "modelled" : "NOT modelled") << "), ncu " << r.measured_wavefronts << " ("
                << r.measured_executed << " executions)\n";
  }
  for (const auto& n : result.notes) std::cout << "  note: " << n << "\n";
  std::cout << "  instructions equal " << equal << "/" << result.rows.size() << ", wavefronts model " << wf_model
            << " ncu " << wf_ncu << "\n";
  return result.all_equal() ? 0 : 1;
}

/// What the CPU replay of full traces says about one (launch, instruction).
struct Replayed {
  std::uint64_t executions = 0, lanes = 0, unmodelled = 0, wavefronts = 0, ideal = 0, worst_excess = 0;
  std::uint32_t degree = 0;
};

int summary_check(const std::string& summary_csv, const std::vector<std::string>& traces) {
  const BankModel model = make_preset("sm90");
  std::map<std::pair<std::uint64_t, std::string>, Replayed> replayed;
  for (const std::string& trace : traces) {
    auto source = open_trace(trace);
    TraceRecord r;
    while (source->next(r)) {
      Replayed& x = replayed[{r.location ? r.location->launch : 0, source->sites().name(r.site)}];
      const RequestCost c = model.cost(r.request);
      ++x.executions;
      x.lanes += active_lanes(r.request);
      if (!c.modelled) ++x.unmodelled;
      x.wavefronts += c.wavefronts;
      x.ideal += c.ideal;
      x.degree = std::max(x.degree, c.degree);
      x.worst_excess = std::max(x.worst_excess, c.conflicts());
    }
  }
  const auto rows = capture::read_summary_table(summary_csv);
  std::uint64_t equal = 0, bad = 0, executions = 0;
  std::map<std::uint64_t, bool> launches_in_traces;
  for (const auto& [key, x] : replayed) launches_in_traces[key.first] = true;
  for (const auto& row : rows) {
    if (!launches_in_traces.count(row.launch)) continue;  // a launch the full capture did not take
    executions += row.executions;
    const auto it = replayed.find({row.launch, row.site});
    const Replayed x = it == replayed.end() ? Replayed{} : it->second;
    std::uint64_t worst_cpu = 0;
    if (row.worst) {
      std::vector<std::uint64_t> addr(32, kInactive);
      for (unsigned l = 0; l < 32; ++l)
        if ((row.worst->mask >> l) & 1u) addr[l] = row.worst->addr[l];
      std::vector<std::uint64_t> source;
      if (row.worst->source)
        for (unsigned l = 0; l < 32; ++l) source.push_back((row.worst->mask >> l) & 1u ? (*row.worst->source)[l] : kInactive);
      worst_cpu = model.cost(WarpRequest{row.op, row.width, addr, source}).conflicts();
    }
    const bool same = x.executions == row.executions && x.lanes == row.lanes && x.unmodelled == row.costs.unmodelled &&
                      x.wavefronts == row.costs.wavefronts && x.ideal == row.costs.ideal &&
                      x.degree == row.costs.degree && (!row.worst || (worst_cpu == row.worst->excess &&
                                                                       worst_cpu == x.worst_excess));
    if (same) ++equal;
    else if (bad++ < 10)
      std::cout << "  differs: launch " << row.launch << " " << row.site << " " << op_name(row.op) << " " << row.width
                << ": summary " << row.executions << " executions, " << row.costs.wavefronts << " wavefronts, "
                << row.costs.ideal << " ideal, degree " << row.costs.degree << ", worst excess "
                << (row.worst ? std::to_string(row.worst->excess) + " (CPU " + std::to_string(worst_cpu) + ")" : "-")
                << "; trace " << x.executions << ", " << x.wavefronts << ", " << x.ideal << ", degree " << x.degree
                << ", worst excess " << x.worst_excess << "\n";
    if (it != replayed.end()) replayed.erase(it);
  }
  for (const auto& [key, x] : replayed)
    if (bad++ < 20) std::cout << "  in the trace only: launch " << key.first << " " << key.second << " (" << x.executions << " executions)\n";
  if (equal + bad == 0) {  // nothing captured on either side proves nothing
    std::cout << "MISMATCH: no instruction to compare (did the program launch kernels?)\n";
    return 1;
  }
  std::cout << (bad == 0 ? "MATCH " : "MISMATCH ") << "instructions equal " << equal << "/" << equal + bad << ", "
            << executions << " warp executions\n";
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "check" && argc == 4) return check(argv[2], argv[3]);
    if (cmd == "replay" && argc == 3) return replay_trace(argv[2]);
    if (cmd == "summary-check" && argc >= 4) return summary_check(argv[2], {argv + 3, argv + argc});
    if (cmd == "compare" && argc >= 5) return compare_traces(argv[2], argv[3], {argv + 4, argv + argc});
    if (cmd == "capture" && argc > 7 && std::strcmp(argv[6], "--") == 0) {
      capture::CaptureRequest r;
      r.out = argv[2];
      r.library = argv[3];
      r.patches = argv[4];
      r.ring_slots = std::stoull(argv[5]);
      r.argv.assign(argv + 7, argv + argc);
      r.tool_dirs = {"/usr/local/cuda/bin"};
      if (const char* k = std::getenv("SMOKE_KERNEL")) r.filter.kernel_regex = k;
      if (const char* s = std::getenv("SMOKE_LAUNCH_SKIP")) r.filter.skip = capture::parse_count(s, "SMOKE_LAUNCH_SKIP");
      if (const char* c = std::getenv("SMOKE_LAUNCH_COUNT")) r.filter.count = capture::parse_count(c, "SMOKE_LAUNCH_COUNT");
      if (const char* n = std::getenv("SMOKE_SUMMARY_SLOTS")) r.summary_slots = capture::parse_count(n, "SMOKE_SUMMARY_SLOTS");
      if (const char* g = std::getenv("SMOKE_GENERIC")) r.generic = std::strcmp(g, "0") != 0;
      // `check` compares every record with its block and warp: records are not merged unless SMOKE_DEDUP=1.
      const char* dedup = std::getenv("SMOKE_DEDUP");
      r.dedup = dedup != nullptr && std::strcmp(dedup, "1") == 0;
      const auto report = capture::run_capture(r);
      std::cout << "  " << report.launches.size() << " launches, " << report.captured << " captured, "
                << (report.complete ? "complete" : "PARTIAL") << ", program exit " << report.program.exit_code << "\n";
      for (const auto& reason : report.reasons) std::cout << "  reason: " << reason << "\n";
      for (const auto& note : report.notes) std::cout << "  note: " << note << "\n";
      return report.exit_code();
    }
    std::cerr << "usage: see the top of validate/capture/smoke_driver.cpp\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout << "  error: " << e.what() << "\n";
    return 2;
  }
}
