// Every shell session shown in README.md and docs/*.md runs, and prints what
// the page shows (docs/cli.md, "Commands in the docs are tested"): fenced
// ```console blocks, `$ ` before each command, its output below it, `...` for
// any lines and `[...]` for any text where the output varies, `[exit N]` for
// a command that must fail. Each page runs in a scratch directory whose
// entries link to the repository's top level, with the built bankcheck first
// on PATH (and as build/bankcheck). A command shown in any other code block
// (fenced or indented) must be marked, on the line before the block, with
// `<!-- not run: REASON -->`; so must a console block that is not run.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace doc_commands_test {

namespace {

namespace fs = std::filesystem;

struct Command {
  std::size_t line = 0;                ///< 1-based line of the `$ ` in the page
  std::string shell;                   ///< the command, continuation lines joined
  std::vector<std::string> expected;   ///< output lines, possibly with `...` and `[...]`
  int exit_code = 0;
  std::string not_run;                 ///< the block's `<!-- not run: REASON -->` reason; empty: it runs
};

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    out.push_back(rstrip(text.substr(at, end == std::string::npos ? std::string::npos : end - at)));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

/// The reason of a `<!-- not run: REASON -->` line; "" for any other line.
std::string not_run_reason(const std::string& line) {
  const std::string open = "<!-- not run:", close = "-->";
  if (line.rfind(open, 0) != 0 || line.size() < open.size() + close.size() ||
      line.compare(line.size() - close.size(), close.size(), close) != 0)
    return "";
  std::string reason = line.substr(open.size(), line.size() - open.size() - close.size());
  reason.erase(0, reason.find_first_not_of(' '));
  return rstrip(reason);
}

/// The marker's reason for a block that opens at lines[i]: the nearest non-blank line before it.
std::string marker_before(const std::vector<std::string>& lines, std::size_t i) {
  while (i > 0 && lines[i - 1].empty()) --i;
  return i > 0 ? not_run_reason(lines[i - 1]) : "";
}

/// The console blocks' commands of a markdown page.
std::vector<Command> commands_of(const std::string& markdown) {
  std::vector<Command> out;
  const auto lines = lines_of(markdown);
  bool console = false, fenced = false;
  std::string not_run;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("```", 0) == 0) {
      if (fenced) {
        fenced = console = false;
      } else {
        fenced = true;
        console = line.substr(3) == "console";
        not_run = marker_before(lines, i);
      }
      continue;
    }
    if (!console) continue;
    if (line.rfind("$ ", 0) == 0) {
      Command c;
      c.line = i + 1;
      c.not_run = not_run;
      c.shell = line.substr(2);
      while (!c.shell.empty() && c.shell.back() == '\\' && i + 1 < lines.size())
        c.shell += "\n" + lines[++i];  // the shell joins the lines
      out.push_back(c);
    } else if (!out.empty()) {
      const std::string prefix = "[exit ";
      if (line.rfind(prefix, 0) == 0 && line.back() == ']')
        out.back().exit_code = std::stoi(line.substr(prefix.size()));
      else
        out.back().expected.push_back(line);
    }
  }
  return out;
}

/// Whether a line of a code block is a command someone would run: a shell
/// prompt, or a line that starts with bankcheck or one of the programs the
/// docs tell people to run.
bool looks_like_command(std::string line) {
  line.erase(0, line.find_first_not_of(" \t"));
  if (line.rfind("$ ", 0) == 0) return true;
  static const std::vector<std::string> programs = {
      "bankcheck ", "build/bankcheck ", "bash ", "python3 ", "mpirun ", "srun ", "cmake ", "ctest ", "clang++",
      "kernel.",    "bench.",           "build/bench/", "OUT=", "BIN=", "B=", "PREBUILT_B=", "mkdir "};
  for (const std::string& p : programs)
    if (line.rfind(p, 0) == 0) return true;
  return false;
}

struct Unmarked {
  std::size_t line;
  std::string text;
};

/// Command lines shown outside console blocks (in other fenced blocks, or
/// indented four spaces) whose block carries no `<!-- not run: REASON -->`.
std::vector<Unmarked> unmarked_commands(const std::string& markdown) {
  std::vector<Unmarked> out;
  const auto lines = lines_of(markdown);
  bool fenced = false, console = false;
  std::string marker;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("```", 0) == 0) {
      if (!fenced) {
        console = line.substr(3) == "console";
        marker = marker_before(lines, i);
      }
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      if (!console && marker.empty() && looks_like_command(line)) out.push_back({i + 1, line});
      continue;
    }
    if (line.rfind("    ", 0) == 0 && looks_like_command(line)) {
      std::size_t first = i;  // the indented block's first line
      while (first > 0 && lines[first - 1].rfind("    ", 0) == 0) --first;
      if (marker_before(lines, first).empty()) out.push_back({i + 1, line});
    }
  }
  return out;
}

