#pragma once
// Standard output, checked once at exit. Every command prints its result to
// std::cout (or stdout); a result that could not be written whole (a full
// disk, /dev/full, a closed terminal) must not exit 0 or 1 as if it had
// been read. main passes its exit code through checked_exit.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "cli/commands.hpp"

namespace bankcheck::cli {

/// Flushes std::cout and stdout. When standard output could not be written
/// (now or by an earlier write), prints "bankcheck: error: cannot write
/// standard output: REASON" to stderr and returns kBadInput; else `code`.
inline int checked_exit(int code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int flush_errno = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return code;
  const std::string why = !flushed && flush_errno != 0 ? std::strerror(flush_errno) : "an earlier write failed";
  std::cerr << "bankcheck: error: cannot write standard output: " << why
            << " (the printed result is incomplete)\n";
  return kBadInput;
}

}  // namespace bankcheck::cli
