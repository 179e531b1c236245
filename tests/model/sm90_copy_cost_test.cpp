// Tests of model/sm90_copy_cost.hpp: the cp.async rules (docs/bank-model.md,
// rule 6) on hand-counted warps and on every copy measured on the H100
// (validate/sm90/cases/*.trace against validate/sm90/measured/*.csv).
#include "model/sm90_copy_cost.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capture/host/csv.hpp"
#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"
#include "tests/support/sm90_measured.hpp"
#include "tests/support/copy_lanes.hpp"

using namespace bankcheck;
using namespace bankcheck::test;

TEST_CASE("cp.async without sources: a store of its width; .cg is rule 6b with the source in lane order") {
  CHECK(wavefronts(Op::cpasync, 4, lanes(0, 128)) == 32);
  CHECK(wavefronts(Op::cpasync, 16, lanes(0, 16)) == 4);
  CHECK(wavefronts(Op::cpasync, 16, lanes(0, 32)) == 8);      // 2-way in each quarter warp
  CHECK(wavefronts(Op::cpasync_cg, 16, lanes(0, 16)) == 4);   // conflict-free: one per row
  // Measured 32 (cpasrc.trace, cpasync-cg.16-stride2), but rule 6b does not
  // cover a sector split over two sectors: not modelled, never a guess.
  const BankModel sm90 = make_preset("sm90");
  CHECK_FALSE(sm90.cost(WarpRequest{Op::cpasync_cg, 16, lanes(0, 32)}).modelled);
  // A row rotated by 16 bytes measured 2 (cgsrc.trace, cgsrc-8-dst-rot1):
  // the destination-only rule (1 for a conflict-free phase) was refuted here.
  std::vector<std::uint64_t> rot1(32, kInactive);
  for (unsigned l = 0; l < 8; ++l) rot1[l] = 16 * ((l + 1) % 8);
  CHECK_FALSE(sm90.cost(WarpRequest{Op::cpasync_cg, 16, rot1}).modelled);
}



TEST_CASE("cp.async with its sources equals the H100 on every measured case, or says it is not modelled") {
  // validate/sm90/cases/cpasrc.trace: 132 single-instruction copies whose
  // destination and global source vary independently (rule 6). Every .ca
  // case is costed and equal; a .cg case is costed (and equal) when the
  // copy moves whole sectors (6b), and otherwise reported as not modelled.
  const CopySetCounts n = check_copy_set("cpasrc");
  CHECK(n.checked == 132);
  CHECK(n.equal.at(Op::cpasync) == 100);
  CHECK(n.equal.at(Op::cpasync_cg) == 10);  // counts by brute force over the cases' sectors (docs/bank-model.md, 6b)
  CHECK(n.unmodelled.at(Op::cpasync_cg) == 22);
}

TEST_CASE("cp.async.cg: sources and destinations in 16-byte chunks, 2 to 32 lanes (rule 6b)") {
  // validate/sm90/cases/cgsrc.trace: 177 copies whose lanes read and write
  // permuted, shifted, split and duplicated 16-byte chunks.
  const CopySetCounts n = check_copy_set("cgsrc");
  CHECK(n.checked == 177);
  CHECK(n.equal.at(Op::cpasync_cg) == 59);
  CHECK(n.unmodelled.at(Op::cpasync_cg) == 118);
}

