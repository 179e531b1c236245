// Every probe set committed under validate/sm90 (cases/NAME.trace with
// measured/NAME.csv) against the sm90 model, found by its files alone: a new
// set is checked here the moment its two files are committed
// (validate/README.md, "A probe set"). Sets whose files this reading does not
// cover are named, with the reason, and left to their own tests.
#include "tests/support/measured_sets.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "tests/scratch.hpp"

using bankcheck::test::check_measured_sets;
using bankcheck::test::MeasuredSet;

namespace {

const std::filesystem::path kMeasuredSetsRoot = std::filesystem::path(BANKCHECK_SOURCE_DIR) / "validate" / "sm90";

}  // namespace

TEST_CASE("every measured set of validate/sm90 equals the sm90 model on each modelled instruction") {
  std::size_t pairs = 0;  // counted here by the file names, apart from check_measured_sets
  for (const auto& e : std::filesystem::directory_iterator(kMeasuredSetsRoot / "measured"))
    pairs += e.path().extension() == ".csv" &&
             std::filesystem::exists(kMeasuredSetsRoot / "cases" / (e.path().stem().string() + ".trace"));
  const std::vector<MeasuredSet> sets = check_measured_sets(kMeasuredSetsRoot);
  CHECK(sets.size() == pairs);
  std::size_t read = 0, instructions = 0;
  for (const MeasuredSet& s : sets) {
    CAPTURE(s.name);
    if (!s.not_read.empty()) {
      MESSAGE("not read here (its own test reads it): " << s.name << ": " << s.not_read);
      continue;
    }
    ++read;
    instructions += s.checked;
    for (const std::string& m : s.mismatches) FAIL_CHECK(m);
    CHECK(s.checked + s.unmodelled == s.rows);
    CHECK((s.checked > 0 || s.declined));  // a set the model costs nothing of says why in its header
  }
  // The microbenchmark's five first sets alone hold 3,428 instructions (bank_model_test.cpp).
  CHECK(read * 2 > sets.size());
  CHECK(instructions > 3428);
}

TEST_CASE("a set is read by the counter its CSV header names, and a mismatch is reported") {
  const std::vector<MeasuredSet> sets = check_measured_sets(kMeasuredSetsRoot);
  std::set<std::string> kernel, instruction;
  for (const MeasuredSet& s : sets)
    if (s.not_read.empty()) (s.kernel_counters ? kernel : instruction).insert(s.name);
  // design.csv is site,wavefronts,conflicts (kernel-level counters); ld8split.csv site,wavefronts (per instruction).
  CHECK(kernel.count("design") == 1);
  CHECK(instruction.count("ld8split") == 1);

  // ld8split copied with its first measurement changed by one wavefront: that one site is reported.
  const std::filesystem::path copy = bankcheck::test::scratch("measured_sets");
  std::filesystem::create_directories(copy / "cases");
  std::filesystem::create_directories(copy / "measured");
  std::filesystem::copy_file(kMeasuredSetsRoot / "cases" / "ld8split.trace", copy / "cases" / "ld8split.trace");
  std::ifstream in(kMeasuredSetsRoot / "measured" / "ld8split.csv");
  std::ofstream out(copy / "measured" / "ld8split.csv");
  bool changed = false;
  for (std::string line; std::getline(in, line);) {
    if (!changed && line.rfind("ld8split-", 0) == 0) {
      const auto comma = line.find(',');
      line = line.substr(0, comma + 1) + std::to_string(std::stoull(line.substr(comma + 1)) + 1);
      changed = true;
    }
    out << line << '\n';
  }
  out.close();
  const std::vector<MeasuredSet> altered = check_measured_sets(copy);
  REQUIRE(altered.size() == 1);
  CHECK(altered[0].not_read.empty());
  REQUIRE(altered[0].mismatches.size() == 1);
  CHECK(altered[0].mismatches[0].rfind("ld8split-x1-two-free-full: model 3/", 0) == 0);
}
