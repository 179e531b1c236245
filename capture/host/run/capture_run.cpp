#include "capture/host/run/capture_run.hpp"

#include "capture/host/sass/op_refinement.hpp"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "capture/host/run/capture_options.hpp"
#include "capture/host/sass/capture_sass.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "sim/parallel/parallel_for.hpp"
#include "sim/trace/atomic_file.hpp"

namespace bankcheck::capture {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text_atomically(const fs::path& path, const std::string& text) {
  AtomicFile out(path);
  out.write(text);
  out.commit();
}

/// Whether `dir` may be replaced by a capture: absent, empty, or a previous capture.
bool replaceable(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) return false;
  return fs::is_empty(dir, ec) || fs::exists(dir / "capture.json", ec);
}

/// The status logs the library wrote (status.log, status-PID.log of child processes).
void read_status(const fs::path& staging, CaptureReport& report) {
  for (const auto& entry : fs::directory_iterator(staging)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("status", 0) != 0 || entry.path().extension() != ".log") continue;
    std::istringstream lines(read_text(entry.path()));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("init:", 0) == 0 && name == "status.log") report.injected = true;
      else if (line.rfind("error: ", 0) == 0) report.reasons.push_back(line.substr(7));
      else if (line.rfind("note: ", 0) == 0) report.notes.push_back(line.substr(6));
    }
  }
}

/// Traces left as *.tmp (the program ended during the launch) become *.partial.
void mark_unfinished_traces(const fs::path& staging, CaptureReport& report) {
  for (const auto& entry : fs::directory_iterator(staging)) {
    const fs::path p = entry.path();
    if (p.extension() != ".tmp" || p.stem().extension() != ".bktrace") continue;
    fs::path partial = p;
    partial.replace_extension(".partial");
    fs::rename(p, partial);
    report.reasons.push_back("trace " + partial.filename().string() + " was not finished (kept, marked partial)");
  }
}

/// sass.csv from the saved cubins, by nvdisasm (or cuobjdump -sass).
/// @return why some SASS is missing (no disassembler, a cubin it could not
///         read), each also a note; empty when every cubin was read.
/// Rewrite summary.csv with the ops its SASS refines (capture/host/summary/instruction_summary.hpp).
/// @return the rows of a refinable kind whose site has no SASS.
std::uint64_t refine_summary_ops(const fs::path& staging, const SassTable& sass) {
  auto rows = read_summary_table((staging / "summary.csv").string());
  std::string text = summary_table_header();
  std::uint64_t unrefined = 0;
  for (auto& row : rows) {
    unrefined += refinable(row.op) && sass.find(row.site) == nullptr;
    refine_summary(row, sass);
    text += summary_row_line(row);
  }
  write_text_atomically(staging / "summary.csv", text);
  return unrefined;
}

