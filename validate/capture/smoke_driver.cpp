// The minimal capture driver of validate/capture/gpu_smoke.sh: the same
// library functions as `bankcheck capture` and `bankcheck replay`, with no
// dependency beyond the C++ standard library, so that it builds on the GPU
// machine with g++ alone.
//   smoke_driver capture OUT LIBRARY PATCHES RING_SLOTS -- PROGRAM [ARGS...]
//   smoke_driver check TRACE EXPECTED.trace     (same records, as multisets)
//   smoke_driver replay TRACE                    (sm90 totals, unmodelled kinds)
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "capture/host/capture_run.hpp"
#include "model/bank_model.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

using namespace bankcheck;

namespace {

using Key = std::tuple<std::array<std::uint32_t, 3>, std::uint32_t, unsigned, unsigned, std::vector<std::uint64_t>>;

std::map<Key, std::uint64_t> records(const std::string& path) {
  auto source = open_trace(path);
  std::map<Key, std::uint64_t> out;
  TraceRecord r;
  while (source->next(r)) {
    const auto block = r.location ? r.location->block : std::array<std::uint32_t, 3>{};
    const std::uint32_t warp = r.location ? r.location->warp : 0;
    ++out[Key{block, warp, static_cast<unsigned>(r.request.op), r.request.width,
              std::vector<std::uint64_t>(r.request.addr.begin(), r.request.addr.end())}];
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
  const auto got = records(trace), want = records(expected);
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
            << s.totals.conflicts << "\n";
  for (const auto& k : s.unmodelled)
    std::cout << "  " << k.instructions << " instructions of kind '" << op_name(k.op) << " " << k.width
              << "' not modelled\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "check" && argc == 4) return check(argv[2], argv[3]);
    if (cmd == "replay" && argc == 3) return replay_trace(argv[2]);
    if (cmd == "capture" && argc > 7 && std::strcmp(argv[6], "--") == 0) {
      capture::CaptureRequest r;
      r.out = argv[2];
      r.library = argv[3];
      r.patches = argv[4];
      r.ring_slots = std::stoull(argv[5]);
      r.argv.assign(argv + 7, argv + argc);
      r.tool_dirs = {"/usr/local/cuda/bin"};
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