TEST_CASE("cp.async.cg: source lines 128 to 4096 bytes apart, and sources already in L2, cost the same") {
  // validate/sm90/cases/cgline.trace: the cgsrc patterns of two to eight
  // source lines with the lines' spacing varied; cgwarm.trace: some of them
  // with the sources read into L2 just before. Every modelled case equals
  // the H100, and the measured counts do not depend on spacing or L2.
  const CopySetCounts line = check_copy_set("cgline");
  CHECK(line.checked == 72);
  CHECK(line.equal.at(Op::cpasync_cg) == 54);  // whole sectors, two or more lines per row: a wavefront per (row, line)
  CHECK(line.unmodelled.at(Op::cpasync_cg) == 18);
  const CopySetCounts warm = check_copy_set("cgwarm");
  CHECK(warm.checked == 32);
  CHECK(warm.equal.at(Op::cpasync_cg) == 22);
  CHECK(warm.unmodelled.at(Op::cpasync_cg) == 10);
  // The H100 itself: a pattern costs the same at every spacing, and with its
  // sources in L2 as without (sites are KIND-SPACING-PATTERN).
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/measured/";
  const auto cold = measured_wavefronts(root + "cgline.csv"), hot = measured_wavefronts(root + "cgwarm.csv");
  std::map<std::string, std::uint64_t> by_pattern;
  for (const auto& [site, wavefronts] : cold) {
    const std::string pattern = site.substr(site.find('-', site.find('-') + 1) + 1);
    CAPTURE(site);
    CHECK(by_pattern.emplace(pattern, wavefronts).first->second == wavefronts);
  }
  CHECK(by_pattern.size() == 12);
  std::size_t compared = 0;
  for (const auto& [site, wavefronts] : hot) {
    const std::string pattern = site.substr(site.find('-', site.find('-') + 1) + 1);
    if (!by_pattern.count(pattern)) continue;  // the one-line patterns cgwarm adds
    CAPTURE(site);
    CHECK(by_pattern.at(pattern) == wavefronts);
    ++compared;
  }
  CHECK(compared == 24);
}

TEST_CASE("cp.async.cg with the predicate operand P0 costs as a 16-byte store of its destinations (rule 6c)") {
  // validate/sm90/cases/cgforms.trace: the cgline patterns in the two forms
  // Triton emits (a run-time source size, an ignore-src predicate), in pairs
  // of copies, and with the sources in L2: 64 copies whose SASS carries the
  // predicate operand P0, and 16 plain copies (the pairs' plain twin). The
  // 48 whose quarter warps read two or eight lines cost one per quarter warp
  // too: the destinations decide, not the sources.
  const CopySetCounts n = check_copy_set("cgforms");
  CHECK(n.checked == 80);
  CHECK(n.equal.at(Op::cpasync_cg_zfill) == 64);
  CHECK(n.unmodelled.count(Op::cpasync_cg_zfill) == 0);
  CHECK(n.equal.at(Op::cpasync_cg) + n.unmodelled.at(Op::cpasync_cg) == 16);
}

namespace zero_lanes {

/// A warp of .cg copies built quarter by quarter: each lane a (row, slot,
/// line) with line -1 for a zero-filling lane; rows of 128 bytes, slots of 16,
/// the source at the same offset in its line as the lane writes in its row.
struct Lane {
  unsigned row, slot;
  int line;
  unsigned shift = 0;  ///< sectors the source sits further on in its line than the lane writes in its row
};

RequestCost cost(const std::vector<std::vector<Lane>>& quarters) {
  std::vector<std::vector<test::CopyLane>> lanes(quarters.size());
  for (std::size_t q = 0; q < quarters.size(); ++q)
    for (const Lane& l : quarters[q]) lanes[q].push_back({l.row, l.slot, l.line, (l.slot + 2 * l.shift) % 8});
  return make_preset("sm90").cost(test::copy_warp(lanes).request());
}

/// Quarter q of four alike: its readers in row 4q from line 4q (slots 0-3),
/// its zero-filling lanes in `zero_row(q)` at `zero_slots`.
template <class ZeroRow>
std::vector<std::vector<Lane>> four(ZeroRow zero_row, std::vector<unsigned> zero_slots) {
  std::vector<std::vector<Lane>> quarters(4);
  for (unsigned q = 0; q < 4; ++q) {
    for (unsigned s = 0; s < 4; ++s) quarters[q].push_back({4 * q, s, static_cast<int>(4 * q)});
    for (unsigned s : zero_slots) quarters[q].push_back({zero_row(q), s, -1});
  }
  return quarters;
}

}  // namespace zero_lanes

