#include "cli/progress_bar.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>

using bankcheck::cli::ProgressBar;

namespace {
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  char buf[256];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
  return s;
}
}  // namespace

TEST_CASE("the bar shows done/total, the share and an estimate, and ends its line") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressBar bar("points", true, f, 0.0);
    bar.update(5, 10, 0.5);
  }
  const std::string s = contents(f);
  CHECK(s.find("[###############               ] 5/10 points,  50%, ") != std::string::npos);
  CHECK(s.find("points/s, about") != std::string::npos);
  CHECK(s.find("s left") != std::string::npos);
  CHECK(s.back() == '\n');
  std::fclose(f);
}

TEST_CASE("nothing is drawn when disabled (not a terminal, --quiet) or before the delay") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressBar off("points", false, f, 0.0);
    off.update(5, 10, 0.5);
    ProgressBar early("points", true, f, 3600.0);
    early.update(5, 10, 0.5);
  }
  CHECK(contents(f).empty());
  std::fclose(f);
}

TEST_CASE("off a terminal: whole lines with the rate, no carriage returns, none before the delay") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressBar lines("points", true, f, 0.0, ProgressBar::Style::lines);
    lines.update(5, 10, 0.5);
    lines.update(6, 10, 0.6);  // within the interval: not drawn
    ProgressBar early("points", true, f, 3600.0, ProgressBar::Style::lines);
    early.update(5, 10, 0.5);
  }
  const std::string s = contents(f);
  CHECK(s.rfind("progress: 5/10 points,  50%, ", 0) == 0);
  CHECK(s.find("points/s, about") != std::string::npos);
  CHECK(s.find('\r') == std::string::npos);
  CHECK(std::count(s.begin(), s.end(), '\n') == 1);
  std::fclose(f);
}
