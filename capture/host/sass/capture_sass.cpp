#include "capture/host/sass/capture_sass.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/run/process.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "sim/parallel/parallel_for.hpp"
#include "sim/trace/atomic_file.hpp"

namespace bankcheck::capture {

namespace fs = std::filesystem;

namespace {

/// The functions of the captured launches: only their cubins need SASS.
std::set<std::string> captured_functions(const CaptureReport& report) {
  std::set<std::string> out;
  for (const LaunchRow& row : report.launches)
    if (row.status != kStatusSkipped) out.insert(row.kernel);
  return out;
}

struct Cubin {
  fs::path path;
  std::string functions;  ///< the captured functions it holds: symbol indices, comma-separated (nvdisasm -fun)
};

/// Disassembles each cubin's captured functions (the whole cubin where that fails; without line info where
/// nvdisasm cannot read it), several at once: a PyTorch program loads hundreds of large modules.
std::vector<std::optional<std::string>> disassemble(const std::vector<Cubin>& todo, const std::string& nvdisasm,
                                                    const std::string& cuobjdump) {
  std::vector<std::optional<std::string>> listings(todo.size());
  parallel_for(todo.size(), 0, [&](std::size_t i) {
    const std::string path = todo[i].path.string();
    if (nvdisasm.empty()) {
      listings[i] = program_output({cuobjdump, "-sass", path});
      return;
    }
    if (!todo[i].functions.empty()) listings[i] = program_output({nvdisasm, "-c", "-gi", "-fun", todo[i].functions, path});
    if (!listings[i]) listings[i] = program_output({nvdisasm, "-c", "-gi", path});
    if (!listings[i]) listings[i] = program_output({nvdisasm, "-c", path});
  });
  return listings;
}

/// Sites are named by function: a name two modules define with different code leaves those sites unknown.
void note_ambiguous_functions(const std::vector<SassLine>& lines, CaptureReport& report) {
  SassTable joined;
  for (const SassLine& l : lines) joined.add(l);
  for (const std::string& f : joined.ambiguous_functions())
    report.notes.push_back("two modules define " + f + " with different code: sites are named by function, so " +
                           "where their SASS or line info differ it is left unknown (never one module's)");
}

}  // namespace

std::vector<std::string> write_sass(const fs::path& staging, const std::vector<std::string>& tool_dirs,
                                    CaptureReport& report) {
  std::vector<std::string> problems;
  const fs::path cubins = staging / "cubins";
  std::error_code ec;
  if (!fs::is_directory(cubins, ec) || fs::is_empty(cubins, ec)) return problems;
  const std::string nvdisasm = find_executable({"nvdisasm"}, tool_dirs);
  const std::string cuobjdump = nvdisasm.empty() ? find_executable({"cuobjdump"}, tool_dirs) : "";
  if (nvdisasm.empty() && cuobjdump.empty()) {
    problems.push_back("neither nvdisasm nor cuobjdump was found (PATH, next to nvcc): sass.csv not written; "
                       "the cubins are in cubins/");
    report.notes.push_back(problems.back());
    return problems;
  }
  // Only cubins holding a captured launch's function are disassembled.
  const std::set<std::string> wanted = captured_functions(report);
  std::vector<Cubin> todo;
  std::uint64_t unused = 0;
  for (const auto& entry : fs::directory_iterator(cubins)) {
    if (entry.path().extension() != ".cubin") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto functions = cubin_functions({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
    Cubin c{entry.path(), ""};
    for (const CubinFunction& f : functions)
      if (wanted.count(f.name) > 0) c.functions += (c.functions.empty() ? "" : ",") + std::to_string(f.symbol);
    if (functions.empty() || !c.functions.empty()) todo.push_back(c);  // unreadable: let the disassembler judge
    else ++unused;
  }
  std::sort(todo.begin(), todo.end(), [](const Cubin& a, const Cubin& b) { return a.path < b.path; });
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
