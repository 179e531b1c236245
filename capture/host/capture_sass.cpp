#include "capture/host/capture_sass.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "capture/host/each_in_parallel.hpp"
#include "capture/host/function_map.hpp"
#include "capture/host/process.hpp"
#include "capture/host/sass_table.hpp"
#include "sim/trace/atomic_file.hpp"

namespace bankcheck::capture {

namespace fs = std::filesystem;

namespace {

struct Cubin {
  fs::path path;
  std::string functions;  ///< the captured functions it holds: symbol indices, comma-separated (nvdisasm -fun)
};

/// The functions of the captured launches: only their cubins need SASS.
std::set<std::string> captured_functions(const CaptureReport& report) {
  std::set<std::string> out;
  for (const LaunchRow& row : report.launches)
    if (row.status != kStatusSkipped) out.insert(row.kernel);
  return out;
}

/// Sites are named by function: a name two modules define with different code leaves those sites unknown.
void note_ambiguous_functions(const std::vector<SassLine>& lines, CaptureReport& report) {
  SassTable joined;
  for (const SassLine& l : lines) joined.add(l);
  for (const std::string& f : joined.ambiguous_functions())
    report.notes.push_back("two modules define " + f + " with different code: sites are named by function, so " +
                           "where their SASS or line info differ it is left unknown (never one module's)");
}

/// Disassembles each cubin's captured functions (the whole cubin where that fails; without line info where
/// nvdisasm cannot read it), several at once: a PyTorch program loads hundreds of large modules.
std::vector<std::optional<std::string>> disassemble(const std::vector<Cubin>& todo, const std::string& nvdisasm,
                                                    const std::string& cuobjdump) {
  const auto listings = disassemble(todo, nvdisasm, cuobjdump);
  std::vector<SassLine> lines;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    if (!listings[i]) {
      problems.push_back("could not disassemble " + todo[i].path.filename().string() + " with " +
                         (nvdisasm.empty() ? cuobjdump : nvdisasm));
      report.notes.push_back(problems.back());
      continue;
    }
    auto part = parse_disassembly(*listings[i]);
    lines.insert(lines.end(), part.begin(), part.end());
  }
  if (unused > 0)
    report.notes.push_back(std::to_string(unused) + " of " + std::to_string(unused + todo.size()) +
                           " cubins hold no captured launch's function: not disassembled");
  note_ambiguous_functions(lines, report);
  AtomicFile out(staging / "sass.csv");
  out.write(sass_table_text(lines));
  out.commit();
  return problems;
}

}  // namespace bankcheck::capture
