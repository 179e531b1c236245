#pragma once
// The layouts behind the measured ldmatrix/stmatrix probes of
// validate/sm90/cases/kinds.trace (validate/sm90/measured/kinds.csv): each
// probe's lane addresses, written as the fp16 layout and access that give
// them. layout_access_test checks the addresses, layout_check_test the counts.
#include <vector>

namespace bankcheck::test {

struct ProbeRoute {
  const char* probe;
  const char* layout;
  const char* access;
};

inline const std::vector<ProbeRoute>& probe_routes() {
  static const std::vector<ProbeRoute> routes = {
      {"ldsm-x4-contiguous", "(32,8):(8,1)", "ldmatrix.x4"},
      {"ldsm-x4-stride64", "(8,32):(32,1)", "ldmatrix.x4"},
      {"ldsm-x4-stride128", "(8,64):(64,1)", "ldmatrix.x4"},
      {"ldsm-x4-stride256", "(8,128):(128,1)", "ldmatrix.x4"},
      {"ldsm-x4-stacked128", "(32,8):(64,1)", "ldmatrix.x4"},
      {"ldsm-x4-swizzled", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "ldmatrix.x4"},
      {"ldsm-x4.trans-swizzled", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "ldmatrix.x4.trans"},
      {"ldsm-x4.trans-stride128", "(8,64):(64,1)", "ldmatrix.x4.trans"},
      {"ldsm-x2-stride128", "(8,64):(64,1)", "ldmatrix.x2"},
      {"ldsm-x1-stride128", "(8,64):(64,1)", "ldmatrix.x1"},
      {"stsm-x4-stride128", "(8,64):(64,1)", "stmatrix.x4"},
      {"stsm-x4-swizzled", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "stmatrix.x4"}};
  return routes;
}

}  // namespace bankcheck::test
