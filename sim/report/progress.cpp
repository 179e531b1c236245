#include "sim/report/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace bankcheck::report {

Progress::Progress(std::ostream* out, std::string what, std::chrono::milliseconds delay, Now now)
    : out_(out), what_(std::move(what)), delay_(delay), now_(std::move(now)) {
  if (out_ == nullptr) return;
  start_ = now_();
  next_ = start_ + delay_;
}

Progress::~Progress() { finish(); }

void Progress::poll() {
  countdown_ = kStride;
  const Clock::time_point t = now_();
  if (t < next_) return;
  next_ = t + std::chrono::milliseconds(500);
  const double seconds = std::chrono::duration<double>(t - start_).count();
  char line[160];
  std::snprintf(line, sizeof line, "\r%s: %.3g instructions, %.1f s", what_.c_str(), static_cast<double>(done_),
                seconds);
  *out_ << line << std::flush;
  shown_ = true;
}

void Progress::finish() {
  if (out_ == nullptr || !shown_) return;
  *out_ << "\r\033[K" << std::flush;  // erase the line: what follows starts clean
  shown_ = false;
}

ProgressBar::ProgressBar(std::string unit, bool quiet)
    : ProgressBar(std::move(unit), !quiet, stderr, isatty(STDERR_FILENO) ? 2.0 : 5.0,
                  isatty(STDERR_FILENO) ? Style::bar : Style::lines) {}

void ProgressBar::update(std::uint64_t done, std::uint64_t total, double fraction) {
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

void ProgressBar::finish() {
  if (drawn_ && style_ == Style::bar) std::fprintf(out_, "\n");
  drawn_ = false;
}

}  // namespace bankcheck::report