TEST_CASE("cp.async.cg with zero-filling lanes: per quarter its (row, line) pairs plus a store of all its lanes") {
  using zero_lanes::four;
  using zero_lanes::Lane;
  // Counts by hand from docs/bank-model.md, rule 6b (each shape measured on the H200 in
  // validate/sm90/cases/cpasync4.trace to cpasync6.trace): per quarter its pairs, plus the
  // 16-byte store's degree over all 8 lanes (the most distinct destinations on one bank quad).
  // Zero-filling lanes in the readers' row: 1 + 1 per quarter.
  CHECK(zero_lanes::cost(four([](unsigned q) { return 4 * q; }, {4, 5, 6, 7})).wavefronts == 8);
  // In another row on the readers' quads: the store is 2-way, 1 + 2 (cpasync4's 12 where the
  // earlier reading, two per pair less one, gave 8).
  CHECK(zero_lanes::cost(four([](unsigned q) { return 4 * q + 1; }, {0, 1, 2, 3})).wavefronts == 12);
  // In another row off the readers' quads: 1 + 1.
  CHECK(zero_lanes::cost(four([](unsigned q) { return 4 * q + 1; }, {4, 5, 6, 7})).wavefronts == 8);
  // Two rows read, each from its own line (slots 0-1 of row 4q, slots 2-3 of row 4q+1 on other
  // quads), zeros in a third row's slots 4-7: 2 + 1 per quarter.
  std::vector<std::vector<Lane>> two_rows(4);
  for (unsigned q = 0; q < 4; ++q) {
    for (unsigned s = 0; s < 4; ++s) two_rows[q].push_back({4 * q + s / 2, s, static_cast<int>(4 * q + s / 2)});
    for (unsigned s = 4; s < 8; ++s) two_rows[q].push_back({4 * q + 2, s, -1});
  }
  CHECK(zero_lanes::cost(two_rows).wavefronts == 12);
  // A reading-only quarter beside them (row 30 from line 40, 8 lanes): 1 + 1; a zero-only one
  // writing rows 31 and 29 on the same quads: 0 + 2.
  std::vector<std::vector<Lane>> mixed_kinds = two_rows;
  mixed_kinds[2].clear();
  for (unsigned s = 0; s < 8; ++s) mixed_kinds[2].push_back({30, s, 40});
  mixed_kinds[3].clear();
  for (unsigned s = 0; s < 8; ++s) mixed_kinds[3].push_back({s < 4 ? 31u : 29u, s % 4, -1});
  CHECK(zero_lanes::cost(mixed_kinds).wavefronts == 3 + 3 + 2 + 2);
  // One row filled from two lines (slots 0-1 and 2-3), zeros in its other slots: 2 + 1 per quarter
  // (cpasync6.trace; cpasync7.trace's four equal quarters measured 12).
  std::vector<std::vector<Lane>> two_lines = four([](unsigned q) { return 4 * q; }, {4, 5, 6, 7});
  for (unsigned q = 0; q < 4; ++q) two_lines[q][2].line = two_lines[q][3].line = static_cast<int>(4 * q + 1);
  CHECK(zero_lanes::cost(two_lines).wavefronts == 12);
  // The same with the second line's sources two sectors further on in it: 2 + 1 per quarter
  // (validate/sm90/cases/cpasync9.trace and cpasync10.trace, 160 + 160 such copies, all equal).
  std::vector<std::vector<Lane>> shifted = two_lines;
  for (unsigned q = 0; q < 4; ++q) shifted[q][2].shift = shifted[q][3].shift = 2;
  CHECK(zero_lanes::cost(shifted).wavefronts == 12);
  // One row written by two quarters (quarter 1's zero-filling lane in quarter 0's row): 1 + 1 each
  // (cpasync9 and cpasync10, 302 such copies, all equal).
  std::vector<std::vector<Lane>> shared_row = four([](unsigned q) { return 4 * q + 1; }, {4, 5, 6, 7});
  shared_row[1][7] = {0, 7, -1};
  CHECK(zero_lanes::cost(shared_row).wavefronts == 8);
  // Two lines read at one place into one row (the second line shifted onto the first's sector):
  // 2 pairs + 1 for the place + a store of the zero-filling lanes and those reads, 1, per quarter
  // (cpasync2's such copy measured 16; runs 11 and 12, validate/sm90/cases/cpasync11.trace and
  // cpasync12.trace).
  std::vector<std::vector<Lane>> colliding = two_lines;
  for (unsigned q = 0; q < 4; ++q) colliding[q][2].shift = colliding[q][3].shift = 3;
  CHECK(zero_lanes::cost(colliding).wavefronts == 16);
  // Beside them a third sector read at its own place, and two zero-filling lanes in another row on
  // that sector's quads: they pile up with it in a store of all lanes (2), but the store counts
  // only the zero-filling lanes and the colliding reads: 3 pairs + 1 + 1 per quarter.
  std::vector<std::vector<Lane>> beside(4);
  for (unsigned q = 0; q < 4; ++q) {
    const int a = static_cast<int>(4 * q), b = a + 1, c = a + 2;
    beside[q] = {{4 * q, 0, a}, {4 * q, 1, a}, {4 * q, 2, b, 3}, {4 * q, 3, b, 3},
                 {4 * q, 4, c}, {4 * q, 5, c}, {4 * q + 1, 4, -1}, {4 * q + 1, 5, -1}};
  }
  CHECK(zero_lanes::cost(beside).wavefronts == 4 * 5);
}

