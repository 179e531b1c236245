// End-to-end tests of `bankcheck convert` (cli/convert_command.cpp): round
// trips, errors with their locations, and that no conversion can lose data
// (same-file conversion refused; an output appears whole or not at all).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/cli/cli_runner.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace convert_command_test {

namespace {

/// CSV rows without the worst-instruction row, whose location names the file.
std::string costs(const std::string& csv) {
  std::string out;
  std::size_t at = 0;
  while (at < csv.size()) {
    const std::size_t end = csv.find('\n', at);
    const std::string line = csv.substr(at, end - at);
    if (line.rfind("worst,", 0) != 0) out += line + "\n";
    at = end == std::string::npos ? csv.size() : end + 1;
  }
  return out;
}

namespace fs = std::filesystem;
using bankcheck::test::CliResult;
using bankcheck::test::scratch;
using bankcheck::test::slurp;
using bankcheck::test::write_text;

CliResult cli(const std::string& args) { return bankcheck::test::run_cli(args); }

const std::string kExample = std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/traces/example.trace";

}  // namespace

TEST_CASE("convert: text -> bin -> text round trip, and bad input exits 2") {
  const std::string bin = scratch("ex.bktrace"), back = scratch("ex.trace"), cut = scratch("cut.bktrace");
  REQUIRE(cli("convert '" + kExample + "' '" + bin + "'").code == 0);
  REQUIRE(cli("convert '" + bin + "' '" + back + "'").code == 0);
  // the same counts either way
  const CliResult a = cli("replay --model dmm --csv '" + kExample + "'");
  const CliResult b = cli("replay --model dmm --csv '" + bin + "'");
  CHECK(a.code == 0);
  CHECK(costs(a.std_out) == costs(b.std_out));
  CHECK(costs(a.std_out) == costs(cli("replay --model dmm --csv '" + back + "'").std_out));
  // truncated binary: file and byte offset
  const std::string bytes = slurp(bin);
  write_text(cut, bytes.substr(0, bytes.size() - 12));
  const CliResult t = cli("replay --model dmm '" + cut + "'");
  CHECK(t.code == 2);
  CHECK(t.std_err.find(cut + ": byte ") != std::string::npos);
  // unknown output extension without --format
  const CliResult u = cli("convert '" + kExample + "' '" + scratch("x.out") + "'");
  CHECK(u.code == 2);
  CHECK(u.std_err.find("--format text|bin") != std::string::npos);
  // --format (or its old name --to) to stdout
  for (const char* flag : {"--format", "--to"}) {
    const CliResult s = cli("convert '" + bin + "' - " + flag + " text");
    CHECK(s.code == 0);
    CHECK(s.std_out.rfind("warp 32\n@tile.row ld 4 0 4 8 ", 0) == 0);
  }
}

TEST_CASE("convert: --address-bytes 4 halves the binary and replays the same; other sizes exit 2") {
  const std::string wide = scratch("ex8.bktrace"), narrow = scratch("ex4.bktrace"), bad = scratch("ex3.bktrace");
  REQUIRE(cli("convert '" + kExample + "' '" + wide + "'").code == 0);
  REQUIRE(cli("convert '" + kExample + "' '" + narrow + "' --address-bytes 4").code == 0);
  CHECK(fs::file_size(narrow) < fs::file_size(wide) * 6 / 10);
  const CliResult a = cli("replay --model sm90 --per-instruction --csv '" + wide + "'");
  CHECK(a.code == 0);
  // The rows name different files and offsets; the costs are the same.
  const CliResult n = cli("replay --model sm90 --csv '" + narrow + "'");
  CHECK(costs(cli("replay --model sm90 --csv '" + wide + "'").std_out) == costs(n.std_out));
  for (const char* size : {"3", "-8", "16", "0x8"}) {
    CAPTURE(size);
    const CliResult r = cli("convert '" + kExample + "' '" + bad + "' --address-bytes " + size);
    CHECK(r.code == 2);
    CHECK(r.std_err.find("--address-bytes: must be") != std::string::npos);
    CHECK_FALSE(fs::exists(bad));
  }
}

TEST_CASE("convert: X to X is refused and X survives, also through another spelling or a link") {
  for (const char* ext : {".trace", ".bktrace"}) {
    CAPTURE(ext);
    const std::string x = scratch(std::string("same") + ext);
    REQUIRE(cli("convert '" + kExample + "' '" + x + "'").code == 0);
    const std::string before = slurp(x);
    const std::string link = scratch(std::string("link") + ext);
    fs::remove(link);
    fs::create_symlink(x, link);
    const std::string dotted = (fs::path(x).parent_path() / "." / fs::path(x).filename()).string();
    for (const std::string& out : {x, dotted, link}) {
      CAPTURE(out);
      const CliResult r = cli("convert '" + x + "' '" + out + "'");
      CHECK(r.code == 2);
      CHECK(r.std_err.find("refusing to write") != std::string::npos);
      CHECK(slurp(x) == before);
    }
  }
}

TEST_CASE("convert: a failure half-way leaves no output and keeps an older file of that name") {
  const std::string bad = scratch("half.trace"), out = scratch("half.bktrace");
  // Two good instructions, then a malformed one: the writer has begun when the error comes.
  write_text(bad, "warp 4\nld 4 0 4 8 12\nst 4 0 4 8 12\nld 4 0 4\n");
  CHECK(cli("convert '" + bad + "' '" + out + "'").code == 2);
  CHECK_FALSE(fs::exists(out));
  write_text(out, "older");
  CHECK(cli("convert '" + bad + "' '" + out + "'").code == 2);
  CHECK(slurp(out) == "older");
  // No temporary file is left in the directory either.
  for (const auto& e : fs::directory_iterator(fs::path(out).parent_path()))
    CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
}

TEST_CASE("convert: an output that cannot be created is a clear error, exit 2") {
  for (const std::string& out : {std::string("/nonexistent/dir/x.bktrace"), bankcheck::test::scratch_dir().string() + "/"}) {
    CAPTURE(out);
    const CliResult r = cli("convert '" + kExample + "' '" + out + "' --format bin");
    CHECK(r.code == 2);
    CHECK(r.std_err.find("bankcheck: error: ") == 0);
    CHECK(r.std_err.find(out) != std::string::npos);
  }
}

}  // namespace convert_command_test
