// Tests of model/sm90_copy_cost.hpp on the cp.async forms library kernels
// use (docs/bank-model.md, rule 6): the L2::128B hint (.LTC128B),
// lanes that fill zeros instead of reading (source `z`), and tiles copied by
// many warps in flight. The truth is the H100: validate/sm90/measured/
// {caltc,cgltc,zfill}.csv and validate/results/h100-2026-11-27/ldgsts/.
// (A second test file of the header: sm90_copy_cost_test.cpp is at the
// project's length limit.)
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <utility>

#include "capture/host/csv.hpp"
#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"
#include "tests/support/sm90_measured.hpp"

using namespace bankcheck;
using namespace bankcheck::test;

namespace {
const std::string kSm90 = BANKCHECK_SOURCE_DIR "/validate/sm90/";

/// site -> its twin without the hint, from the trace's comments (`twin NAME`).
std::map<std::string, std::string> twins(const std::string& trace) {
  std::map<std::string, std::string> out;
  std::ifstream in(trace);
  REQUIRE(in.good());
  const std::regex line(R"(^@(\S+) .*twin (\S+))");
  for (std::string s; std::getline(in, s);)
    if (std::smatch m; std::regex_search(s, m, line)) out[m[1]] = m[2];
  return out;
}
}  // namespace

TEST_CASE("the L2::128B hint changes nothing: every hinted probe measures what its plain twin measured") {
  // Hardware against hardware: the 100 .ca copies of cpasrc and the 209 .cg
  // copies of cpasrc and cgsrc, measured again with the hint.
  std::map<std::string, std::uint64_t> plain = measured_wavefronts(kSm90 + "measured/cpasrc.csv");
  for (const auto& [site, wf] : measured_wavefronts(kSm90 + "measured/cgsrc.csv")) plain[site] = wf;
  std::size_t compared = 0;
  for (const char* set : {"caltc", "cgltc"}) {
    const auto hinted = measured_wavefronts(kSm90 + "measured/" + set + ".csv");
    for (const auto& [site, twin] : twins(kSm90 + "cases/" + set + ".trace")) {
      CAPTURE(site);
      REQUIRE(hinted.count(site) == 1);
      REQUIRE(plain.count(twin) == 1);
      CHECK(hinted.at(site) == plain.at(twin));
      ++compared;
    }
  }
  CHECK(compared == 309);
}

TEST_CASE("hinted copies: every modelled case equals the H100, as its plain twin did") {
  const CopySetCounts ca = check_copy_set("caltc");
  CHECK(ca.checked == 100);
  CHECK(ca.equal.at(Op::cpasync) == 100);
  CHECK(ca.unmodelled.empty());
  const CopySetCounts cg = check_copy_set("cgltc");
  CHECK(cg.checked == 209);
  CHECK(cg.equal.at(Op::cpasync_cg) == 69);  // the 10 + 59 whole-sector copies of cpasrc and cgsrc (6b)
  CHECK(cg.unmodelled.at(Op::cpasync_cg) == 140);
}

TEST_CASE("zero-filling lanes read nothing: .ca stages, and the .cg zero-fill form writes them apart") {
  // validate/sm90/cases/zfill.trace: 13 patterns of some, all or no lanes
  // zero-filling, in 6 forms (.ca 4 and 16 bytes, .cg; with and without the
  // hint); the .cg copies' predicate operand is P1, so they are op
  // cpasync.cg (rule 6c). Not modelled, by brute force over the cases: the
  // two random .ca copies that mix both kinds of lane over conflicting
  // destinations, and the .cg copies whose reading lanes do not move whole
  // sectors (srclines, srclines-read2, rows64, rand, bcast-odd, even).
  const CopySetCounts n = check_copy_set("zfill", {Op::cpasync, Op::cpasync_cg});
  CHECK(n.checked == 78);
  CHECK(n.equal.at(Op::cpasync) == 50);
  CHECK(n.unmodelled.at(Op::cpasync) == 2);
  CHECK(n.equal.at(Op::cpasync_cg) == 16);
  CHECK(n.unmodelled.at(Op::cpasync_cg) == 10);
  // The rule on hand-counted warps: 16 lanes zero-filling into rows 0 and 1,
  // 16 reading one line per quarter into rows 2 and 3: two per (row, line)
  // pair of the reading lanes (2 x 2) and the zero-filling lanes as a 16-byte
  // store (2), measured 6 with the predicate in P1.
  std::vector<std::uint64_t> dst = lanes(0, 16), src(32);
  for (unsigned l = 0; l < 32; ++l) src[l] = l < 16 ? kZeroFill : 16 * l;
  const BankModel sm90 = make_preset("sm90");
  const RequestCost c = sm90.cost(WarpRequest{Op::cpasync_cg, 16, dst, src});
  REQUIRE(c.modelled);
  CHECK(c.wavefronts == 6);
  for (unsigned l = 0; l < 32; ++l) src[l] = kZeroFill;  // nothing read: the store alone
  CHECK(sm90.cost(WarpRequest{Op::cpasync_cg, 16, dst, src}).wavefronts == 4);
  // With the predicate in P0 the same copy costs as a 16-byte store of its
  // destinations, whichever lanes read: 4 (the campaign's rows-0044, 4).
  CHECK(sm90.cost(WarpRequest{Op::cpasync_cg_zfill, 16, dst, src}).wavefronts == 4);
}