TEST_CASE("cp.async.cg with zero-filling lanes: the sub-cases no reading fits are not modelled") {
  using zero_lanes::four;
  using zero_lanes::Lane;
  // Not modelled, never a guess: a row read from two lines at one place beside another row's read at
  // that place, and two such groups beside a zero-filling lane (runs 15 and 16: no reading fits); a
  // zero-filling lane on a reader's destination, within a quarter or across quarters (cpasync7's
  // two such copies cost one more).
  std::vector<std::vector<Lane>> beside_place = four([](unsigned q) { return 4 * q + 1; }, {4, 5, 6, 7});
  for (unsigned q = 0; q < 4; ++q) beside_place[q][2].line = beside_place[q][3].line = static_cast<int>(8 * q + 1);
  for (unsigned q = 0; q < 4; ++q) beside_place[q][2].shift = beside_place[q][3].shift = 3;  // lines 8q, 8q+1 at place 0
  beside_place[0][4] = {2, 0, 2};  // row 2 reads line 2 at place 0 too
  beside_place[0][5] = {2, 1, 2};
  CHECK_FALSE(zero_lanes::cost(beside_place).modelled);
  beside_place[0][4] = {2, 2, 2};  // at place 1 instead: measured shapes, costed
  beside_place[0][5] = {2, 3, 2};
  CHECK(zero_lanes::cost(beside_place).modelled);
  std::vector<std::vector<Lane>> groups_and_zero(4);
  for (unsigned q = 0; q < 4; ++q) {  // rows 4q and 4q+1 each from two lines at place 0, one lane each in their second sector
    const int a = static_cast<int>(8 * q);
    groups_and_zero[q] = {{4 * q, 0, a},         {4 * q, 1, a},     {4 * q, 2, a + 1, 3},     {4 * q + 1, 0, a + 2},
                          {4 * q + 1, 1, a + 2}, {4 * q + 1, 2, a + 3, 3}, {4 * q + 2, 0, -1}, {4 * q + 2, 1, -1}};
  }
  CHECK_FALSE(zero_lanes::cost(groups_and_zero).modelled);
  std::vector<std::vector<Lane>> across = four([](unsigned q) { return 4 * q + 1; }, {4, 5, 6, 7});
  across[1][7] = {0, 3, -1};  // quarter 1's zero-filling lane on quarter 0's reader of slot 3
  CHECK_FALSE(zero_lanes::cost(across).modelled);
  std::vector<std::vector<Lane>> same_destination = four([](unsigned q) { return 4 * q; }, {4, 5, 6});
  same_destination[2].push_back({8, 0, -1});
  CHECK_FALSE(zero_lanes::cost(same_destination).modelled);
}

TEST_CASE("cp.async.ca in the source-size form costs as the plain form: rule 6's stages") {
  // validate/sm90/cases/casrcsize.trace: cpasrc's 100 .ca copies compiled
  // with a run-time source size (LDGSTS.E... with a predicate operand), so
  // capture leaves them `cpasync`; every one equals the H100.
  const CopySetCounts n = check_copy_set("casrcsize");
  CHECK(n.checked == 100);
  CHECK(n.equal.at(Op::cpasync) == 100);
  CHECK(n.unmodelled.empty());
}

