#pragma once
// What a shell command prints on stdout, every byte (tests that read
// compressed fixtures through gzip, or run the CLI with 2>&1).
#include <cstdio>
#include <memory>
#include <string>

#include <doctest/doctest.h>

namespace bankcheck::test {

/// The command's whole stdout; `status`, when given, receives pclose's status.
inline std::string pipe_output(const std::string& command, int* status = nullptr) {
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE_MESSAGE(pipe != nullptr, "cannot run: " << command);
  std::string out;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int closed = pclose(pipe);
  if (status) *status = closed;
  return out;
}

}  // namespace bankcheck::test
