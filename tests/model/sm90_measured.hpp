#pragma once
// Helpers of the tests that check the sm90 rules on hand-counted warps and
// on the sets measured on the H100 (validate/sm90/measured/).
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/bank_model.hpp"

namespace bankcheck::test {

inline std::vector<std::uint64_t> lanes(std::uint64_t base, std::uint64_t stride, unsigned active = 32) {
  std::vector<std::uint64_t> a(32, kInactive);
  for (unsigned l = 0; l < active; ++l) a[l] = base + stride * l;
  return a;
}

/// A measured set of validate/sm90/measured: site -> per-instruction wavefronts.
inline std::map<std::string, std::uint64_t> measured_wavefronts(const std::string& path) {
  std::map<std::string, std::uint64_t> measured;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("site,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string site, wf;
    std::getline(ss, site, ',');
    std::getline(ss, wf, ',');
    measured[site] = std::stoull(wf);
  }
  return measured;
}

inline std::uint64_t wavefronts(Op op, unsigned width, const std::vector<std::uint64_t>& a) {
  const BankModel sm90 = make_preset("sm90");
  const RequestCost c = sm90.cost(WarpRequest{op, width, a});
  REQUIRE(c.modelled);
  CHECK(c.wavefronts == c.ideal + c.conflicts);
  return c.wavefronts;
}

}  // namespace bankcheck::test