TEST_CASE("Triton's first-stage copies (predicate operand P0) cost 4 per warp, as measured in the kernel") {
  // Records captured from Triton's matmul on the H100 (validate/results/
  // h100-2026-11-26/triton-matmul/ldgsts.sample.trace): 8 source lines, 4
  // swizzled rows, each quarter warp reading two 64-byte half lines, SASS
  // `LDGSTS.E.BYPASS.128 desc[UR12][R4.64], P0, [R33]`. ncu: 4096 wavefronts
  // in 1024 executions, 4 per warp (triton.matmul.compare.csv), the store
  // cost of the swizzled destinations. (The same kernel's `..., P4` copies of
  // the other halves measure 8, one per (row, line): rule 6b.)
  const BankModel sm90 = make_preset("sm90");
  TextTraceReader trace(InputFile(BANKCHECK_SOURCE_DIR "/validate/results/h100-2026-11-26/triton-matmul/ldgsts.sample.trace"));
  TraceRecord rec;
  std::size_t checked = 0;
  while (trace.next(rec)) {
    const std::string& site = trace.sites().name(rec.site);
    if (site != "matmul_kernel+0x2c0" && site != "matmul_kernel+0x2f0") continue;
    CAPTURE(site);
    REQUIRE(rec.request.op == Op::cpasync_cg_zfill);
    const RequestCost c = sm90.cost(rec.request);
    REQUIRE(c.modelled);
    CHECK(c.wavefronts == 4);
    ++checked;
  }
  CHECK(checked == 8);
}

TEST_CASE("cp.async sources: the read stage has no multicast, and the two stages overlap") {
  std::vector<std::uint64_t> dst(32), same(32, 0), rows(32), kway(32);
  for (unsigned l = 0; l < 32; ++l) {
    dst[l] = 4 * l;
    rows[l] = (l / 4) * 256 + (l % 4) * 4;  // 8 lanes on each of source banks 0..3
    kway[l] = (l % 4) * 128 + (l / 4) * 4;  // 4 lanes on each of destination banks 0..7
  }
  const BankModel sm90 = make_preset("sm90");
  auto copy = [&](Op op, unsigned width, const std::vector<std::uint64_t>& d, const std::vector<std::uint64_t>& s) {
    return sm90.cost(WarpRequest{op, width, d, s});
  };
  CHECK(copy(Op::cpasync, 4, dst, dst).wavefronts == 1);
  CHECK(copy(Op::cpasync, 4, dst, same).wavefronts == 32);  // one source word, read lane by lane
  CHECK(copy(Op::cpasync, 4, dst, rows).wavefronts == 8);   // the source banks alone
  CHECK(copy(Op::cpasync, 4, kway, dst).wavefronts == 4);   // the destination banks alone
  CHECK(copy(Op::cpasync, 4, kway, rows).wavefronts == 11);  // both: neither 8 (the larger) nor 12 (the sum)
  CHECK(copy(Op::cpasync, 4, dst, std::vector<std::uint64_t>{}).wavefronts == 1);  // no source: a store
  std::vector<std::uint64_t> d16(32), s16(32), late(32), kway4(32), inter4(32);
  for (unsigned l = 0; l < 32; ++l) {
    d16[l] = s16[l] = 16 * l;
    late[l] = 16 * l + 16;
    kway4[l] = (l % 4) * 128 + (l / 4) * 16;   // 4-way bank conflicts in every quarter warp
    inter4[l] = (l % 4) * 256 + (l / 4) * 16;  // the same shape in four source lines
  }
  // Rule 6b: one wavefront per (source line, shared row) when whole sectors move.
  CHECK(copy(Op::cpasync_cg, 16, d16, s16).wavefronts == 4);        // 4 lines into 4 rows
  CHECK(copy(Op::cpasync_cg, 16, kway4, inter4).wavefronts == 4);   // measured 4: line 2j fills row j
  CHECK_FALSE(copy(Op::cpasync_cg, 16, kway4, s16).modelled);       // measured 32: a sector split over rows
  CHECK_FALSE(copy(Op::cpasync_cg, 16, d16, late).modelled);        // measured 12: sectors shifted by 16 bytes
  CHECK_FALSE(copy(Op::cpasync_cg, 16, kway4, std::vector<std::uint64_t>{}).modelled);  // no source: 6b in lane order
}

