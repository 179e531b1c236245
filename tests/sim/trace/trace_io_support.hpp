#pragma once
// Test support shared by the trace I/O tests: a trace held in a temporary
// stream, read back through the real InputFile path.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "sim/trace/trace_file.hpp"

namespace bankcheck::test {

/// Bytes in an anonymous temporary file (works for empty input too).
class TempStream {
 public:
  explicit TempStream(const std::string& bytes) : file_(std::tmpfile()) {
    if (file_ == nullptr) throw std::runtime_error("tmpfile failed");
    if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), file_);
    std::rewind(file_);
  }
  ~TempStream() { std::fclose(file_); }
  TempStream(const TempStream&) = delete;
  TempStream& operator=(const TempStream&) = delete;
  InputFile input(const std::string& name) const { return InputFile(file_, name); }

 private:
  std::FILE* file_;
};

/// Whole contents of a file, which must exist (tests only; traces are small here).
/// Not slurp: tests/cli/cli_runner.hpp's returns "" for a missing file, and
/// both headers meet in a test layer's translation unit (tests/CMakeLists.txt).
inline std::string file_bytes(const std::string& path) {
  std::string out;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error("cannot open " + path);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  std::fclose(f);
  return out;
}

}  // namespace bankcheck::test
