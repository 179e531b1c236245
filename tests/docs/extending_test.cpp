// docs/extending.md, held to its word. CMake (tests/docs/extending.cmake)
// extracts the page's `// file:` code blocks into the build tree and
// compiles them into this test; here the page's registration line and
// run-time registration are used as written, the example algorithm runs on
// the DMM, and its conflicts must equal the count the page works out by
// hand. The walkthrough for an algorithm must touch at most three files.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"

// The page's registration line, read the way algorithm_registry.cpp reads
// sim/algorithms/registered_algorithms.def: declaring the function it names
// (which the extracted spec file must define, or this test does not link).
namespace bankcheck {
#define BANKCHECK_ALGORITHM(specs) std::vector<AlgorithmSpec> specs();
#include BANKCHECK_EXTENDING_REGISTRATION  // the page's sim/algorithms/registered_algorithms.def block
#undef BANKCHECK_ALGORITHM
}  // namespace bankcheck

void register_row_sum();  // the page's run-time registration (user/register_row_sum.cpp)

namespace {

std::string page() {
  std::ifstream f(std::string(BANKCHECK_SOURCE_DIR) + "/docs/extending.md");
  REQUIRE(f);
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

/// The text of the level-2 section titled `title`, up to the next one.
std::string section(const std::string& text, const std::string& title) {
  const auto at = text.find("\n## " + title + "\n");
  REQUIRE(at != std::string::npos);
  const auto end = text.find("\n## ", at + 1);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::vector<std::string> files_named(const std::string& text) {
  std::vector<std::string> files;
  const std::regex block("```cpp\n// file: ([^\n]+)\n");
  for (std::sregex_iterator it(text.begin(), text.end(), block), end; it != end; ++it) files.push_back((*it)[1]);
  return files;
}

}  // namespace

TEST_CASE("the walkthrough for an algorithm touches at most three files: header, spec, registration line") {
  const std::vector<std::string> files = files_named(section(page(), "Adding an algorithm"));
  const std::set<std::string> distinct(files.begin(), files.end());
  CHECK(distinct.size() == files.size());
  CHECK(distinct.size() <= 3);
  CHECK(distinct.count("sim/algorithms/registered_algorithms.def") == 1);
  for (const std::string& f : files) {
    CAPTURE(f);
    CHECK(f.rfind("sim/algorithms/", 0) == 0);
    CHECK(std::ifstream(std::string(BANKCHECK_EXTENDING_DIR) + "/" + f).good());  // extracted by CMake
  }
  // The registration file is the registry's real list, not a new one.
  CHECK(std::ifstream(std::string(BANKCHECK_SOURCE_DIR) + "/sim/algorithms/registered_algorithms.def").good());
}

TEST_CASE("the example runs as the page says: its hand-computed conflicts, then 0 with pad=1") {
  const std::string running = section(page(), "Adding an algorithm");
  std::smatch command, count;
  REQUIRE(std::regex_search(running, command, std::regex("\nbankcheck run ([a-z-]+)((?: [a-z_]+=[0-9]+)+) --model dmm\n")));
  REQUIRE(std::regex_search(running, count, std::regex("\\*\\*([0-9]+) conflicts\\*\\*")));
  const std::string name = command[1];
  bankcheck::Params params;
  const std::string words = command[2];
  const std::regex pair(" ([a-z_]+)=([0-9]+)");
  for (std::sregex_iterator it(words.begin(), words.end(), pair), end; it != end; ++it)
    params[(*it)[1]] = std::stoll((*it)[2]);
  REQUIRE(params.contains("w"));
  const std::uint64_t stated = std::stoull(count[1]);
  CHECK(stated == 112);  // 2 * 8 rounds * 7 conflicts: the page's arithmetic, redone here

  register_row_sum();
  CHECK(bankcheck::find_algorithm(name).name == name);
  CHECK(bankcheck::row_sum_specs().front().name == name);  // the function the registration line names
  const auto model = bankcheck::make_preset("dmm", static_cast<unsigned>(params.at("w")));
  const auto random = bankcheck::InputChoice::parse("random", 1);
  const bankcheck::AlgorithmReport r = bankcheck::run_algorithm(name, params, random, model);
  CHECK(r.total.conflicts() == stated);
  CHECK(r.total.instructions == 16);
  CHECK(r.outcome.output_ok);
  REQUIRE(r.outcome.prediction);
  REQUIRE(r.replayed_for_prediction);
  CHECK(r.outcome.prediction->holds(*r.replayed_for_prediction));

  params["pad"] = 1;
  CHECK(bankcheck::run_algorithm(name, params, random, model).total.conflicts() == 0);
  // Registering the same name again is refused, as the page says.
  CHECK_THROWS_AS(register_row_sum(), std::invalid_argument);
}