/// Rewrite each trace (and summary.csv) with the ops its SASS refines
/// (capture/host/sass/op_refinement.hpp). An atomic or cp.async whose site has
/// no SASS keeps the sanitizer's kind, which may cost otherwise: the
/// capture is then partial, with why the SASS is missing.
void refine_ops(const fs::path& staging, const std::vector<std::string>& sass_problems, CaptureReport& report) {
  std::error_code ec;
  try {
    SassTable sass;
    if (fs::exists(staging / "sass.csv", ec)) sass = SassTable::read((staging / "sass.csv").string());
    std::uint64_t records = 0, rows = 0;
    std::string traces;
    // The traces one per thread: a PyTorch program's captures are gigabytes (docs/scaling.md).
    std::vector<const LaunchRow*> rows_with_trace;
    for (const LaunchRow& row : report.launches)
      if (!row.trace.empty() && fs::exists(staging / row.trace, ec)) rows_with_trace.push_back(&row);
    std::vector<TraceRefinement> refined(rows_with_trace.size());
    std::vector<std::string> failed(rows_with_trace.size());
    parallel_for(rows_with_trace.size(), 0, [&](std::size_t i) {
      try {
        refined[i] = refine_trace_ops(staging / rows_with_trace[i]->trace, sass);
      } catch (const std::exception& e) {
        failed[i] = rows_with_trace[i]->trace + ": " + e.what();
      }
    });
    for (std::size_t i = 0; i < rows_with_trace.size(); ++i) {
      if (!failed[i].empty()) throw std::runtime_error(failed[i]);
      if (refined[i].unrefined == 0) continue;
      records += refined[i].unrefined;
      traces += (traces.empty() ? "" : ", ") + rows_with_trace[i]->trace;
    }
    if (fs::exists(staging / "summary.csv", ec)) rows = refine_summary_ops(staging, sass);
    if (records == 0 && rows == 0) return;
    std::string what;
    if (records > 0) what = std::to_string(records) + " atomic or cp.async warp accesses (" + traces + ")";
    if (rows > 0)
      what += (what.empty() ? "" : " and ") + std::to_string(rows) + " atomic or cp.async instructions of summary.csv";
    std::string why;
    for (const std::string& p : sass_problems) why += (why.empty() ? "" : "; ") + p;
    if (why.empty()) why = "no SASS was saved for their functions";
    report.reasons.push_back(what + " have no SASS, so their kinds stay as the sanitizer reported them, which may "
                             "cost otherwise on sm90 (a CAS twice an atom; docs/bank-model.md, rules 4 and 6): " + why);
  } catch (const std::exception& e) {
    report.reasons.push_back(std::string("refining the traces' ops from their SASS failed: ") + e.what());
  }
}

}  // namespace

std::uint64_t default_max_bytes(std::uintmax_t available) {
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(available / 2));
}

bool cuda_driver_present() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return false;
  ::dlclose(handle);
  return true;
}

