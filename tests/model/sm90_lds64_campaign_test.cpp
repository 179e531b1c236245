// The paired 8-byte load campaign (docs/bank-model.md, rule 3) as a
// regression set: validate/sm90/cases/lds64.trace against the H200's
// per-instruction counts in validate/sm90/measured/lds64.csv
// (validate/fidelity/make_lds64_cases.py, lds64.cu, collect_lds64.py): 92
// kernels of 256 LDS.64 sites in eight SASS forms (run 3's 76 launches, run
// 2's 16 captured ones), launch shapes from one warp to 264 blocks of 16
// warps, and 128 single-instruction kernels. A
// site's measured total is the sum, over its distinct warp requests (lines
// of lds64.trace, named in the site's row), of the model's per-instruction
// cost times the times each ran. The patterns were drawn where rule 3's
// d0 + d1 and the merged degree differ; none measured the merged degree.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

using namespace bankcheck;

namespace {

// The set's size (validate/results/h200-2026-11-29/lds64/): 92 x 256 + 128 sites, and the sites
// whose requests' d0 + d1 differs from the merged degree.
constexpr std::size_t kLds64Sites = 23680;
constexpr std::size_t kLds64Disagree = 21238;

/// One LDS.64 site of validate/sm90/measured/lds64.csv.
struct Site {
  std::string name;
  std::uint64_t wavefronts = 0;                                    ///< measured: the site's total
  std::vector<std::pair<std::string, std::uint64_t>> requests;  ///< trace site, times it ran
};

std::vector<Site> read_sites(const std::string& path) {
  std::vector<Site> out;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("site,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string wf, executions, reqs;
    Site s;
    std::getline(ss, s.name, ',');
    std::getline(ss, wf, ',');
    std::getline(ss, executions, ',');
    std::getline(ss, reqs, ',');
    s.wavefronts = std::stoull(wf);
    std::stringstream rs(reqs);
    for (std::string r; std::getline(rs, r, ';');) {
      const auto star = r.find('*');
      REQUIRE(star != std::string::npos);
      s.requests.emplace_back(r.substr(0, star), std::stoull(r.substr(star + 1)));
    }
    out.push_back(std::move(s));
  }
  return out;
}

struct RequestCosts {
  std::uint64_t instruction = 0, kernel_counter = 0;
};

/// The model's cost (per instruction and kernel counter) of every request of the set.
std::map<std::string, RequestCosts> request_costs(const std::string& path) {
  const auto model = make_preset("sm90");
  std::map<std::string, RequestCosts> cost;
  TextTraceReader trace{InputFile(path)};
  TraceRecord rec;
  while (trace.next(rec)) {
    const auto c = model.cost(rec.request);
    REQUIRE(c.modelled);
    cost[trace.sites().name(rec.site)] = {c.wavefronts, model.kernel_counter_cost(rec.request).wavefronts};
  }
  return cost;
}

/// A site's form: its plan form (r2-L03-pred-s017-p2051: pred), or "single" for a one-instruction kernel.
std::string form_of(const std::string& site) {
  std::stringstream ss(site);
  std::string run, launch, form;
  std::getline(ss, run, '-');
  std::getline(ss, launch, '-');
  if (launch == "single") return launch;
  std::getline(ss, form, '-');
  return form;
}

struct FormCount {
  std::size_t sites = 0, equal = 0, disagree = 0;
};

/// Per form: sites, sites the model gets, sites where d0 + d1 and the merged degree differ.
std::map<std::string, FormCount> check_set() {
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/";
  auto cost = request_costs(root + "cases/lds64.trace");
  std::map<std::string, FormCount> forms;
  for (const auto& s : read_sites(root + "measured/lds64.csv")) {
    CAPTURE(s.name);
    std::uint64_t model_total = 0, kernel_total = 0;
    for (const auto& [q, runs] : s.requests) {
      REQUIRE(cost.count(q) == 1);
      model_total += cost[q].instruction * runs;
      kernel_total += cost[q].kernel_counter * runs;
    }
    CHECK(model_total == s.wavefronts);
    auto& f = forms[form_of(s.name)];
    ++f.sites;
    f.equal += model_total == s.wavefronts;
    f.disagree += model_total != kernel_total;
  }
  return forms;
}

}  // namespace

TEST_CASE("sm90 equals the H200 per instruction on the paired 8-byte load campaign (lds64), every form and shape") {
  std::size_t sites = 0, equal = 0, disagree = 0;
  for (const auto& [form, f] : check_set()) {
    sites += f.sites;
    equal += f.equal;
    disagree += f.disagree;
  }
  CHECK(sites == kLds64Sites);
  CHECK(equal == kLds64Sites);
  CHECK(disagree == kLds64Disagree);
}

TEST_CASE("README's campaign table holds the model's verdicts on the lds64 set, per SASS form") {
  const std::map<std::string, std::string> label = {
      {"single", "LDS.64 [R+UR], one per kernel"}, {"rur", "LDS.64 [R+UR], 256 back to back"},
      {"imm", "LDS.64 [R+UR+0x100]"},              {"reg", "LDS.64 [R] (shuffled address)"},
      {"pred", "@P LDS.64 [R+UR], per-site masks"}, {"loop", "LDS.64 [R+UR] in a loop"},
      {"dep", "LDS.64 [R], each after the last"},  {"u64", "LDS.64 [R+UR] of ld.shared.u64"},
      {"mix", "LDS.64 [R+UR] after a 4-byte LDS"}};
  std::ifstream in(BANKCHECK_SOURCE_DIR "/README.md");
  REQUIRE(in.good());
  std::stringstream readme;
  readme << in.rdbuf();
  const auto forms = check_set();
  CHECK(forms.size() == label.size());
  for (const auto& [form, f] : forms) {
    REQUIRE(label.count(form) == 1);
    const std::string row = "| lds64 | `" + label.at(form) + "` | " + std::to_string(f.sites) + " | " +
                            std::to_string(f.equal) + " | " + std::to_string(f.sites - f.equal) + " | 0 |";
    CAPTURE(row);
    CHECK(readme.str().find(row + "\n") != std::string::npos);
  }
}
