// Tests of capture/host/sass/capture_sass.hpp: only the cubins that hold a
// captured launch's function are disassembled, with nvdisasm -fun naming
// those functions, and the whole cubin when -fun fails. A stand-in
// nvdisasm (a shell script) logs its arguments; the cubins are real (nvcc).
#include "capture/host/sass/capture_sass.hpp"
#include "capture/host/csv.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/sass/sass_table.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "tests/scratch.hpp"
#include "tests/skip.hpp"

using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {
std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// A cubin of two kernels from nvcc, into `cubin`; false (and a skip) without nvcc.
bool make_cubin(const fs::path& dir, const std::string& a, const std::string& b, const fs::path& cubin) {
  const auto cu = dir / (cubin.stem().string() + ".cu"), log = dir / "nvcc.log";
  std::ofstream(cu) << "__global__ void " << a << "(int* p) { p[threadIdx.x] = 1; }\n"
                    << "__global__ void " << b << "(float* p) { p[0] = 2; }\n";
  const std::string cmd = "nvcc -arch=sm_90 -cubin -o " + cubin.string() + " " + cu.string() + " >" + log.string() + " 2>&1";
  REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, "nvcc failed: " << read_file(log));
  return true;
}

/// The stand-in nvdisasm, dir/tools/nvdisasm: logs its arguments to `log`; refuses -fun when FAIL_FUN is set
/// (an nvdisasm without it) and -gi when FAIL_GI is; prints one LDS of wanted_kernel.
void write_stand_in_nvdisasm(const fs::path& dir, const fs::path& log) {
  {
    std::ofstream tool(dir / "tools" / "nvdisasm");
    tool << "#!/bin/sh\necho \"$*\" >> " << log.string() << "\n"
         << "case \"$*\" in *-fun*) [ -n \"$FAIL_FUN\" ] && exit 1;; esac\n"
         << "case \"$*\" in *-gi*) [ -n \"$FAIL_GI\" ] && exit 1;; esac\n"
         << "echo '.text._Z13wanted_kernelPi:'\necho '        /*0010*/                   LDS R1, [R2] ;'\n";
  }
  fs::permissions(dir / "tools" / "nvdisasm", fs::perms::owner_all);
}

LaunchRow launch_row(const std::string& kernel, const char* status) {
  LaunchRow row;
  row.kernel = kernel;
  row.status = status;
  return row;
}

/// The symbol index of the function `name` in a cubin file, as nvdisasm -fun takes it ("" when absent).
std::string symbol_in(const fs::path& cubin, const std::string& name) {
  std::ifstream in(cubin, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const CubinFunction& f : cubin_functions({reinterpret_cast<const std::byte*>(image.data()), image.size()}))
    if (f.name == name) return std::to_string(f.symbol);
  return "";
}

/// One captured launch (module-0's wanted_kernel) and one skipped (module-1's): only module-0 is
/// disassembled, by -fun naming the function, or whole where -fun fails.
void check_captured_cubins_only(const fs::path& dir, const fs::path& log, bool fail_fun) {
  CAPTURE(fail_fun);
  fs::remove(log);
  if (fail_fun) ::setenv("FAIL_FUN", "1", 1);
  CaptureReport report;
  report.launches = {launch_row("_Z13wanted_kernelPi", kStatusCaptured),
                     launch_row("_Z13unused_kernelPi", kStatusSkipped)};
  const auto problems = write_sass(dir / "staging", {(dir / "tools").string()}, report);
  ::unsetenv("FAIL_FUN");
  CHECK(problems.empty());
  const std::string calls = read_file(log);
  CHECK(calls.find("module-1.cubin") == std::string::npos);  // no captured function in it
  const fs::path module0 = dir / "staging" / "cubins" / "module-0.cubin";
  const std::string wanted_symbol = symbol_in(module0, "_Z13wanted_kernelPi");
  REQUIRE(!wanted_symbol.empty());
  CHECK(calls.find("-c -gi -fun " + wanted_symbol + " " + module0.string()) != std::string::npos);
  // Where -fun fails, the whole cubin follows.
  CHECK((calls.find("-c -gi " + module0.string()) != std::string::npos) == fail_fun);
  const std::string sass = read_file(dir / "staging" / "sass.csv");
  CHECK(sass.find("_Z13wanted_kernelPi,0x10,\"LDS R1, [R2]\"") != std::string::npos);  // csv-quoted: it holds a comma
  REQUIRE(!report.notes.empty());
  CHECK(report.notes.back().find("1 of 2 cubins hold no captured launch's function") != std::string::npos);
}

}  // namespace

