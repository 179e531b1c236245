#pragma once
// Scratch files for tests: one directory per test process under TMPDIR
// (std::filesystem::temp_directory_path), named after the process id and
// removed at exit, so two builds (or two test processes) never share a
// file. Tests make their scratch paths here and nowhere else
// (tests/cli/test_paths_test.cpp checks it).
#include <unistd.h>

#include <filesystem>
#include <string>

namespace bankcheck::test {

/// This process's scratch directory.
inline const std::filesystem::path& scratch_dir() {
  struct Scratch {
    std::filesystem::path dir;
    Scratch() {
      dir = std::filesystem::temp_directory_path() / ("bankcheck-test-" + std::to_string(::getpid()));
      std::filesystem::create_directories(dir);
    }
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  };
  static const Scratch s;
  return s.dir;
}

/// A path in this process's scratch directory.
inline std::string scratch(const std::string& name) { return (scratch_dir() / name).string(); }

}  // namespace bankcheck::test
