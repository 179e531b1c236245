#pragma once
// Progress on stderr for long runs (docs/cli.md, --quiet): a bar with
// done/total and an estimate of the time left, drawn only when stderr is a
// terminal, --quiet is off and the run has taken more than two seconds, so
// short runs, pipes and logs stay clean.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bankcheck::cli {

class ProgressBar {
 public:
  /// `unit` names what is counted ("points", "inputs").
  ProgressBar(std::string unit, bool quiet) : ProgressBar(std::move(unit), !quiet && isatty(STDERR_FILENO), stderr, 2.0) {}
  /// Drawn on `out` when `enabled`, from `delay_seconds` on (for tests).
  ProgressBar(std::string unit, bool enabled, std::FILE* out, double delay_seconds)
      : unit_(std::move(unit)), enabled_(enabled), out_(out), delay_(delay_seconds) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  /// `fraction` of the work done (may differ from done/total when items differ in cost).
  void update(std::uint64_t done, std::uint64_t total, double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed < delay_ || (drawn_ && now - last_ < std::chrono::milliseconds(200))) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction));
    std::string eta = "estimating";
    if (fraction > 0.001) eta = "about " + std::to_string(static_cast<long>(elapsed * (1 - fraction) / fraction + 0.5)) + " s left";
    std::fprintf(out_, "\r[%s%s] %llu/%llu %s, %3d%%, %s   ", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, ' ').c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), unit_.c_str(), static_cast<int>(100 * fraction), eta.c_str());
    std::fflush(out_);
  }

  /// Ends the bar's line (if one was drawn).
  void finish() {
    if (drawn_) std::fprintf(out_, "\n");
    drawn_ = false;
  }

 private:
  std::string unit_;
  bool enabled_;
  std::FILE* out_;
  double delay_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

}  // namespace bankcheck::cli
