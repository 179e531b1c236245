// Tests of sim/report/progress.hpp: Progress with a clock the test moves by
// hand, ProgressBar drawn into a temporary file.
#include "sim/report/progress.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

using namespace bankcheck::report;
using namespace std::chrono_literals;

namespace {
struct FakeClock {
  Progress::Clock::time_point t{};
  Progress::Now now() {
    return [this] { return t; };
  }
};
void ticks(Progress& p, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) p.tick();
}
}  // namespace

TEST_CASE("progress: silent for a short run, one line after the delay, cleared at the end") {
  FakeClock clock;
  std::ostringstream err;
  {
    Progress p(&err, "replay", 2000ms, clock.now());
    ticks(p, 3 * Progress::kStride);
    clock.t += 1900ms;
    ticks(p, Progress::kStride);
    CHECK(err.str().empty());  // before the delay: nothing
    clock.t += 200ms;          // 2.1 s
    ticks(p, Progress::kStride);
    CHECK(p.shown());
    CHECK(err.str() == "\rreplay: 8.19e+04 instructions, 2.1 s");  // 5 * 16384 = 81920
    clock.t += 100ms;  // within half a second: no new line
    ticks(p, Progress::kStride);
    CHECK(err.str().size() == std::string("\rreplay: 8.19e+04 instructions, 2.1 s").size());
    p.finish();
    CHECK(err.str().ends_with("\r\033[K"));
    CHECK_FALSE(p.shown());
  }
  CHECK(err.str().ends_with("\r\033[K"));  // finished once, not again by the destructor
}

TEST_CASE("progress: a run that ends before the delay prints nothing at all") {
  FakeClock clock;
  std::ostringstream err;
  {
    Progress p(&err, "run", 2000ms, clock.now());
    ticks(p, 10 * Progress::kStride);
    clock.t += 1500ms;
    ticks(p, Progress::kStride);
  }
  CHECK(err.str().empty());
}

TEST_CASE("progress: disabled (no stream) only counts") {
  Progress p(nullptr, "x");
  ticks(p, 5);
  CHECK(p.done() == 5);
  CHECK_FALSE(p.enabled());
  CHECK_FALSE(p.shown());
}

TEST_CASE("progress sink: counts records and passes them on") {
  FakeClock clock;
  Progress p(nullptr, "trace", 2000ms, clock.now());
  bankcheck::TraceBuffer buffer;
  ProgressSink sink(p, &buffer);
  sink.begin(2);
  const std::vector<std::uint64_t> a = {0, 4};
  sink.record("s", bankcheck::WarpRequest{bankcheck::Op::load, 4, a});
  sink.record("s", bankcheck::WarpRequest{bankcheck::Op::store, 4, a});
  sink.end();
  CHECK(p.done() == 2);
  CHECK(buffer.size() == 2);
  CHECK(buffer.warp() == 2);
}

// ProgressBar

namespace {
std::string file_contents(std::FILE* f) {
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
  const std::string s = file_contents(f);
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
  CHECK(file_contents(f).empty());
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
  const std::string s = file_contents(f);
  CHECK(s.rfind("progress: 5/10 points,  50%, ", 0) == 0);
  CHECK(s.find("points/s, about") != std::string::npos);
  CHECK(s.find('\r') == std::string::npos);
  CHECK(std::count(s.begin(), s.end(), '\n') == 1);
  std::fclose(f);
}