TEST_CASE("write_sass disassembles only the captured functions' cubins, naming the functions") {
  if (std::system("command -v nvcc >/dev/null 2>&1") != 0) {
    bankcheck::test::skip("no nvcc on PATH to make real cubins");
    return;
  }
  const fs::path dir = bankcheck::test::scratch_dir() / "capture_sass_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "staging" / "cubins");
  fs::create_directories(dir / "tools");
  make_cubin(dir, "wanted_kernel", "other_kernel", dir / "staging" / "cubins" / "module-0.cubin");
  make_cubin(dir, "unused_kernel", "spare_kernel", dir / "staging" / "cubins" / "module-1.cubin");
  const fs::path log = dir / "calls.log";
  write_stand_in_nvdisasm(dir, log);
  for (const bool fail_fun : {false, true}) check_captured_cubins_only(dir, log, fail_fun);
  // An nvdisasm that cannot give line info for the cubin: its SASS all the same, without lines.
  fs::remove(log);
  ::setenv("FAIL_GI", "1", 1);
  CaptureReport report;
  report.launches = {launch_row("_Z13wanted_kernelPi", kStatusCaptured)};
  CHECK(write_sass(dir / "staging", {(dir / "tools").string()}, report).empty());
  ::unsetenv("FAIL_GI");
  CHECK(read_file(log).find("-c " + (dir / "staging" / "cubins" / "module-0.cubin").string()) != std::string::npos);
  CHECK(read_file(dir / "staging" / "sass.csv").find("_Z13wanted_kernelPi,0x10,\"LDS R1, [R2]\",,,\n") != std::string::npos);
  fs::remove_all(dir);
}

namespace {
/// A directory holding the real nvdisasm: PATH, the toolkit's, or the wheel scripts/setup.sh unpacks.
std::string nvdisasm_dir() {
  for (const std::string& dir : {std::string("/usr/local/cuda/bin"), std::string(BANKCHECK_SOURCE_DIR) + "/.deps/nvdisasm/nvidia/cu13/bin"})
    if (fs::exists(fs::path(dir) / "nvdisasm")) return dir;
  if (std::system("command -v nvdisasm >/dev/null 2>&1") == 0) return "";  // found on PATH
  return "-";
}

/// The line of `source` whose MARK comment is `text`.
std::uint32_t marker(const fs::path& source, const std::string& text) {
  std::ifstream in(source);
  std::uint32_t n = 0, found = 0;
  for (std::string line; std::getline(in, line);)
    if (++n, line.find("MARK: " + text) != std::string::npos) found = n;
  REQUIRE(found > 0);
  return found;
}
}  // namespace

TEST_CASE("write_sass keeps each instruction's source line (nvcc -lineinfo, the real nvdisasm -gi)") {
  const std::string tools = nvdisasm_dir();
  if (std::system("command -v nvcc >/dev/null 2>&1") != 0 || tools == "-") {
    bankcheck::test::skip("no nvcc or no nvdisasm (scripts/setup.sh unpacks one into .deps/nvdisasm)");
    return;
  }
  const fs::path dir = bankcheck::test::scratch_dir() / "capture_sass_lines";
  fs::remove_all(dir);
  fs::create_directories(dir / "staging" / "cubins");
  const fs::path cu = dir / "transpose.cu", log = dir / "nvcc.log";
  fs::copy_file(fs::path(BANKCHECK_SOURCE_DIR) / "tests/data/lineinfo/transpose.cu", cu);
  const std::string cmd = "nvcc -lineinfo -arch=sm_90 -cubin -o " + (dir / "staging" / "cubins" / "module-0.cubin").string() +
                          " " + cu.string() + " >" + log.string() + " 2>&1";
  REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, "nvcc failed: " << read_file(log));
  CaptureReport report;
  for (const char* kernel : {"_Z15transpose_naivePfPKf", "_Z16transpose_paddedPfPKf"}) {
    LaunchRow row;
    row.kernel = kernel;
    row.status = kStatusCaptured;
    report.launches.push_back(row);
  }
  const auto problems = write_sass(dir / "staging", tools.empty() ? std::vector<std::string>{} : std::vector<std::string>{tools}, report);
  CHECK(problems.empty());
  // The sites of the stores and loads, by their SASS; then their line info through SassTable.
  std::map<std::string, std::string> site;  // "naive STS" -> FUNCTION+0xOFFSET
  std::istringstream rows(read_file(dir / "staging" / "sass.csv"));
  for (std::string line; std::getline(rows, line);) {
    const auto f = parse_csv_line(line);
    const std::string kernel = f[0].find("naive") != std::string::npos ? "naive " : "padded ";
    if (f[2].rfind("STS", 0) == 0 || f[2].rfind("LDS", 0) == 0) site[kernel + f[2].substr(0, 3)] = f[0] + "+" + f[1];
  }
  REQUIRE(site.size() == 4);
  const SassTable table = SassTable::read((dir / "staging" / "sass.csv").string());
  using bankcheck::report::FileLine;
  const auto at = [&](const std::string& name) {
    const auto* s = table.source(site[name]);
    REQUIRE(s != nullptr);
    return *s;
  };
  const std::string file = fs::canonical(cu).string();
  CHECK(at("naive STS").at == FileLine{file, marker(cu, "naive row store")});
  CHECK(at("naive LDS").at == FileLine{file, marker(cu, "naive column load")});
  CHECK(at("naive LDS").inlined_at == std::vector<FileLine>{{file, marker(cu, "naive call")}});
  CHECK(at("padded STS").at == FileLine{file, marker(cu, "padded row store")});
  CHECK(at("padded LDS").at == FileLine{file, marker(cu, "padded column load")});
  CHECK(at("padded LDS").inlined_at.empty());
  fs::remove_all(dir);
}