int CaptureReport::exit_code() const {
  if (program.exit_code != 0) return program.exit_code;
  return complete ? 0 : kExitIncomplete;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void check_capture_request(const CaptureRequest& r) {
  if (r.argv.empty()) throw std::invalid_argument("no program given (usage: bankcheck capture -o OUT -- PROGRAM [ARGS...])");
  if (r.out.empty()) throw std::invalid_argument("-o OUT is required");
  if (!replaceable(r.out))
    throw std::invalid_argument("'" + r.out.string() +
                                "' exists and is not a capture folder (no capture.json): choose another -o");
  std::error_code ec;
  if (!fs::exists(r.library, ec))
    throw std::invalid_argument("the capture library '" + r.library.string() +
                                "' does not exist: build target bankcheck_capture (it needs the Compute Sanitizer "
                                "API, docs/capture.md) or pass --library");
  if (!fs::exists(r.patches, ec))
    throw std::invalid_argument("the capture patches '" + r.patches.string() +
                                "' do not exist: build target bankcheck_capture_patches (docs/capture.md)");
  if (r.ring_slots != 0 && (r.ring_slots & (r.ring_slots - 1)) != 0)
    throw std::invalid_argument("--ring-slots must be a power of two in 1.." + std::to_string(kMaxRingSlots) +
                                " (got " + std::to_string(r.ring_slots) + ")");
  if (r.summary_slots != 0 && !is_valid_summary_slots(r.summary_slots))
    throw std::invalid_argument("--summary-slots must be a power of two in 1.." + std::to_string(kMaxSummarySlots) +
                                " (got " + std::to_string(r.summary_slots) + ")");
  if (r.ring_slots > kMaxRingSlots)
    throw std::invalid_argument("--ring-slots must be a power of two in 1.." + std::to_string(kMaxRingSlots) +
                                " (got " + std::to_string(r.ring_slots) + ")");
  LaunchFilter check(r.filter);  // a bad regex throws here, before anything runs
  // The driver skips an injection library that does not load, silently; so
  // load it here first, where a CUDA driver exists for its dependencies.
  if (cuda_driver_present()) {
    void* handle = ::dlopen(fs::absolute(r.library).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      throw std::invalid_argument("the capture library '" + r.library.string() + "' cannot be loaded (" +
                                  (why ? why : "unknown error") + "): the driver would skip it and capture nothing");
    }
    ::dlclose(handle);
  }
}

namespace {

/// The library's options: the staging folder, the request's settings, and a --max-bytes default tied to free space.
CaptureOptions capture_options(const CaptureRequest& request, const fs::path& staging, const fs::path& out) {
  CaptureOptions options;
  options.dir = staging.string();
  options.patches = fs::absolute(request.patches).string();
  options.filter = request.filter;
  if (request.ring_slots != 0) options.ring_slots = request.ring_slots;
  options.generic = request.generic;
  options.global = request.global;
  options.dedup = request.dedup;
  options.summary_slots = request.summary_slots;
  std::error_code space_ec;
  options.max_bytes = request.max_bytes ? *request.max_bytes
                                        : default_max_bytes(fs::space(out.parent_path(), space_ec).available);
  return options;
}

/// What the program and the library left in staging: status, launches (an empty table where none), and why the
/// capture is partial.
void read_outcome(const fs::path& staging, const CaptureRequest& request, CaptureReport& report) {
  read_status(staging, report);
  mark_unfinished_traces(staging, report);
  std::error_code ec;
  if (fs::exists(staging / "launches.csv", ec)) {
    try {
      report.launches = read_launch_table((staging / "launches.csv").string());
    } catch (const std::exception& e) {
      report.reasons.push_back(std::string("launches.csv is unreadable: ") + e.what());
    }
  } else {
    write_text_atomically(staging / "launches.csv", launch_table_header());
  }
  if (request.summary_slots != 0 && !fs::exists(staging / "summary.csv", ec))
    write_text_atomically(staging / "summary.csv", summary_table_header());
  for (const LaunchRow& row : report.launches) {
    if (!row.trace.empty() || (request.summary_slots != 0 && row.status != kStatusSkipped)) ++report.captured;
    if (!row.complete()) report.reasons.push_back("launch " + std::to_string(row.id) + " (" + row.demangled + "): " + row.status);
    if (!row.untraced.empty())
      report.notes.push_back("launch " + std::to_string(row.id) + " has shared-memory operations that are not traced: " +
                             row.untraced);
  }
  if (!report.injected && report.program.exit_code == 0 && cuda_driver_present())
    report.notes.push_back("the capture library was never loaded: the program did not initialise CUDA (or started "
                           "it in a way the driver does not inject into); nothing was captured");
  if (report.program.exit_code != 0) {
    report.reasons.push_back(report.program.signal != 0
                                 ? "the program was killed by signal " + std::to_string(report.program.signal)
                                 : "the program exited with code " + std::to_string(report.program.exit_code));
    if (!report.injected)
      report.reasons.push_back(cuda_driver_present()
                                   ? "the capture library was never loaded: the program ended before CUDA "
                                     "initialised (no GPU?)"
                                   : "the capture library was never loaded, and this machine has no GPU / no CUDA "
                                     "driver (libcuda.so.1 cannot be loaded): no kernel can run or be captured here");
  }
}

/// Into place: a previous capture at OUT is replaced only now.
void move_into_place(const fs::path& staging, const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec)) {
    const fs::path old = out.parent_path() / ("." + out.filename().string() + ".old-" + std::to_string(::getpid()));
    fs::rename(out, old);
    fs::rename(staging, out);
    fs::remove_all(old);
  } else {
    fs::rename(staging, out);
  }
}

}  // namespace

