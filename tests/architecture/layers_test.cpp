// The layer rule of docs/architecture.md, enforced: the table there names
// each layer's folder and the layers it may include; every #include of a
// project header must point to the same layer or one it may include. The
// same walk checks that no source file is longer than 400 lines and that no
// comment names an issue by number (comments say why; the issue list is not
// in the repository, so a number there explains nothing).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/architecture/source_tree.hpp"

namespace fs = std::filesystem;
using bankcheck::architecture::source_files;

namespace {

struct Layer {
  std::string name;
  std::string folder;               ///< relative to the repository root, ending in '/'
  std::set<std::string> may_include;
};

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t`");
  const auto last = s.find_last_not_of(" \t`");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

/// The rows of the table in docs/architecture.md: | layer | `folder/` | library | may include |
std::vector<Layer> read_layers(const fs::path& doc) {
  std::ifstream in(doc);
  REQUIRE_MESSAGE(in, "cannot read " << doc);
  std::vector<Layer> layers;
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind("| layer | folder |", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(trim(cell));
    REQUIRE_MESSAGE(cells.size() >= 4, "malformed layer row: " << line);
    Layer layer{cells[0], cells[1], {}};
    std::stringstream deps(cells[3]);
    for (std::string dep; std::getline(deps, dep, ',');)
      if (!trim(dep).empty()) layer.may_include.insert(trim(dep));
    layers.push_back(layer);
  }
  return layers;
}

/// The layer whose folder is the longest prefix of `path`, or nullptr.
const Layer* layer_of(const std::vector<Layer>& layers, const std::string& path) {
  const Layer* best = nullptr;
  for (const Layer& l : layers)
    if (path.rfind(l.folder, 0) == 0 && (!best || l.folder.size() > best->folder.size())) best = &l;
  return best;
}

/// "file: includes X (layer L), which layer M may not include", or empty.
std::string violation(const std::vector<Layer>& layers, const std::string& file, const std::string& include) {
  const Layer* from = layer_of(layers, file);
  const Layer* to = layer_of(layers, include);
  if (!from || !to || from == to || from->may_include.count(to->name)) return {};
  return file + ": includes " + include + " (layer " + to->name + "), which layer " + from->name +
         " may not include";
}

const std::vector<Layer>& layers() {
  static const std::vector<Layer> l = read_layers(fs::path(BANKCHECK_SOURCE_DIR) / "docs/architecture.md");
  return l;
}

}  // namespace

TEST_CASE("the layer table is read from docs/architecture.md") {
  const auto& l = layers();
  REQUIRE(l.size() >= 8);
  CHECK(l.front().name == "parallel");
  CHECK(l.front().may_include.empty());
  CHECK(layer_of(l, "sim/trace/trace.hpp")->name == "trace");
  CHECK(layer_of(l, "sim/algorithms/pbs/pbs.hpp")->name == "algorithms");
  CHECK(layer_of(l, "tests/model/bank_model_test.cpp") == nullptr);
}

TEST_CASE("the checker itself flags upward includes and passes downward ones") {
  const auto& l = layers();
  CHECK(!violation(l, "model/bank_model.hpp", "sim/trace/trace.hpp").empty());
  CHECK(!violation(l, "sim/algorithms/registry.cpp", "proofs/claim.hpp").empty());
  CHECK(!violation(l, "sim/trace/trace.cpp", "sim/replay/replay.hpp").empty());
  CHECK(violation(l, "sim/replay/replay.cpp", "sim/trace/trace.hpp").empty());
  CHECK(violation(l, "proofs/verifier.cpp", "sim/algorithms/block_recorder.hpp").empty());
  CHECK(violation(l, "tests/x_test.cpp", "proofs/claim.hpp").empty());
}

TEST_CASE("no #include crosses a layer upwards") {
  const fs::path root(BANKCHECK_SOURCE_DIR);
  const std::regex include_line(R"(^\s*#\s*include\s*"([^"]+)\")");
  std::vector<std::string> problems;
  std::size_t checked = 0;
  for (const std::string& file : source_files(root)) {
    if (!layer_of(layers(), file)) continue;
    std::ifstream in(root / file);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, include_line)) continue;
      ++checked;
      if (std::string v = violation(layers(), file, m[1]); !v.empty()) problems.push_back(v);
    }
  }
  CHECK(checked > 100);
  for (const auto& p : problems) FAIL_CHECK(p);
}

TEST_CASE("no source file is longer than 400 lines") {
  const fs::path root(BANKCHECK_SOURCE_DIR);
  for (const std::string& file : source_files(root)) {
    std::ifstream in(root / file);
    const auto lines = std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
    CHECK_MESSAGE(lines <= 400, file << " has " << lines << " lines");
  }
}

TEST_CASE("no source names an issue by number") {
  const std::regex issue_number(R"(\b[Ii]ssue #?[0-9]+\b)");
  CHECK(std::regex_search("// the ring (issue " "13).", issue_number));  // split, or this line would fail the scan
  CHECK_FALSE(std::regex_search("// each warp issues 8 loads", issue_number));
  const fs::path root(BANKCHECK_SOURCE_DIR);
  for (const std::string& file : source_files(root)) {
    std::ifstream in(root / file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
      CHECK_MESSAGE(!std::regex_search(line, issue_number), file << ":" << n << " names an issue: say why instead");
  }
}
