// `bankcheck capture [--kernel REGEX] [--launch-skip N] [--launch-count N]
// [--blocks LIST] -o OUT -- PROGRAM [ARGS...]`: run an unmodified CUDA
// program with the capture library injected and write one trace per
// captured launch (docs/capture.md). The work is capture/host/run/capture_run.hpp;
// this file parses, prints and passes the exit code on.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture/host/run/capture_options.hpp"
#include "capture/host/run/capture_run.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "capture/host/summary/summary_results.hpp"
#include "model/bank_model.hpp"
#include "sim/report/results_writer.hpp"
#include "sim/trace/atomic_file.hpp"
#include "capture/host/launch/launch_filter.hpp"
#include "capture/host/run/process.hpp"
#include "cli/commands.hpp"

namespace bankcheck::cli {
namespace {

namespace fs = std::filesystem;

struct CaptureCommandOptions {
  std::string out, kernel, kernel_name_base = "function", blocks, library, patches;
  std::optional<std::string> skip, count;
  std::uint64_t ring_slots = 0;
  bool no_generic = false;
  bool global = false;
  bool no_dedup = false;
  bool summary = false;
  std::optional<std::uint64_t> summary_slots;
  std::optional<std::string> max_bytes;
  std::vector<std::string> argv;
};

fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : self.parent_path();
}

/// `--summary`: OUT/summary.csv as the results schema, printed and written to OUT/summary.json.
void print_summary(const fs::path& out) {
  std::optional<capture::SassTable> sass;
  if (fs::exists(out / "sass.csv")) sass = capture::SassTable::read((out / "sass.csv").string());
  const auto sass_of = [&sass](const std::string& site) {
    const std::string* text = sass ? sass->find(site) : nullptr;
    return text ? *text : std::string();
  };
  const auto rows = capture::read_summary_table((out / "summary.csv").string());
  std::function<report::SourceLine(const std::string&)> source_of;  // no sass.csv: no line info to say
  if (sass)
    source_of = [&sass](const std::string& site) {
      const report::SourceLine* line = sass->source(site);
      return line ? *line : report::SourceLine{};
    };
  const report::Results results = capture::summary_results(rows, make_preset("sm90"), sass_of, out.string(), source_of);
  std::ostringstream json;
  report::ResultsWriter(json, report::Format::json, false).finish(results);
  AtomicFile file(out / "summary.json");
  file.write(json.str());
  file.commit();
  report::ResultsWriter(std::cout, report::Format::text, false).finish(results);
}

void run(const CaptureCommandOptions& o) {
  capture::CaptureRequest r;
  r.argv = o.argv;
  r.out = o.out;
  r.library = o.library.empty() ? executable_dir() / capture::kCaptureLibraryName : fs::path(o.library);
  r.patches = o.patches.empty() ? r.library.parent_path() / capture::kPatchFileName : fs::path(o.patches);
  r.filter.kernel_regex = o.kernel;
  r.filter.name_base = capture::parse_kernel_name_base(o.kernel_name_base);
  if (o.skip) r.filter.skip = capture::parse_count(*o.skip, "--launch-skip");
  if (o.count) r.filter.count = capture::parse_count(*o.count, "--launch-count");
  if (!o.blocks.empty()) r.filter.blocks = capture::parse_block_list(o.blocks);
  r.ring_slots = o.ring_slots;
  r.generic = !o.no_generic;
  r.global = o.global;
  r.dedup = !o.no_dedup;
  if (o.summary) r.summary_slots = o.summary_slots.value_or(capture::kDefaultSummarySlots);
  if (o.max_bytes) {
    r.max_bytes = capture::parse_count(*o.max_bytes, "--max-bytes");
    if (*r.max_bytes == 0) throw std::invalid_argument("--max-bytes must be in 1..2^64-1 (got 0)");
  }
  if (o.summary_slots && *o.summary_slots == 0)
    throw std::invalid_argument("--summary-slots must be a power of two in 1.." +
                                std::to_string(capture::kMaxSummarySlots) + " (got 0)");
  const std::string nvcc = capture::find_executable({"nvcc"}, {"/usr/local/cuda/bin"});
  if (!nvcc.empty()) r.tool_dirs.push_back(fs::path(nvcc).parent_path().string());
  r.tool_dirs.push_back("/usr/local/cuda/bin");

  const capture::CaptureReport report = capture::run_capture(r);
  std::cout.flush();
  if (!report.program.started) {
    std::cerr << "bankcheck capture: error: cannot run '" << r.argv[0] << "': " << report.program.error << "\n";
    exit_code() = report.program.exit_code;
    return;
  }
  std::cerr << "bankcheck capture: " << report.launches.size() << " launches, " << report.captured << " captured, into "
            << report.out.string() << " (" << (report.complete ? "complete" : "PARTIAL") << ")\n";
  for (const auto& row : report.launches)
    if (!row.trace.empty())
      std::cerr << "  launch " << row.id << "  " << row.demangled << "  grid " << capture::dims_text(row.grid)
                << " block " << capture::dims_text(row.block) << "  " << row.records_written << " records  "
                << row.status << "\n";
  for (const auto& note : report.notes) std::cerr << "bankcheck capture: note: " << note << "\n";
  for (const auto& reason : report.reasons) std::cerr << "bankcheck capture: incomplete: " << reason << "\n";
  if (r.summary_slots != 0) print_summary(report.out);
  exit_code() = report.exit_code();
}

}  // namespace

