// Tests of sim/report/result_output.hpp: results written atomically, the
// inputs never overwritten, errors that name the file.
#include "sim/report/result_output.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include "tests/scratch.hpp"

using namespace bankcheck::report;
namespace fs = std::filesystem;

namespace {
fs::path scratch() {
  static const fs::path dir = [] {
    const fs::path d = bankcheck::test::scratch_dir() / "result-output";
    fs::create_directories(d);
    return d;
  }();
  return dir;
}
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("same_file: one file under different names; standard streams are no file") {
  const fs::path a = scratch() / "a.txt", b = scratch() / "b.txt", link = scratch() / "link.txt";
  std::ofstream(a) << "a";
  std::ofstream(b) << "b";
  fs::remove(link);
  fs::create_symlink(a, link);
  CHECK(same_file(a.string(), a.string()));
  CHECK(same_file(a.string(), (scratch() / "." / "a.txt").string()));
  CHECK(same_file(a.string(), link.string()));
  CHECK_FALSE(same_file(a.string(), b.string()));
  CHECK_FALSE(same_file(a.string(), (scratch() / "missing").string()));
  CHECK_FALSE(same_file("-", "-"));
  CHECK_THROWS_WITH_AS(refuse_overwriting_inputs(link.string(), {b.string(), a.string()}),
                       doctest::Contains("refusing to write"), std::invalid_argument);
  CHECK_NOTHROW(refuse_overwriting_inputs(b.string(), {a.string()}));
}

TEST_CASE("ResultOutput: the file appears whole at commit, not before; without commit an older file survives") {
  const fs::path p = scratch() / "r.txt";
  std::ofstream(p) << "older";
  {
    ResultOutput out(p.string());
    out.stream() << "new result\n";
    CHECK(slurp(p) == "older");  // not yet
  }  // no commit: dropped
  CHECK(slurp(p) == "older");
  {
    ResultOutput out(p.string());
    for (int i = 0; i < 20000; ++i) out.stream() << "line " << i << "\n";  // more than one buffer
    out.commit();
  }
  const std::string text = slurp(p);
  CHECK(text.rfind("line 0\n", 0) == 0);
  CHECK(text.ends_with("line 19999\n"));
  for (const auto& e : fs::directory_iterator(scratch())) CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
}

TEST_CASE("ResultOutput: a path that cannot be created, or an input, is refused with its name") {
  CHECK_THROWS_WITH_AS(ResultOutput("/nonexistent/dir/r.json"), doctest::Contains("/nonexistent/dir/r.json"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ResultOutput(scratch().string()), doctest::Contains("is a directory"), std::invalid_argument);
  const fs::path in = scratch() / "in.trace";
  std::ofstream(in) << "warp 4\n";
  CHECK_THROWS_AS(ResultOutput(in.string(), {in.string()}), std::invalid_argument);
  CHECK(slurp(in) == "warp 4\n");
  ResultOutput out("-");
  CHECK(out.name() == "<stdout>");
}
