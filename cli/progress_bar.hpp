#pragma once
// Progress on stderr for long runs (docs/cli.md, --quiet): done/total, the
// rate and an estimate of the time left. On a terminal, a bar redrawn in
// place from two seconds on; otherwise (a log, a pipe, a batch job) one line
// every five seconds from five seconds on, so that a long run is never
// silent and a short one stays clean.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bankcheck::cli {

class ProgressBar {
 public:
  enum class Style { bar, lines };
  /// `unit` names what is counted ("points", "inputs").
  ProgressBar(std::string unit, bool quiet)
      : ProgressBar(std::move(unit), !quiet, stderr, isatty(STDERR_FILENO) ? 2.0 : 5.0,
                    isatty(STDERR_FILENO) ? Style::bar : Style::lines) {}
  /// Drawn on `out` when `enabled`, from `delay_seconds` on (for tests).
  ProgressBar(std::string unit, bool enabled, std::FILE* out, double delay_seconds, Style style = Style::bar)
      : unit_(std::move(unit)), enabled_(enabled), out_(out), delay_(delay_seconds), style_(style) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  /// `fraction` of the work done (may differ from done/total when items differ in cost).
  void update(std::uint64_t done, std::uint64_t total, double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const auto interval = style_ == Style::bar ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
    if (elapsed < delay_ || (drawn_ && now - last_ < interval)) return;
    last_ = now;
    drawn_ = true;
    fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    std::string eta = "estimating";
    if (fraction > 0.001) eta = "about " + std::to_string(static_cast<long>(elapsed * (1 - fraction) / fraction + 0.5)) + " s left";
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    char counts[160];
    std::snprintf(counts, sizeof counts, "%llu/%llu %s, %3d%%, %.0f %s/s, %s", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), unit_.c_str(), static_cast<int>(100 * fraction), rate,
                  unit_.c_str(), eta.c_str());
    if (style_ == Style::lines) {
      std::fprintf(out_, "progress: %s (%.0f s)\n", counts, elapsed);
    } else {
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(kWidth * fraction);
      std::fprintf(out_, "\r[%s%s] %s   ", std::string(filled, '#').c_str(), std::string(kWidth - filled, ' ').c_str(),
                   counts);
    }
    std::fflush(out_);
  }

  /// Ends the bar's line (if one was drawn).
  void finish() {
    if (drawn_ && style_ == Style::bar) std::fprintf(out_, "\n");
    drawn_ = false;
  }

 private:
  std::string unit_;
  bool enabled_;
  std::FILE* out_;
  double delay_;
  Style style_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

}  // namespace bankcheck::cli
