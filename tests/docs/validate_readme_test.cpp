// validate/README.md, held to its word: the walkthroughs "A probe set" and
// "A real program" are followed on a scratch folder with the page's blocks
// that start with a `# file: PATH` or `// file: PATH` line, written as shown.
// A probe set's two files alone must make a set that the regression test
// (tests/support/measured_sets.hpp, what measured_sets_test.cpp runs on the
// committed sets) reads and finds equal to the model, with every measured row
// a committed measurement; a real program's one file must add exactly its
// programs to run_compare.sh's listing (LIST=1: no GPU), and compile.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/measured_sets.hpp"
#include "tests/pipe_output.hpp"
#include "tests/scratch.hpp"
#include "tests/skip.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = BANKCHECK_SOURCE_DIR;

struct PageFile {
  std::string path, body;
};

std::string slurp_file(const fs::path& p) {
  std::ifstream f(p);
  REQUIRE_MESSAGE(f, "cannot open " << p);
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

/// The text with every run of white space as one space (prose wraps anywhere).
std::string one_line(const std::string& text) {
  return std::regex_replace(text, std::regex("\\s+"), " ");
}

/// validate/README.md's level-3 section `title`, up to the next heading of level 2 or 3.
std::string readme_section(const std::string& title) {
  const std::string text = slurp_file(kRoot / "validate" / "README.md");
  const auto at = text.find("\n### " + title + "\n");
  REQUIRE_MESSAGE(at != std::string::npos, "validate/README.md has no section " << title);
  const auto end = std::min(text.find("\n### ", at + 1), text.find("\n## ", at + 1));
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

/// The section's fenced blocks whose first line is `# file: PATH` or `// file: PATH`, each as
/// the file the page says to create: the block's lines without the fence's indentation.
std::vector<PageFile> page_files(const std::string& section) {
  std::vector<PageFile> files;
  const std::regex open("\n( *)```[a-z]*\n *((?://|#) file: ([^\n]+))\n");
  for (std::sregex_iterator it(section.begin(), section.end(), open), end; it != end; ++it) {
    const std::string indent = (*it)[1];
    PageFile f{(*it)[3], std::string((*it)[2]) + "\n"};
    std::istringstream rest(section.substr(static_cast<std::size_t>(it->position() + it->length())));
    bool closed = false;
    for (std::string line; std::getline(rest, line);) {
      if (line == indent + "```") {
        closed = true;
        break;
      }
      f.body += (line.rfind(indent, 0) == 0 ? line.substr(indent.size()) : line) + "\n";
    }
    REQUIRE_MESSAGE(closed, "the block of " << f.path << " is not closed");
    REQUIRE_MESSAGE(f.path.find("..") == std::string::npos, f.path);
    files.push_back(f);
  }
  return files;
}

void write_files(const fs::path& root, const std::vector<PageFile>& files) {
  for (const PageFile& f : files) {
    fs::create_directories((root / f.path).parent_path());
    std::ofstream(root / f.path) << f.body;
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Whether some committed measured/*.csv has the row `site,wavefronts` (its first two cells).
bool committed_measurement(const std::string& site, const std::string& wavefronts) {
  for (const auto& e : fs::directory_iterator(kRoot / "validate" / "sm90" / "measured"))
    for (const std::string& line : lines_of(slurp_file(e.path())))
      if (line.rfind(site + "," + wavefronts + ",", 0) == 0 || line == site + "," + wavefronts) return true;
  return false;
}

}  // namespace

TEST_CASE("validate/README.md: a probe set's two files alone make a set the regression test checks") {
  const std::vector<PageFile> files = page_files(readme_section("A probe set"));
  REQUIRE(files.size() == 2);
  std::smatch trace, csv;
  REQUIRE(std::regex_match(files[0].path, trace, std::regex("validate/sm90/cases/([a-z0-9_]+)\\.trace")));
  REQUIRE(std::regex_match(files[1].path, csv, std::regex("validate/sm90/measured/([a-z0-9_]+)\\.csv")));
  const std::string name = trace[1];
  CHECK(csv[1] == name);
  CHECK_FALSE(fs::exists(kRoot / files[0].path));  // a new set, not a committed one

  const fs::path root = bankcheck::test::scratch("validate_readme_probe");
  write_files(root, files);
  const std::vector<bankcheck::test::MeasuredSet> sets = bankcheck::test::check_measured_sets(root / "validate" / "sm90");
  REQUIRE(sets.size() == 1);
  const auto& set = sets[0];
  CHECK(set.name == name);
  CHECK(set.not_read == "");
  CHECK_FALSE(set.kernel_counters);
  for (const std::string& m : set.mismatches) FAIL_CHECK(m);
  std::size_t cases = 0;
  for (const std::string& line : lines_of(files[0].body)) cases += line.rfind("@", 0) == 0;
  CHECK(cases >= 3);
  CHECK(set.rows == cases);
  CHECK(set.checked == cases);

  // Every measured row is a committed measurement, reused, never written for the page.
  std::size_t rows = 0;
  for (const std::string& line : lines_of(files[1].body)) {
    if (line.empty() || line[0] == '#' || line.rfind("site,", 0) == 0) continue;
    const auto comma = line.find(',');
    REQUIRE(comma != std::string::npos);
    const std::string site = line.substr(0, comma), rest = line.substr(comma + 1);
    CAPTURE(line);
    CHECK(committed_measurement(site, rest.substr(0, rest.find(','))));
    ++rows;
  }
  CHECK(rows == cases);

  // The steps' commands name what exists: the GPU step and the collector.
  const std::string section = one_line(readme_section("A probe set"));
  CHECK(section.find("validate/gpu_batch.sh microbench:NAME") != std::string::npos);
  CHECK(slurp_file(kRoot / "validate" / "gpu_batch.sh").find("    microbench:*)") != std::string::npos);
  CHECK(section.find("python3 validate/sm90/collect_set.py NAME") != std::string::npos);
  CHECK(fs::exists(kRoot / "validate" / "sm90" / "collect_set.py"));
  CHECK(section.find("ctest --test-dir build -R model.measured_sets") != std::string::npos);
  CHECK(fs::exists(kRoot / "tests" / "model" / "measured_sets_test.cpp"));
}

TEST_CASE("validate/README.md: a real program's one file adds exactly its programs to run_compare.sh's listing") {
  const std::vector<PageFile> files = page_files(readme_section("A real program"));
  REQUIRE(files.size() == 1);
  const PageFile& program = files[0];
  std::smatch path;
  REQUIRE(std::regex_match(program.path, path, std::regex("validate/programs/([a-z0-9_]+)\\.cu")));
  const std::string stem = path[1];
  CHECK_FALSE(fs::exists(kRoot / program.path));

  const fs::path root = bankcheck::test::scratch("validate_readme_program");
  fs::create_directories(root / "validate");
  fs::copy(kRoot / "validate" / "programs", root / "validate" / "programs", fs::copy_options::recursive);
  const std::string list = "cd '" + root.string() + "' && LIST=1 bash validate/programs/run_compare.sh programs";
  int status = 0;
  const std::vector<std::string> before = lines_of(bankcheck::test::pipe_output(list, &status));
  REQUIRE(status == 0);
  write_files(root, files);
  const std::vector<std::string> after = lines_of(bankcheck::test::pipe_output(list, &status));
  REQUIRE(status == 0);

  // What the page's `// compare:` lines say the listing gains: the build, then one program each.
  std::vector<std::string> expected = {"build " + stem + " " + program.path};
  const std::regex compare("// compare: ([^ ]+) ([^ ]+)(.*)");
  for (const std::string& line : lines_of(program.body)) {
    std::smatch m;
    if (std::regex_match(line, m, compare))
      expected.push_back("program " + std::string(m[1]) + " " + std::string(m[2]) + " $OUT/programs/bin/" + stem +
                         std::string(m[3]));
  }
  CHECK(expected.size() == 3);  // the page's two programs
  const std::set<std::string> old(before.begin(), before.end());
  std::vector<std::string> gained;
  for (const std::string& line : after)
    if (!old.count(line)) gained.push_back(line);
  CHECK(gained == expected);
  CHECK(after.size() == before.size() + expected.size());

  const std::string section = one_line(readme_section("A real program"));
  CHECK(section.find("OUT=DIR bash validate/gpu_batch.sh programs") != std::string::npos);
  CHECK(section.find("LIST=1 bash validate/programs/run_compare.sh programs") != std::string::npos);
  CHECK(slurp_file(kRoot / "validate" / "gpu_batch.sh").find("    programs) gpu_step programs") != std::string::npos);
}

TEST_CASE("validate/README.md: the real program's example compiles") {
  int status = 0;
  bankcheck::test::pipe_output("command -v nvcc >/dev/null 2>&1", &status);
  if (status != 0) {
    bankcheck::test::skip("no nvcc: the page's example program is not compiled");
    return;
  }
  const std::vector<PageFile> files = page_files(readme_section("A real program"));
  REQUIRE(files.size() == 1);
  const fs::path root = bankcheck::test::scratch("validate_readme_compile");
  write_files(root, files);
  const std::string object = (root / "program.o").string();
  const std::string log = bankcheck::test::pipe_output("nvcc -arch=sm_90 -std=c++17 -c '" +
                                                       (root / files[0].path).string() + "' -o '" + object +
                                                       "' 2>&1", &status);
  CAPTURE(log);
  CHECK(status == 0);
  CHECK(fs::exists(object));
}
