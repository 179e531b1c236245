// Tests of `bankcheck capture`'s error paths, which need no GPU: the
// program's exit code is passed on, a missing program is 127 like a shell,
// bad options are 2 with the allowed range, and a program that tries CUDA
// where there is none gets a clear "no GPU / no CUDA driver" and a partial
// capture. The capture library is not loaded by programs that never
// initialise CUDA, so a placeholder file stands in for it where the real
// one was not built.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "capture/host/run/capture_run.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "tests/cli/cli_runner.hpp"
#include "tests/scratch.hpp"
#include "tests/skip.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace capture_command_test {

using bankcheck::test::run_cli;
namespace fs = std::filesystem;

namespace {

fs::path temp(const char* name) { return fs::path(bankcheck::test::scratch(name)); }

/// --library/--patches: the built ones when present, else placeholders.
std::string library_options() {
  const fs::path built = fs::path(BANKCHECK_CLI).parent_path();
  if (fs::exists(built / bankcheck::capture::kCaptureLibraryName) && fs::exists(built / bankcheck::capture::kPatchFileName))
    return "";
  const fs::path lib = temp("bankcheck_placeholder_capture.so"), patches = temp("bankcheck_placeholder.fatbin");
  std::ofstream(lib) << "placeholder";
  std::ofstream(patches) << "placeholder";
  return "--library " + lib.string() + " --patches " + patches.string() + " ";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("capture: a program without CUDA gives zero launches, complete") {
  const fs::path out = temp("bankcheck_capture_true");
  fs::remove_all(out);
  const auto r = run_cli("capture " + library_options() + "-o " + out.string() + " -- true");
  CHECK(r.code == 0);
  CHECK(r.out.find("0 launches, 0 captured") != std::string::npos);
  CHECK(slurp(out / "launches.csv").rfind("id,kernel,demangled,grid,block", 0) == 0);
  const std::string json = slurp(out / "capture.json");
  CHECK(json.find("\"complete\": true") != std::string::npos);
  CHECK(json.find("\"launches\": 0") != std::string::npos);
  // A second capture into the same folder replaces it.
  CHECK(run_cli("capture " + library_options() + "-o " + out.string() + " -- true").code == 0);
  fs::remove_all(out);
}

TEST_CASE("capture: the program's exit code is passed on and the capture marked partial") {
  const fs::path out = temp("bankcheck_capture_exit3");
  fs::remove_all(out);
  const auto r = run_cli("capture " + library_options() + "-o " + out.string() + " -- sh -c 'exit 3'");
  CHECK(r.code == 3);
  CHECK(r.out.find("PARTIAL") != std::string::npos);
  CHECK(slurp(out / "capture.json").find("\"status\": \"partial\"") != std::string::npos);
  CHECK(slurp(out / "capture.json").find("the program exited with code 3") != std::string::npos);
  fs::remove_all(out);
}

TEST_CASE("capture: a program that cannot be found is 127, and leaves no output") {
  const fs::path out = temp("bankcheck_capture_missing");
  fs::remove_all(out);
  const auto r = run_cli("capture " + library_options() + "-o " + out.string() + " -- /no/such/program");
  CHECK(r.code == 127);
  CHECK(r.out.find("cannot run '/no/such/program': not found") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("capture: bad options exit 2 naming what is allowed") {
  const std::string o = "capture " + library_options() + "-o " + temp("bankcheck_capture_bad").string();
  auto r = run_cli(o + " --blocks 4-1 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("ends before it starts") != std::string::npos);
  r = run_cli(o + " --launch-count -3 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("must be an integer in 0..18446744073709551615") != std::string::npos);
  r = run_cli(o + " --kernel '(' -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("not a valid regular expression") != std::string::npos);
  r = run_cli(o + " --ring-slots 1000 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("power of two") != std::string::npos);
  r = run_cli("capture --library /no/lib.so -o " + temp("bankcheck_capture_nolib").string() + " -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("the capture library '/no/lib.so' does not exist") != std::string::npos);
  // An existing folder that is not a capture is never overwritten.
  const fs::path keep = temp("bankcheck_capture_keep");
  fs::create_directories(keep);
  std::ofstream(keep / "precious.txt") << "mine";
  r = run_cli("capture " + library_options() + "-o " + keep.string() + " -- true");
  CHECK(r.code == 2);
  CHECK(fs::exists(keep / "precious.txt"));
  fs::remove_all(keep);
}

TEST_CASE("capture: a program that tries CUDA where there is no driver gets a clear message") {
  if (bankcheck::capture::cuda_driver_present()) {
    bankcheck::test::skip("the no-driver message: this machine has a CUDA driver");
    return;
  }
  const fs::path out = temp("bankcheck_capture_nocuda");
  fs::remove_all(out);
  // dlopen of the driver, as every CUDA program does first; exits 1 when it fails.
  const auto r = run_cli("capture " + library_options() + "-o " + out.string() +
                         " -- python3 -c \"import ctypes; ctypes.CDLL('libcuda.so.1')\"");
  CHECK(r.code == 1);
  CHECK(r.out.find("no GPU / no CUDA driver") != std::string::npos);
  CHECK(slurp(out / "capture.json").find("\"complete\": false") != std::string::npos);
  fs::remove_all(out);
}

TEST_CASE("capture --summary: bad values exit 2 with the allowed range") {
  const std::string o = "capture " + library_options() + "-o " + temp("bankcheck_capture_summary_bad").string();
  auto r = run_cli(o + " --summary --summary-slots 1000 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("--summary-slots must be a power of two in 1..1048576 (got 1000)") != std::string::npos);
  r = run_cli(o + " --summary --summary-slots 0 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("--summary-slots must be a power of two in 1..1048576 (got 0)") != std::string::npos);
  r = run_cli(o + " --summary --summary-slots 2097152 -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("(got 2097152)") != std::string::npos);
  r = run_cli(o + " --summary --summary-slots many -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("--summary-slots") != std::string::npos);
  r = run_cli(o + " --summary-slots 64 -- true");  // the table size means nothing without --summary
  CHECK(r.code == 2);
  CHECK(r.out.find("--summary-slots requires --summary") != std::string::npos);
  r = run_cli(o + " --summary=maybe -- true");  // a flag: true/false/yes/no, nothing else
  CHECK(r.code == 2);
  r = run_cli(o + " --summary --global -- true");  // the summary costs shared accesses only
  CHECK(r.code == 2);
  CHECK(r.out.find("--global excludes --summary") != std::string::npos);
}

TEST_CASE("capture --summary: a program without CUDA gives an empty summary in the results schema") {
  const fs::path out = temp("bankcheck_capture_summary_true");
  fs::remove_all(out);
  const auto r = run_cli("capture " + library_options() + "--summary --summary-slots 64 -o " + out.string() + " -- true");
  CHECK(r.code == 0);
  CHECK(r.out.find("summary of 0 launches, costed on the GPU per instruction") != std::string::npos);
  CHECK(r.out.find("verdict: no accesses") != std::string::npos);
  CHECK(slurp(out / "summary.csv").rfind("launch,site,op,width,executions", 0) == 0);
  const std::string json = slurp(out / "summary.json");
  CHECK(json.find("\"schema_version\": 3") != std::string::npos);
  CHECK(json.find("\"command\": \"capture\"") != std::string::npos);
  CHECK(json.find("\"mode\": \"summary\"") != std::string::npos);
  CHECK(slurp(out / "capture.json").find("\"mode\": \"summary\"") != std::string::npos);
  fs::remove_all(out);
}

TEST_CASE("capture --summary: a summary.json that cannot be written fails the run, never a silent exit 0") {
  const fs::path out = temp("bankcheck_capture_summary_unwritable");
  fs::remove_all(out);
  // The program leaves a folder where summary.json is to go (the capture's
  // staging folder becomes OUT), so the file cannot be put in place.
  const auto r = run_cli("capture " + library_options() + "--summary --summary-slots 64 -o " + out.string() +
                         " -- sh -c 'mkdir \"$BANKCHECK_CAPTURE_DIR/summary.json\"'");
  CHECK(r.code == 2);
  CHECK(r.std_err.find("summary.json") != std::string::npos);
  fs::remove_all(out);
}

namespace {

/// A program that leaves what the capture library would (one captured launch
/// of kernel k whose trace holds `records`, or in --summary mode summary.csv
/// with `summary_row`, and k's cubin) in the capture's folder, run with
/// `nvdisasm` on PATH being a disassembler that fails.
bankcheck::test::CliResult capture_with_failing_nvdisasm(const fs::path& work, const std::string& records,
                                                         const fs::path& out,
                                                         const std::optional<bankcheck::capture::InstructionSummary>&
                                                             summary_row = std::nullopt) {
  fs::remove_all(work);
  fs::create_directories(work / "left" / "cubins");
  fs::create_directories(work / "bin");
  std::ofstream(work / "left" / "cubins" / "k.cubin") << "not a cubin";
  bankcheck::capture::LaunchRow row;
  row.kernel = row.demangled = "k";
  row.grid = {1, 1, 1};
  row.block = {4, 1, 1};
  row.records_written = 1;
  row.status = bankcheck::capture::kStatusCaptured;
  row.trace = summary_row ? "" : "launch-0.bktrace";
  std::ofstream(work / "left" / "launches.csv")
      << bankcheck::capture::launch_table_header() << bankcheck::capture::launch_row_line(row);
  if (summary_row)
    std::ofstream(work / "left" / "summary.csv")
        << bankcheck::capture::summary_table_header() << bankcheck::capture::summary_row_line(*summary_row);
  else
    std::ofstream(work / "left" / "launch-0.bktrace") << "warp 4\n" << records;
  std::ofstream(work / "program.sh") << "cp -r '" << (work / "left").string() << "'/. \"$BANKCHECK_CAPTURE_DIR\"/\n";
  std::ofstream(work / "bin" / "nvdisasm") << "#!/bin/sh\necho 'nvdisasm: not a cubin' >&2\nexit 1\n";
  fs::permissions(work / "bin" / "nvdisasm", fs::perms::owner_all);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", ((work / "bin").string() + ":" + path).c_str(), 1);
  auto r = run_cli("capture " + library_options() + (summary_row ? "--summary " : "") + "-o " + out.string() +
                   " -- sh " + (work / "program.sh").string());
  setenv("PATH", path.c_str(), 1);
  return r;
}

}  // namespace

TEST_CASE("capture: atomics whose SASS could not be read keep unrefined kinds, and the capture says partial") {
  const fs::path work = temp("bankcheck_capture_nosass"), out = temp("bankcheck_capture_nosass_out");
  fs::remove_all(out);
  // An atomic: ATOMS.CAS and ATOMS.ADD cost differently on sm90, and only the SASS tells them apart.
  auto r = capture_with_failing_nvdisasm(work, "@k+0x10 atom 4 0 4 8 12\n", out);
  CHECK(r.code == 1);
  CHECK(r.out.find("PARTIAL") != std::string::npos);
  std::string json = slurp(out / "capture.json");
  CHECK(json.find("\"complete\": false") != std::string::npos);
  CHECK(json.find("1 atomic or cp.async warp accesses (launch-0.bktrace) have no SASS") != std::string::npos);
  CHECK(json.find("could not disassemble k.cubin") != std::string::npos);
  // Loads and stores need no SASS: the same failure leaves that capture complete.
  r = capture_with_failing_nvdisasm(work, "@k+0x20 ld 4 0 4 8 12\n", out);
  CHECK(r.code == 0);
  json = slurp(out / "capture.json");
  CHECK(json.find("\"complete\": true") != std::string::npos);
  CHECK(json.find("could not disassemble k.cubin") != std::string::npos);  // still a note
  // --summary: an atomic instruction of summary.csv without SASS, the same.
  bankcheck::capture::InstructionSummary atom;
  atom.site = "k+0x10";
  atom.op = bankcheck::Op::atom;
  atom.executions = 1;
  atom.lanes = 4;
  atom.costs.wavefronts = atom.costs.ideal = atom.costs.degree = 1;
  r = capture_with_failing_nvdisasm(work, "", out, atom);
  CHECK(r.code == 1);
  json = slurp(out / "capture.json");
  CHECK(json.find("\"complete\": false") != std::string::npos);
  CHECK(json.find("1 atomic or cp.async instructions of summary.csv have no SASS") != std::string::npos);
  fs::remove_all(out);
  fs::remove_all(work);
}

// Stopped from outside and bounded in bytes, with no GPU: a stand-in program
// writes into the staging folder what the capture library writes there
// (status.log, a launch row, a trace in progress), then waits; SIGINT or
// SIGTERM sent to bankcheck alone must reach the program, and the capture
// must end as any other: OUT in place, marked partial with the reason, the
// unfinished trace kept as .partial, and no staging folder left behind.
namespace {

/// The placeholders that stand in for the capture library and patches (never loaded: no CUDA is used).
std::string placeholder_options(const fs::path& dir) {
  std::ofstream(dir / "placeholder_capture.so") << "placeholder";
  std::ofstream(dir / "placeholder.fatbin") << "placeholder";
  return "--library " + (dir / "placeholder_capture.so").string() + " --patches " + (dir / "placeholder.fatbin").string();
}

/// Runs a capture of the stand-in program, sends `signal` to bankcheck once the program has started,
/// and returns bankcheck's exit status.
int stopped_capture(const fs::path& dir, const fs::path& out, const char* signal) {
  const fs::path started = dir / "started";
  fs::remove(started);
  // What the library writes as a program runs: its status log, a finished launch's row, a trace being written.
  std::ofstream(dir / "program.sh")
      << "cd \"$BANKCHECK_CAPTURE_DIR\" || exit 9\n"
      << "echo \"init: pid $$\" > status.log\n"
      << "printf 'id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,"
         "trace,graph_exec,graph_launch,graph_node\\n0,_Z1kv,k(),1x1x1,32x1x1,,0,0,captured,,,,,\\n' > launches.csv\n"
      << "echo partial > launch-1.bktrace.tmp\n"
      << "touch " << started.string() << "\nexec sleep 60\n";
  const std::string script = "\"" BANKCHECK_CLI "\" capture " + placeholder_options(dir) + " -o " + out.string() +
                             " -- sh " + (dir / "program.sh").string() + " >" + (dir / "log").string() + " 2>&1 & pid=$!; " +
                             "n=0; while [ ! -f " + started.string() + " ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; " +
                             "kill -" + signal + " $pid; wait $pid";
  const int raw = std::system(script.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

bool staging_left(const fs::path& out) {
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    if (e.path().filename().string().rfind("." + out.filename().string() + ".capture-", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("capture: SIGINT or SIGTERM to bankcheck stops the program and keeps what it captured, marked partial") {
  const fs::path dir = fs::path(bankcheck::test::scratch("capture_stop"));
  fs::create_directories(dir);
  for (const auto& [signal, code] : {std::pair{"TERM", 143}, std::pair{"INT", 130}}) {
    CAPTURE(signal);
    const fs::path out = dir / (std::string("out-") + signal);
    fs::remove_all(out);
    // The program's end by the signal passed on: 128 + the signal, as a shell reports it.
    CHECK(stopped_capture(dir, out, signal) == code);
    REQUIRE(fs::exists(out / "capture.json"));
    const std::string json = slurp(out / "capture.json");
    CHECK(json.find("\"status\": \"partial\"") != std::string::npos);
    CHECK(json.find(std::string("the capture was stopped (SIG") + signal + ")") != std::string::npos);
    CHECK(json.find("\"launches\": 1") != std::string::npos);
    CHECK(fs::exists(out / "launch-1.bktrace.partial"));
    CHECK_FALSE(staging_left(out));
  }
  fs::remove_all(dir);
}

TEST_CASE("capture --max-bytes: a bound of 0 is refused; the default is half the free space") {
  const fs::path dir = fs::path(bankcheck::test::scratch("capture_max_bytes"));
  fs::create_directories(dir);
  const auto r = bankcheck::test::run_cli("capture " + placeholder_options(dir) + " --max-bytes 0 -o " +
                                          (dir / "out").string() + " -- true");
  CHECK(r.code == 2);
  CHECK(r.out.find("--max-bytes must be in 1..2^64-1 (got 0)") != std::string::npos);
  CHECK(bankcheck::capture::default_max_bytes(1000) == 500);
  CHECK(bankcheck::capture::default_max_bytes(1) == 1);  // never 0, which would mean no bound
  fs::remove_all(dir);
}

}  // namespace capture_command_test
