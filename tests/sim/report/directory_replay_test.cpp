// A folder of traces as one report, on one process (the MPI run is
// tests/sim/parallel/mpi_replay_dir.cmake): files in name order, sites
// merged by name, totals the sum of the files' (hand counts: the example
// trace is 39 wavefronts with 32 conflicts, wide_8byte.trace 6 with none),
// the worst instruction naming its file, and a bad file failing the whole run
// with the first bad file's error; the same for 1, 2 and 3 threads (files
// then share the threads).
#include "sim/report/directory_replay.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/scratch.hpp"

using namespace bankcheck;
namespace fs = std::filesystem;

namespace {

fs::path folder_with(const std::string& name, const std::vector<std::string>& traces) {
  const fs::path dir = bankcheck::test::scratch(name);
  fs::create_directories(dir);
  for (const auto& t : traces)
    fs::copy_file(fs::path(BANKCHECK_SOURCE_DIR) / "tests/data/traces" / t, dir / ("x-" + t),
                  fs::copy_options::overwrite_existing);
  return dir;
}

}  // namespace

TEST_CASE("trace_files: the traces of a folder, sorted; no folder or no trace is an error") {
  const fs::path dir = folder_with("files", {"wide_8byte.trace", "example.trace"});
  std::ofstream(dir / "notes.md") << "not a trace\n";
  const auto files = report::trace_files(dir.string());
  REQUIRE(files.size() == 2);
  CHECK(fs::path(files[0]).filename() == "x-example.trace");
  CHECK(fs::path(files[1]).filename() == "x-wide_8byte.trace");
  CHECK_THROWS_AS(report::trace_files((dir / "notes.md").string()), std::invalid_argument);
  const fs::path empty = bankcheck::test::scratch("empty-folder");
  fs::create_directories(empty);
  CHECK_THROWS_AS(report::trace_files(empty.string()), std::invalid_argument);
}

TEST_CASE("one report over the folder: sums by site, the worst names its file") {
  const fs::path dir = folder_with("sums", {"example.trace", "wide_8byte.trace"});
  fs::copy_file(dir / "x-example.trace", dir / "y-example-again.trace");
  const auto files = report::trace_files(dir.string());
  const BankModel sm90 = make_preset("sm90");
  for (unsigned threads : {1u, 2u, 3u}) {
    CAPTURE(threads);
    report::ReplayReportOptions o;
    o.threads = threads;
    const auto r = report::replay_directory(dir.string(), files, sm90, o, Cluster::instance());
    REQUIRE(r.has_value());
    CHECK(r->totals.wavefronts == 39 + 39 + 6);
    CHECK(r->totals.conflicts() == 32 + 32);
    CHECK(r->totals.instructions == 7 + 7 + 4);
    REQUIRE(r->worst.has_value());
    CHECK(r->worst->site == "tile.column");
    CHECK(r->worst->location.find("x-example.trace:9") != std::string::npos);  // the first file of the tie
    const auto column = std::find_if(r->sites.begin(), r->sites.end(), [](const auto& s) { return s.site == "tile.column"; });
    REQUIRE(column != r->sites.end());
    CHECK(column->totals.instructions == 2);
    CHECK(column->totals.wavefronts == 64);
  }
}

TEST_CASE("a malformed file fails the run, naming the first bad file") {
  const fs::path dir = folder_with("bad", {"example.trace", "wide_8byte.trace"});
  std::ofstream(dir / "y-bad.trace") << "warp 32\nld 3 0\n";
  std::ofstream(dir / "z-bad.trace") << "warp 32\nst 5 0\n";
  const BankModel sm90 = make_preset("sm90");
  for (unsigned threads : {1u, 2u, 3u}) {
    CAPTURE(threads);
    report::ReplayReportOptions o;
    o.threads = threads;
    try {
      report::replay_directory(dir.string(), report::trace_files(dir.string()), sm90, o, Cluster::instance());
      FAIL("no error");
    } catch (const std::exception& e) {
      CHECK(std::string(e.what()).find("y-bad.trace") != std::string::npos);
    }
  }
}

TEST_CASE("the folder's kernel-counter savings are the files' added") {
  // ld8cap: paired 8-byte loads whose two counters differ (H100, 2026-11-23;
  // tests/sim/report/replay_report_test.cpp checks one file against the measurement).
  const fs::path cases = fs::path(BANKCHECK_SOURCE_DIR) / "validate/sm90/cases";
  const fs::path dir = bankcheck::test::scratch("kernel-counter");
  fs::create_directories(dir);
  for (const char* copy : {"a.trace", "b.trace"})
    fs::copy_file(cases / "ld8cap.trace", dir / copy, fs::copy_options::overwrite_existing);
  const BankModel sm90 = make_preset("sm90");
  report::ReplayReportOptions o;
  const auto one = report::replay_directory(dir.string(), {(dir / "a.trace").string()}, sm90, o, Cluster::instance());
  const auto both = report::replay_directory(dir.string(), report::trace_files(dir.string()), sm90, o, Cluster::instance());
  REQUIRE(one.has_value());
  REQUIRE(both.has_value());
  CHECK(one->kernel_counter_known);
  CHECK(one->totals.fewer_on_kernel_counter > 0);
  CHECK(both->totals.fewer_on_kernel_counter == 2 * one->totals.fewer_on_kernel_counter);
}