/// Whether `line` matches `pattern`, where `[...]` stands for any text.
bool line_matches(const std::string& pattern, const std::string& line) {
  const std::string any = "[...]";
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (std::size_t hole; (hole = pattern.find(any, at)) != std::string::npos; at = hole + any.size())
    parts.push_back(pattern.substr(at, hole - at));
  parts.push_back(pattern.substr(at));
  if (parts.size() == 1) return pattern == line;
  if (line.rfind(parts.front(), 0) != 0) return false;
  std::size_t pos = parts.front().size();
  for (std::size_t k = 1; k + 1 < parts.size(); ++k) {
    const std::size_t found = line.find(parts[k], pos);
    if (found == std::string::npos) return false;
    pos = found + parts[k].size();
  }
  const std::string& last = parts.back();
  return line.size() >= pos + last.size() && line.compare(line.size() - last.size(), last.size(), last) == 0;
}

/// Whether `actual` matches `expected`, where a line `...` stands for any lines.
bool output_matches(const std::vector<std::string>& expected, std::size_t e, const std::vector<std::string>& actual,
                    std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == "...") {
    for (std::size_t skip = a; skip <= actual.size(); ++skip)
      if (output_matches(expected, e + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && line_matches(expected[e], actual[a]) && output_matches(expected, e + 1, actual, a + 1);
}

/// Trailing blank lines are not shown in a page.
std::vector<std::string> trimmed(std::vector<std::string> lines) {
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

/// A directory that looks like the repository root for reading, but keeps what commands write.
fs::path page_directory(const std::string& page) {
  const fs::path dir = bankcheck::test::scratch_dir() / ("page-" + fs::path(page).stem().string());
  fs::create_directories(dir / "tmp");
  fs::create_directories(dir / "bin");
  for (const auto& entry : fs::directory_iterator(BANKCHECK_SOURCE_DIR)) {
    const std::string name = entry.path().filename().string();
    if (name == ".git" || name == "build" || fs::exists(dir / name)) continue;
    fs::create_symlink(entry.path(), dir / name);
  }
  fs::create_symlink(BANKCHECK_CLI, dir / "bin" / "bankcheck");
  // Pages write under build/; they read the captures measured on the H100
  // from build/real-programs (unpacked by the ctest fixture real_programs),
  // and some call the binary as build/bankcheck, as after the setup.
  fs::create_directories(dir / "build");
  if (!fs::exists(dir / "build" / "bankcheck")) fs::create_symlink(BANKCHECK_CLI, dir / "build" / "bankcheck");
  if (!fs::exists(dir / "build" / "real-programs"))
    fs::create_symlink(fs::path(BANKCHECK_BINARY_DIR) / "real-programs", dir / "build" / "real-programs");
  return dir;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Ran {
  int code;
  std::vector<std::string> output;
};

Ran run_in(const fs::path& dir, const std::string& shell) {
  const fs::path out = dir / "tmp" / "doc-command-output";
  const std::string cmd = "cd " + quoted(dir.string()) + " && PATH=" + quoted((dir / "bin").string()) +
                          ":\"$PATH\" TMPDIR=" + quoted((dir / "tmp").string()) + " timeout 120 sh -c " +
                          quoted(shell) + " >" + quoted(out.string()) + " 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, trimmed(lines_of(bankcheck::test::slurp(out.string())))};
}

/// README.md and docs/*.md; only BANKCHECK_DOC_PAGE where it is set
/// (tests/CMakeLists.txt runs one ctest entry per page, so that the pages'
/// sessions run in parallel).
std::vector<std::string> pages() {
  if (const char* one = std::getenv("BANKCHECK_DOC_PAGE"); one != nullptr && *one != '\0') {
    REQUIRE_MESSAGE(fs::exists(BANKCHECK_SOURCE_DIR "/" + std::string(one)), "BANKCHECK_DOC_PAGE=" << one);
    return {one};
  }
  std::vector<std::string> out = {"README.md"};
  for (const auto& e : fs::directory_iterator(BANKCHECK_SOURCE_DIR "/docs"))
    if (e.path().extension() == ".md") out.push_back("docs/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const std::string& page) { return bankcheck::test::slurp(BANKCHECK_SOURCE_DIR "/" + page); }

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_CASE("the matcher: exact lines, [...] inside a line, ... for lines, [exit N]") {
  const auto cmds = commands_of(
      "text\n```console\n$ echo a \\\n  b\nout 1\n...\nlast [...] line\n[exit 3]\n$ true\n```\n"
      "```\n$ not a console block\n```\n");
  REQUIRE(cmds.size() == 2);
  CHECK(cmds[0].line == 3);
  CHECK(cmds[0].shell == "echo a \\\n  b");
  CHECK(cmds[0].exit_code == 3);
  CHECK(cmds[0].expected == std::vector<std::string>{"out 1", "...", "last [...] line"});
  CHECK(cmds[1].expected.empty());
  const auto& e = cmds[0].expected;
  CHECK(output_matches(e, 0, {"out 1", "last x line"}, 0));
  CHECK(output_matches(e, 0, {"out 1", "a", "b", "last  line"}, 0));
  CHECK_FALSE(output_matches(e, 0, {"out 2", "last x line"}, 0));
  CHECK_FALSE(output_matches(e, 0, {"out 1", "last x line", "more"}, 0));
  CHECK_FALSE(output_matches(e, 0, {"out 1", "first x line"}, 0));
  CHECK(line_matches("[...]", "anything"));
  CHECK(line_matches("a[...]b[...]c", "a1b2c"));
  CHECK_FALSE(line_matches("a[...]b[...]c", "a1c2b"));
}

TEST_CASE("not-run markers and the commands they excuse") {
  CHECK(not_run_reason("<!-- not run: needs a GPU -->") == "needs a GPU");
  CHECK(not_run_reason("<!-- not run: -->").empty());  // a marker must give its reason
  CHECK(not_run_reason("<!-- a comment -->").empty());
  const std::string page =
      "```\nbankcheck run x\n```\n\n<!-- not run: synopsis -->\n```\nbankcheck run ALGO\n```\n"
      "text\n\n    build/bankcheck verify spaa   # indented\n\n<!-- not run: 10 minutes -->\n\n"
      "    build/bankcheck verify --w 1..1024\n\n```cpp\nint x;\n```\n"
      "<!-- not run: needs a GPU -->\n```console\n$ kernel.pbs --mode time\n```\n";
  const auto unmarked = unmarked_commands(page);
  REQUIRE(unmarked.size() == 2);
  CHECK(unmarked[0].line == 2);
  CHECK(unmarked[1].line == 11);
  const auto cmds = commands_of(page);
  REQUIRE(cmds.size() == 1);
  CHECK(cmds[0].not_run == "needs a GPU");
}

TEST_CASE("every console command of README.md and docs/*.md runs and prints what the page shows") {
  std::size_t total = 0, not_run = 0;
  for (const std::string& page : pages()) {
    const auto commands = commands_of(read(page));
    if (commands.empty()) continue;
    const fs::path dir = page_directory(page);
    for (const Command& c : commands) {
      if (!c.not_run.empty()) {
        ++not_run;
        MESSAGE(page << ":" << c.line << ": not run (" << c.not_run << "): $ " << c.shell);
        continue;
      }
      ++total;
      const Ran r = run_in(dir, c.shell);
      INFO(page << ":" << c.line << ": $ " << c.shell << "\n--- shown:\n"
                << joined(c.expected) << "--- printed (exit " << r.code << "):\n"
                << joined(r.output));
      CHECK(r.code == c.exit_code);
      CHECK(output_matches(trimmed(c.expected), 0, r.output, 0));
    }
  }
  if (std::getenv("BANKCHECK_DOC_PAGE") == nullptr)
    CHECK(total >= 20);  // README.md, docs/cli.md and the format and model pages have sessions
  else
    CHECK(total + not_run >= 1);  // a page is given its own entry because it has sessions
  MESSAGE(total << " commands run, " << not_run << " marked not run");
}

TEST_CASE("every command shown in a code block is run, or marked not run with the reason") {
  for (const std::string& page : pages())
    for (const Unmarked& u : unmarked_commands(read(page)))
      FAIL_CHECK(page << ":" << u.line << ": a command that is neither run (a ```console block) nor marked "
                      << "<!-- not run: REASON --> on the line before its block: " << u.text);
}

}  // namespace doc_commands_test
