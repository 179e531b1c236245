// Tests of model/sm90_phases.hpp on the 8-byte load sets measured on the H100
// (docs/bank-model.md, rule 3): per instruction and in the kernel-level
// counters, through BankModel, which costs sm90 requests with these rules.
#include "model/sm90_phases.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

using namespace bankcheck;

TEST_CASE("sm90 equals the H100's per-instruction and kernel-level counts on the 8-byte load sets") {
  // ld8mix, ld8cap and ld8pair (lanes sharing addresses in pairs and quads,
  // as library kernels issue them; predictions committed first) were read both per instruction (SourceCounters: what
  // cost() reproduces) and from the kernel-level counters
  // (kernel_counter_cost()); the two differ for paired 8-byte loads with a
  // conflict (docs/bank-model.md, rule 3).
  struct Row {
    std::string site;
    std::uint64_t wavefronts, kernel_wavefronts, kernel_conflicts;
  };
  const auto model = make_preset("sm90");
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/";
  for (const auto& [set, cases, differing] :
       {std::tuple{"ld8mix", 223, 6}, std::tuple{"ld8cap", 40, 40}, std::tuple{"ld8pair", 90, 30}}) {
    CAPTURE(set);
    std::vector<Row> rows;
    std::ifstream in(root + "measured/" + set + ".csv");
    REQUIRE(in.good());
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#' || line.rfind("site,", 0) == 0) continue;
      std::stringstream ss(line);
      Row r;
      std::string a, b, c;
      std::getline(ss, r.site, ',');
      std::getline(ss, a, ',');
      std::getline(ss, b, ',');
      std::getline(ss, c, ',');
      r.wavefronts = std::stoull(a);
      r.kernel_wavefronts = std::stoull(b);
      r.kernel_conflicts = std::stoull(c);
      rows.push_back(r);
    }
    TextTraceReader trace(InputFile(root + "cases/" + set + ".trace"));
    TraceRecord rec;
    std::size_t i = 0, mismatches = 0, counters_differ = 0;
    while (trace.next(rec)) {
      REQUIRE(i < rows.size());
      const Row& m = rows[i++];
      REQUIRE(trace.sites().name(rec.site) == m.site);
      const auto c = model.cost(rec.request);
      const auto k = model.kernel_counter_cost(rec.request);
      counters_differ += m.wavefronts != m.kernel_wavefronts;
      if ((c.wavefronts != m.wavefronts || k.wavefronts != m.kernel_wavefronts ||
           k.conflicts != m.kernel_conflicts) &&
          ++mismatches <= 5)
        FAIL_CHECK(m.site << ": model " << c.wavefronts << " per instruction, " << k.wavefronts << "/" << k.conflicts
                          << " kernel; H100 " << m.wavefronts << ", " << m.kernel_wavefronts << "/"
                          << m.kernel_conflicts);
    }
    CHECK(i == static_cast<std::size_t>(cases));
    CHECK(i == rows.size());
    CHECK(mismatches == 0);
    CHECK(counters_differ == static_cast<std::size_t>(differing));
  }
}


TEST_CASE("sm90 equals the H100 per instruction on 8-byte loads whose half warps differ in degree (ld8split)") {
  // validate/sm90/cases/ld8split.trace: lanes sharing addresses in pairs and
  // quads, the two half warps of different degrees;
  // predictions committed before the measurement, 36 of 36 held.
  const auto model = make_preset("sm90");
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/";
  std::map<std::string, std::uint64_t> measured;
  std::ifstream in(root + "measured/ld8split.csv");
  REQUIRE(in.good());
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("site,", 0) == 0) continue;
    const auto comma = line.find(',');
    measured[line.substr(0, comma)] = std::stoull(line.substr(comma + 1));
  }
  REQUIRE(measured.size() == 36);
  TextTraceReader trace(InputFile(root + "cases/ld8split.trace"));
  TraceRecord rec;
  std::size_t compared = 0;
  while (trace.next(rec)) {
    const std::string& site = trace.sites().name(rec.site);
    CAPTURE(site);
    REQUIRE(measured.count(site) == 1);
    CHECK(model.cost(rec.request).wavefronts == measured.at(site));
    ++compared;
  }
  CHECK(compared == 36);
}