CaptureReport run_capture(const CaptureRequest& request) {
  check_capture_request(request);
  CaptureReport report;
  report.out = request.out;
  const fs::path out = fs::absolute(request.out);
  const fs::path staging = out.parent_path() / ("." + out.filename().string() + ".capture-" + std::to_string(::getpid()));
  fs::remove_all(staging);
  fs::create_directories(staging);

  const CaptureOptions options = capture_options(request, staging, out);
  auto env = options.to_environment();
  env.emplace_back("CUDA_INJECTION64_PATH", fs::absolute(request.library).string());
  // Load every function with its module, so the library can name the
  // function of every pc when the module loads (docs/capture.md).
  if (std::getenv("CUDA_MODULE_LOADING") == nullptr) env.emplace_back("CUDA_MODULE_LOADING", "EAGER");

  auto stage_start = std::chrono::steady_clock::now();
  auto stage_done = [&](const char* name) {
    const auto now = std::chrono::steady_clock::now();
    report.seconds.emplace_back(name, std::chrono::duration<double>(now - stage_start).count());
    stage_start = now;
  };
  report.program = run_program(request.argv, env);
  stage_done("program");
  if (report.program.interrupted != 0)
    report.reasons.push_back(std::string("the capture was stopped (") +
                             (report.program.interrupted == SIGINT ? "SIGINT" : "SIGTERM") +
                             "), which was passed on to the program: what it captured before is kept");
  if (!report.program.started) {
    fs::remove_all(staging);
    report.reasons.push_back("the program '" + request.argv[0] + "' could not be run: " + report.program.error);
    return report;
  }

  read_outcome(staging, request, report);
  std::vector<std::string> sass_problems;
  try {
    sass_problems = write_sass(staging, request.tool_dirs, report);
  } catch (const std::exception& e) {
    sass_problems.push_back(std::string("sass.csv not written: ") + e.what());
    report.notes.push_back(sass_problems.back());
  }
  stage_done("disassembly");
  refine_ops(staging, sass_problems, report);
  stage_done("refinement");
  report.complete = report.reasons.empty();
  write_text_atomically(staging / "capture.json", capture_json(request, report));

  move_into_place(staging, out);
  return report;
}

std::string capture_ended_early(const fs::path& path) {
  const std::string text = read_text(path);  // written by capture_json below: "key": value, one per line
  auto number = [&](const char* key) -> long {
    const std::string quoted = std::string("\"") + key + "\": ";
    const std::size_t at = text.find(quoted);
    return at == std::string::npos ? 0 : std::strtol(text.c_str() + at + quoted.size(), nullptr, 10);
  };
  if (const long signal = number("signal"); signal != 0)
    return "the program ended early: killed by signal " + std::to_string(signal);
  if (const long code = number("exit_code"); code != 0) return "the program ended early: exit " + std::to_string(code);
  return "";
}

std::string capture_json(const CaptureRequest& request, const CaptureReport& report) {
  std::ostringstream j;
  auto strings = [&](const std::vector<std::string>& v) {
    j << "[";
    for (std::size_t i = 0; i < v.size(); ++i) j << (i ? ", " : "") << json_string(v[i]);
    j << "]";
  };
  j << "{\n  \"schema_version\": " << kCaptureSchemaVersion << ",\n";
  j << "  \"program\": " << json_string(request.argv.empty() ? "" : request.argv[0]) << ",\n  \"argv\": ";
  strings(request.argv);
  j << ",\n  \"exit_code\": " << report.program.exit_code << ",\n";
  j << "  \"signal\": " << report.program.signal << ",\n";
  j << "  \"complete\": " << (report.complete ? "true" : "false") << ",\n";
  j << "  \"status\": " << json_string(report.complete ? "complete" : "partial") << ",\n";
  j << "  \"mode\": " << json_string(request.summary_slots != 0 ? "summary" : "trace") << ",\n";
  j << "  \"capture_library_loaded\": " << (report.injected ? "true" : "false") << ",\n";
  j << "  \"launches\": " << report.launches.size() << ",\n";
  j << "  \"captured_launches\": " << report.captured << ",\n  \"seconds\": {";
  for (std::size_t i = 0; i < report.seconds.size(); ++i)
    j << (i ? ", " : "") << json_string(report.seconds[i].first) << ": " << report.seconds[i].second;
  j << "},\n  \"reasons\": ";
  strings(report.reasons);
  j << ",\n  \"notes\": ";
  strings(report.notes);
  j << "\n}\n";
  return j.str();
}

}  // namespace bankcheck::capture