TEST_CASE("GEMM-like tiles with many warps in flight: every copy site equals the H100 or is not modelled") {
  // validate/library/ldgsts_tiles.cu captured and profiled on the H100
  // (validate/results/h100-2026-11-27/ldgsts/): 12 launches of 264 blocks of
  // 8 warps, copies issued back to back over a 3-stage ring. The sample
  // holds the first 8 records of each (launch, site); a site costs the same
  // in every warp, so the sample's cost times ncu's executions must be ncu's
  // wavefronts. Rows whose executions differ (a copy predicated off in its
  // last iterations, which ncu counts as executed) are left to compare.
  const std::string dir = BANKCHECK_SOURCE_DIR "/validate/results/h100-2026-11-27/ldgsts/";
  std::map<std::pair<int, std::uint64_t>, std::vector<std::uint64_t>> costs;
  std::map<std::pair<int, std::uint64_t>, bool> modelled;
  const BankModel sm90 = make_preset("sm90");
  TextTraceReader sample(InputFile(dir + "ldgsts.sample.trace"));
  TraceRecord rec;
  while (sample.next(rec)) {
    REQUIRE(rec.location != nullptr);
    const std::string& site = sample.sites().name(rec.site);
    const auto key = std::make_pair(static_cast<int>(rec.location->launch),
                                    std::stoull(site.substr(site.rfind("+0x") + 3), nullptr, 16));
    const RequestCost c = sm90.cost(rec.request);
    modelled.emplace(key, c.modelled);
    CHECK(modelled.at(key) == c.modelled);
    costs[key].push_back(c.wavefronts);
  }
  std::ifstream in(dir + "ldgsts.compare.csv");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = capture::parse_csv_line(line);
  auto column = [&](const char* name) {
    const auto at = std::find(header.begin(), header.end(), name);
    REQUIRE_MESSAGE(at != header.end(), "ldgsts.compare.csv has no column " << name);
    return static_cast<std::size_t>(at - header.begin());
  };
  const std::size_t launch = column("launch"), offset = column("offset"), sass = column("sass"),
                    executed = column("executions"), model_executed = column("model_executions"),
                    wavefronts = column("measured_wavefronts");
  std::size_t compared = 0, equal = 0, unmodelled = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = capture::parse_csv_line(line);
    REQUIRE(f.size() == header.size());
    if (f[sass].find("LDGSTS") == std::string::npos) continue;
    const auto key = std::make_pair(std::stoi(f[launch]), std::stoull(f[offset]));
    const std::uint64_t executions = std::stoull(f[executed]), captured = std::stoull(f[model_executed]),
                        measured = std::stoull(f[wavefronts]);
    CAPTURE(line);
    if (executions != captured) continue;
    REQUIRE(costs.count(key) == 1);
    ++compared;
    if (!modelled.at(key)) {
      ++unmodelled;
      continue;
    }
    const std::vector<std::uint64_t>& c = costs.at(key);
    CHECK(std::count(c.begin(), c.end(), c.front()) == static_cast<long>(c.size()));
    CHECK(c.front() * executions == measured);
    equal += c.front() * executions == measured;
  }
  CHECK(compared == 68);  // of 84 copy rows: 16 differ in executions (the predicated-off last iterations)
  CHECK(equal == 68);     // rows straddling two lines included: rule 6b's (row, line) pairs, 6 per warp
  CHECK(unmodelled == 0);
}