void add_capture_command(CLI::App& app) {
  auto o = std::make_shared<CaptureCommandOptions>();
  auto* cmd = app.add_subcommand(
      "capture", "Run an unmodified CUDA program (C++, Python) and capture its shared-memory accesses as traces: "
                 "bankcheck capture -o OUT -- PROGRAM [ARGS...]");
  cmd->add_option("-o,--out", o->out, "Output folder (launches.csv, launch-N.bktrace, sass.csv, capture.json)")
      ->required();
  cmd->add_option("--kernel", o->kernel, "Capture only kernels whose name (in --kernel-name-base) matches this "
                                         "regular expression (ECMAScript, searched), as ncu -k regex: does");
  cmd->add_option("--kernel-name-base", o->kernel_name_base,
                  "Which name --kernel searches, as ncu's option of that name: function (the bare function name, "
                  "the default), demangled or mangled");
  cmd->add_option("--launch-skip", o->skip, "Pass over the first N matching launches (0..2^64-1)");
  cmd->add_option("--launch-count", o->count, "Capture at most N matching launches (0..2^64-1; default all)");
  cmd->add_option("--blocks", o->blocks, "Record only these linear block ids, e.g. 0-3,7 (at most 16 parts)");
  cmd->add_option("--library", o->library, "The capture library (default: libbankcheck_capture.so next to bankcheck)");
  cmd->add_option("--patches", o->patches, "The patch fatbin (default: next to the library)");
  cmd->add_option("--ring-slots", o->ring_slots, "Records in the ring buffer, a power of two (default 65536)");
  cmd->add_flag("--no-generic", o->no_generic,
                "Do not patch generic (non-.shared) accesses; faster, but misses shared accesses through generic pointers");
  auto* global = cmd->add_flag("--global", o->global,
                               "Also record global loads, stores and atomics (gld/gst/gatom, 64-bit addresses) into the traces: replay "
                               "and compare cost them in 32-byte sectors, lines and pages (docs/global-memory.md); "
                               "global atomics and reductions as gatom");
  auto* summary = cmd->add_flag("--summary", o->summary,
                "Cost every warp request on the GPU with the sm90 rules and keep per-instruction totals and the worst "
                "record (OUT/summary.csv, OUT/summary.json, printed) instead of writing traces: for whole applications");
  cmd->add_option("--summary-slots", o->summary_slots,
                  "With --summary: instructions per shard of the device table, a power of two in 1..1048576 "
                  "(default 1024; a launch that needs more is reported incomplete)")
      ->needs("--summary");
  global->excludes(summary);
  cmd->add_flag("--no-dedup", o->no_dedup,
                "Write every warp record with its own block and warp (as `suggest` needs), instead of merging a launch's "
                "identical records into one with a count (docs/capture.md, \"Deduplicated traces\")")
      ->excludes(summary);
  cmd->add_option("--max-bytes", o->max_bytes,
                  "Write at most this many bytes of traces (1..2^64-1; default half the free space where -o is): "
                  "records past it are counted, not written, and the capture is partial");
  cmd->add_option("program", o->argv, "-- PROGRAM [ARGS...]: the program to run, unmodified")->required();
  cmd->callback([o] {
    try {
      run(*o);
    } catch (const std::invalid_argument& e) {
      std::cerr << "bankcheck capture: error: " << e.what() << "\n";
      exit_code() = kBadInput;
    }
  });
}

}  // namespace bankcheck::cli
