#pragma once
// Progress on stderr for long runs, the project's one home for it, in two
// shapes:
// - Progress, for work whose total is unknown (a trace streamed through
//   replay): silent for the first couple of seconds (most runs end before),
//   then one line rewritten in place about twice a second ("replay: 1.2e+07
//   instructions, 3.1 s"), cleared at the end. The CLI turns it on only when
//   stderr is a terminal and --quiet is not given, so redirected output and
//   logs never see it.
// - ProgressBar, for work of a known total (verify's points, adversary's
//   inputs; docs/cli.md, --quiet): done/total, the rate and an estimate of
//   the time left. On a terminal, a bar redrawn in place from two seconds
//   on; otherwise (a log, a pipe, a batch job) one line every five seconds
//   from five seconds on, so that a long run is never silent and a short one
//   stays clean.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "sim/trace/trace.hpp"

namespace bankcheck::report {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  using Now = std::function<Clock::time_point()>;

  /// `out` nullptr: every call does nothing (beyond counting).
  /// @param delay  time before the first line
  Progress(std::ostream* out, std::string what, std::chrono::milliseconds delay = std::chrono::seconds(2),
           Now now = Clock::now);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// One more unit of work; looks at the clock only every kStride calls.
  void tick() {
    ++done_;
    if (out_ != nullptr && --countdown_ == 0) poll();
  }
  /// Work done so far jumps to `done` (a producer that counts for itself).
  void advance_to(std::uint64_t done) {
    while (done_ < done) tick();
  }
  /// Clear the progress line, if one was shown.
  void finish();

  std::uint64_t done() const { return done_; }
  bool enabled() const { return out_ != nullptr; }
  bool shown() const { return shown_; }
  static constexpr std::uint32_t kStride = 1u << 14;

 private:
  void poll();
  std::ostream* out_;
  std::string what_;
  std::chrono::milliseconds delay_;
  Now now_;
  Clock::time_point start_, next_;
  std::uint64_t done_ = 0;
  std::uint32_t countdown_ = kStride;
  bool shown_ = false;
};

/// A TraceSink that ticks a Progress per record and passes records on to
/// `next` (if any): progress for commands that produce traces.
class ProgressSink final : public TraceSink {
 public:
  ProgressSink(Progress& progress, TraceSink* next) : progress_(progress), next_(next) {}
  void begin(unsigned warp) override {
    if (next_) next_->begin(warp);
  }
  void record(std::string_view site, const WarpRequest& request) override {
    progress_.tick();
    if (next_) next_->record(site, request);
  }
  void end() override {
    progress_.finish();
    if (next_) next_->end();
  }

 private:
  Progress& progress_;
  TraceSink* next_;
};

class ProgressBar {
 public:
  enum class Style { bar, lines };
  /// `unit` names what is counted ("points", "inputs"); drawn on stderr unless `quiet`.
  ProgressBar(std::string unit, bool quiet);
  /// Drawn on `out` when `enabled`, from `delay_seconds` on (for tests).
  ProgressBar(std::string unit, bool enabled, std::FILE* out, double delay_seconds, Style style = Style::bar)
      : unit_(std::move(unit)), enabled_(enabled), out_(out), delay_(delay_seconds), style_(style) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  /// `fraction` of the work done (may differ from done/total when items differ in cost).
  void update(std::uint64_t done, std::uint64_t total, double fraction);
  /// Ends the bar's line (if one was drawn).
  void finish();

 private:
  std::string unit_;
  bool enabled_;
  std::FILE* out_;
  double delay_;
  Style style_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

}  // namespace bankcheck::report
