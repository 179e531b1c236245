#pragma once
// The H200's measured TMA forms (validate/sm90/measured/cpasync_tma.csv,
// 2026-11-29, validate/results/h200-2026-11-29/cpasync): one reader for the
// tests that check rule 8 on them (the SASS form test and the README table).
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bankcheck::test {

struct TmaMeasurement {
  std::string sass;        ///< the SASS form, e.g. UTMALDG.4D.MULTICAST
  std::string executions;  ///< as measured (text: the tests check its value)
  std::string wavefronts;  ///< ncu's L1 shared wavefronts of the instruction, as text
};

/// Every measured row of the file (comments and the header skipped); throws when the file cannot be read.
inline std::vector<TmaMeasurement> read_tma_measured(const std::string& path) {
  std::ifstream in(path);
  if (!in.good()) throw std::runtime_error(path + ": cannot open");
  std::vector<TmaMeasurement> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("kernel,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string kernel;
    TmaMeasurement m;
    std::getline(ss, kernel, ',');
    std::getline(ss, m.sass, ',');
    std::getline(ss, m.executions, ',');
    std::getline(ss, m.wavefronts, ',');
    rows.push_back(std::move(m));
  }
  return rows;
}

}  // namespace bankcheck::test
