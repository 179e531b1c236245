#pragma once
// Helpers of the tests that check the sm90 rules on hand-counted warps and
// on the sets measured on the H100 (validate/sm90/measured/).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"

namespace bankcheck::test {

inline std::vector<std::uint64_t> lanes(std::uint64_t base, std::uint64_t stride, unsigned active = 32) {
  std::vector<std::uint64_t> a(32, kInactive);
  for (unsigned l = 0; l < active; ++l) a[l] = base + stride * l;
  return a;
}

/// A measured set's CSV (validate/sm90/measured/NAME.csv): its column header
/// (the first line that is not a comment), its rows as cells, and whether a
/// comment line says `# declined: WHY` (tests/support/measured_sets.hpp).
struct MeasuredCsv {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  bool declined = false;
};

inline MeasuredCsv read_measured_csv(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  MeasuredCsv csv;
  for (std::string line; std::getline(in, line);) {
    csv.declined = csv.declined || line.rfind("# declined:", 0) == 0;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (csv.columns.empty())
      csv.columns = std::move(cells);
    else
      csv.rows.push_back(std::move(cells));
  }
  return csv;
}

/// A measured set of validate/sm90/measured: site -> per-instruction wavefronts.
inline std::map<std::string, std::uint64_t> measured_wavefronts(const std::string& path) {
  std::map<std::string, std::uint64_t> measured;
  for (const auto& cells : read_measured_csv(path).rows) {
    REQUIRE(cells.size() >= 2);
    measured[cells[0]] = std::stoull(cells[1]);
  }
  return measured;
}

/// f(site, record) for each case of a set's trace (validate/sm90/cases/NAME.trace),
/// the site captured for the checks f makes.
template <class F>
void for_each_case(const std::string& trace_path, F f) {
  TextTraceReader trace((InputFile(trace_path)));
  TraceRecord rec;
  while (trace.next(rec)) {
    const std::string& site = trace.sites().name(rec.site);
    CAPTURE(site);
    f(site, rec);
  }
}

inline std::uint64_t wavefronts(Op op, unsigned width, const std::vector<std::uint64_t>& a) {
  const BankModel sm90 = make_preset("sm90");
  const RequestCost c = sm90.cost(WarpRequest{op, width, a});
  REQUIRE(c.modelled);
  CHECK(c.wavefronts == c.ideal + c.conflicts());
  return c.wavefronts;
}

/// Per-op counts of a measured set of copies with sources: every modelled
/// case must equal the H100; the rest must be of an op in `unmodelled_ops`.
struct CopySetCounts {
  std::size_t checked = 0;
  std::map<Op, std::size_t> equal, unmodelled;
};
inline CopySetCounts check_copy_set(const std::string& name,
                                    std::vector<Op> unmodelled_ops = {Op::cpasync_cg, Op::cpasync_cg_zfill}) {
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/";
  std::map<std::string, std::uint64_t> measured = measured_wavefronts(root + "measured/" + name + ".csv");
  const BankModel sm90 = make_preset("sm90");
  CopySetCounts n;
  for_each_case(root + "cases/" + name + ".trace", [&](const std::string& site, const TraceRecord& rec) {
    REQUIRE(measured.count(site) == 1);
    REQUIRE(rec.request.source.size() == 32);
    const RequestCost c = sm90.cost(rec.request);
    ++n.checked;
    if (!c.modelled) {
      CHECK(std::find(unmodelled_ops.begin(), unmodelled_ops.end(), rec.request.op) != unmodelled_ops.end());
      ++n.unmodelled[rec.request.op];
      return;
    }
    CHECK(c.wavefronts == measured[site]);
    n.equal[rec.request.op] += c.wavefronts == measured[site];
  });
  CHECK(n.checked == measured.size());
  return n;
}

}  // namespace bankcheck::test
