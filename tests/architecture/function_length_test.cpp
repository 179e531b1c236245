// The function-length budget: no function body of a C++ or CUDA source
// longer than 60 lines (counted by tests/architecture/function_spans.hpp),
// over the same files as the 400-line file cap (tests/ included). A function
// that grows past it does more than one step; split it at its steps.
//
// kOverBudget lists the functions still over it, each with its length
// today: the list may only shrink. A listed function that grows fails, and
// so does one that is split without its entry being removed.
#include <doctest/doctest.h>

#include <array>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "tests/architecture/function_spans.hpp"
#include "tests/architecture/source_tree.hpp"

namespace {

using bankcheck::architecture::function_spans;
using bankcheck::architecture::FunctionSpan;

constexpr std::size_t kBudget = 60;

struct OverBudget {
  const char* file;
  const char* function;
  std::size_t lines;  ///< its body's length when listed: it may shrink, never grow
};

// Every function is within the budget; one that must exceed it is listed here with its length.
constexpr std::array<OverBudget, 0> kOverBudget{};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every function of the tree over the budget: (file, function) -> its body lines.
std::map<std::pair<std::string, std::string>, std::size_t> over_budget() {
  const std::filesystem::path root(BANKCHECK_SOURCE_DIR);
  std::map<std::pair<std::string, std::string>, std::size_t> over;
  for (const std::string& file : bankcheck::architecture::source_files(root)) {
    if (!bankcheck::architecture::is_cpp_source(file)) continue;
    for (const FunctionSpan& f : function_spans(read_file(root / file)))
      if (f.body_lines() > kBudget) {
        std::size_t& lines = over[{file, f.name}];
        lines = std::max(lines, f.body_lines());
      }
  }
  return over;
}

std::size_t longest(const std::string& source) {
  std::size_t most = 0;
  for (const FunctionSpan& f : function_spans(source)) most = std::max(most, f.body_lines());
  return most;
}

std::string function_of(std::size_t body_lines, const std::string& header = "int f(int x) {") {
  std::string s = "namespace n {\n" + header + "\n";
  for (std::size_t i = 0; i < body_lines; ++i) s += "  x += " + std::to_string(i) + ";\n";
  return s + "}\n}  // namespace n\n";
}

}  // namespace

TEST_CASE("the scan counts a body's lines between its braces, and only function bodies") {
  CHECK(longest(function_of(60)) == 60);
  CHECK(longest(function_of(61)) == 61);
  CHECK(longest(function_of(5, "auto S::g(int x) const noexcept -> int {")) == 5);
  CHECK(longest(function_of(5, "S::S(int x) : a_(x), b_{x} {")) == 5);
  CHECK(longest(function_of(5, "TEST_CASE(\"a { title\") {")) == 5);
  CHECK(longest(function_of(5, "void f(int x, Marks&& m = {}) {")) == 5);
  CHECK(function_spans(function_of(5, "S::S(int x) : a_(x), b_{x} {"))[0].name == "S::S");
  CHECK(function_spans(function_of(5, "TEST_CASE(\"a { title\") {"))[0].name == "TEST_CASE(\"a { title\")");
  // Namespaces, classes and initializers are not bodies; what they hold is scanned.
  const auto spans = function_spans(
      "namespace a {\nstruct S {\n  int v{1};\n  int get() const {\n    return v;\n  }\n};\n"
      "const int t[] = {1, 2};\n}\n");
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].name == "get");
  CHECK(spans[0].body_lines() == 1);
  // Braces in comments, strings, raw strings, characters and directives do not count.
  CHECK(longest("void f() {\n  // }\n  const char* s = \"}\";\n  auto r = R\"x(})x\";\n  char c = '}';\n"
                "#define X }\n  /* } */\n}\n") == 6);
}

TEST_CASE("no function is longer than 60 lines, but for the listed ones, which only shrink") {
  const auto over = over_budget();
  std::map<std::pair<std::string, std::string>, std::size_t> listed;
  for (const OverBudget& o : kOverBudget) listed[{o.file, o.function}] = o.lines;
  for (const auto& [where, lines] : over) {
    const auto it = listed.find(where);
    if (it == listed.end())
      FAIL_CHECK(where.first << ": " << where.second << " has " << lines << " lines; the budget is " << kBudget
                             << ": split it at its steps");
    else
      CHECK_MESSAGE(lines <= it->second, where.first << ": " << where.second << " grew to " << lines
                                                     << " lines from the listed " << it->second);
  }
  for (const auto& [where, lines] : listed)
    CHECK_MESSAGE(over.count(where), where.first << ": " << where.second
                                                 << " is within the budget now (or gone): remove its entry");
}
