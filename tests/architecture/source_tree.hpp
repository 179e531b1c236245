#pragma once
// The repository's source files as the architecture tests read them: every
// file with a source ending below the root, less build trees, git metadata,
// the checkout's shared/ folder and measured data (validate/results,
// tests/data), which are not sources.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace bankcheck::architecture {

namespace fs = std::filesystem;

inline bool is_source(const fs::path& p) {
  static const std::set<std::string> ext{".hpp", ".cpp", ".cu", ".cuh", ".h", ".py", ".sh", ".cmake", ".def"};
  return ext.count(p.extension().string()) || p.filename() == "CMakeLists.txt";
}

/// The C++ and CUDA sources among them (what the function-length scan reads).
inline bool is_cpp_source(const std::string& rel) {
  static const std::set<std::string> ext{".hpp", ".cpp", ".cu", ".cuh", ".h"};
  return ext.count(fs::path(rel).extension().string()) > 0;
}

/// Every source file of the repository, relative to the root, sorted.
inline std::vector<std::string> source_files(const fs::path& root) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string rel = fs::relative(it->path(), root).generic_string();
    const std::string top = rel.substr(0, rel.find('/'));
    if (it->is_directory() && (top.rfind("build", 0) == 0 || top[0] == '.' || rel == "validate/results" ||
                               rel == "tests/data" || top == "shared")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && is_source(it->path())) out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace bankcheck::architecture
