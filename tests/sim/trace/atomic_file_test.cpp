#include "sim/trace/atomic_file.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include "tests/scratch.hpp"

using bankcheck::AtomicFile;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
fs::path scratch() {
  const fs::path dir = bankcheck::test::scratch_dir() / "atomic";
  fs::create_directories(dir);
  return dir;
}
std::size_t entries(const fs::path& dir) { return std::distance(fs::directory_iterator(dir), fs::directory_iterator()); }
}  // namespace

TEST_CASE("commit replaces the target; nothing else stays in the directory") {
  const fs::path dir = scratch();
  const fs::path target = dir / "out.bin";
  { std::ofstream(target) << "old"; }
  {
    AtomicFile f(target);
    f.write("hello ");
    f.write_at(6, std::as_bytes(std::span<const char>("world", 5)));
    CHECK(slurp(target) == "old");  // not visible before commit
    f.commit();
  }
  CHECK(slurp(target) == "hello world");
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("a writer abandoned by an exception leaves the old file and no temporary") {
  const fs::path dir = scratch();
  const fs::path target = dir / "out.bin";
  { std::ofstream(target) << "old"; }
  try {
    AtomicFile f(target);
    f.write("half");
    throw std::invalid_argument("bad parameter halfway");
  } catch (const std::invalid_argument&) {
  }
  CHECK(slurp(target) == "old");
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("an unwritable directory is reported with the path") {
  CHECK_THROWS_WITH_AS(AtomicFile("/nonexistent-dir-bankcheck/x.bin"), doctest::Contains("/nonexistent-dir-bankcheck"),
                       std::runtime_error);
}