namespace {
/// Nsight Compute's per-instruction wavefronts and ideal of each probe's
/// target instruction in a run's export (validate/results/.../*.instructions.csv).
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> measured_ideal(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::string line;
  std::getline(in, line);
  const auto header = capture::parse_csv_line(line);  // the exports quote kernel names with commas
  auto column = [&](const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    REQUIRE_MESSAGE(at != header.end(), path << " has no column " << name);
    return static_cast<std::size_t>(at - header.begin());
  };
  const std::size_t name = column("name"), wf = column("wavefronts"), ideal = column("wavefronts_ideal"),
                    target = column("target");
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  while (std::getline(in, line)) {
    const auto f = capture::parse_csv_line(line);
    if (f.size() == header.size() && f[target] == "1") out[f[name]] = {std::stoull(f[wf]), std::stoull(f[ideal])};
  }
  return out;
}
}  // namespace

TEST_CASE("copies: the ideal is Nsight Compute's measured ideal on every modelled .cg case") {
  // The probe runs' exports record ncu's "L1 Wavefronts Shared Ideal" next to
  // the wavefronts. A .cg copy's ideal is the fewest wavefronts that carry
  // its bytes, ceil(16 x lanes / 128), not one per quarter warp with lanes:
  // 16 lanes on every other lane (cpasync-cg.16-mask-even, four rows,
  // measured 4) have the ideal 2, so 2 of the 4 are conflicts.
  const std::string results = BANKCHECK_SOURCE_DIR "/validate/results/";
  const std::vector<std::pair<std::string, std::string>> sets = {
      {"cpasrc", "h100-2026-11-23b/cpasync-probes/cpasync"}, {"cgsrc", "h100-2026-11-23c/cgsrc-probes/cgsrc"},
      {"cgline", "h100-2026-11-26/cg-probes/cgline"},        {"cgwarm", "h100-2026-11-26/cg-probes/cgwarm"},
      {"cgforms", "h100-2026-11-26/cg-probes/cgforms"},      {"casrcsize", "h100-2026-11-26/cg-probes/casrcsize"}};
  const BankModel sm90 = make_preset("sm90");
  std::map<Op, std::size_t> compared;
  std::vector<std::string> ca_differs;
  std::size_t spread = 0;  // .cg lanes in more quarter warps than their bytes need
  for (const auto& [cases, run] : sets) {
    const auto measured = measured_ideal(results + run + ".instructions.csv");
    TextTraceReader trace(InputFile(BANKCHECK_SOURCE_DIR "/validate/sm90/cases/" + cases + ".trace"));
    TraceRecord rec;
    while (trace.next(rec)) {
      const std::string& site = trace.sites().name(rec.site);
      CAPTURE(site);
      REQUIRE(measured.count(site) == 1);
      const RequestCost c = sm90.cost(rec.request);
      if (!c.modelled) continue;
      CHECK(c.wavefronts == measured.at(site).first);
      ++compared[rec.request.op];
      if (rec.request.op == Op::cpasync) {  // .ca: one per store phase with lanes (below)
        if (c.ideal != measured.at(site).second) ca_differs.push_back(site);
        continue;
      }
      CHECK(c.ideal == measured.at(site).second);
      unsigned lanes = 0, quarters = 0;
      for (unsigned q = 0; q < 32; q += 8) {
        unsigned in_quarter = 0;
        for (unsigned l = q; l < q + 8; ++l) in_quarter += rec.request.addr[l] != kInactive;
        lanes += in_quarter;
        quarters += in_quarter > 0;
      }
      spread += rec.request.op == Op::cpasync_cg && quarters > (lanes + 7) / 8;
    }
  }
  CHECK(compared[Op::cpasync_cg] == 156);
  CHECK(compared[Op::cpasync_cg_zfill] == 64);  // all of cgforms: a 16-byte store's cost and ideal (rule 6c)
  CHECK(spread == 1);  // cpasync-cg.16-mask-even: the quarter-warp count said 4
  // The .ca copies keep the ideal of their store phases (one per phase with
  // a lane), which ncu's differs from only where lanes are spread over more
  // phases than their bytes need: every other lane of an 8- or 16-byte copy
  // (docs/bank-model.md, rule 6).
  CHECK(compared[Op::cpasync] == 200);
  std::sort(ca_differs.begin(), ca_differs.end());
  CHECK(ca_differs.size() == 12);
  for (const std::string& site : ca_differs) {
    CAPTURE(site);
    CHECK((site.find("ca.8-mask-even") != std::string::npos || site.find("ca.16-mask-even") != std::string::npos));
  }
}

