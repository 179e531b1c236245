#include "sim/report/progress.hpp"

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

}  // namespace bankcheck::report
