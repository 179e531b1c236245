// The sm90 rules of the access kinds beyond plain loads and stores
// (docs/bank-model.md, rules 4-6): hand-counted warps, and every
// single-instruction case measured on the H100 (validate/sm90/cases/
// kinds.trace against the per-instruction counts in measured/kinds.csv).
// And the scalar degree passes, and one-phase models' costs, equal to the
// conflict degree as model/conflict_degree.hpp defines it.
#include "model/phase_rules.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/conflict_degree.hpp"

#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"
#include "tests/support/sm90_measured.hpp"

using namespace bankcheck;
using namespace bankcheck::test;

TEST_CASE("atomics: every lane is its own pass of its banks, CAS twice") {
  // 32 lanes on one word: 32 passes (no multicast), 64 for CAS.
  CHECK(wavefronts(Op::atom, 4, lanes(0, 0)) == 32);
  CHECK(wavefronts(Op::atom_cas, 4, lanes(0, 0)) == 64);
  // one word per lane, one lane per bank: 1 (CAS 2).
  CHECK(wavefronts(Op::atom, 4, lanes(0, 4)) == 1);
  CHECK(wavefronts(Op::atom_cas, 4, lanes(0, 4)) == 2);
  // lanes l and l+16 on one word: 2 per bank.
  std::vector<std::uint64_t> dup(32);
  for (unsigned l = 0; l < 32; ++l) dup[l] = 4 * (l % 16);
  CHECK(wavefronts(Op::atom, 4, dup) == 2);
  // the popc increment combines lanes of one address like a store: 1.
  CHECK(wavefronts(Op::atom_popc, 4, lanes(0, 0)) == 1);
  CHECK(wavefronts(Op::atom_popc, 4, dup) == 1);
  // 8 bytes: half-warp phases; 16 lanes on one doubleword per phase: 16 + 16.
  CHECK(wavefronts(Op::atom, 8, lanes(0, 0)) == 32);
  CHECK(wavefronts(Op::atom, 8, lanes(0, 8)) == 2);
}

TEST_CASE("ldmatrix/stmatrix: one phase per matrix of eight 16-byte rows") {
  // rows 128 bytes apart: each matrix's 8 rows in banks 0-3: 8 per matrix, 4 matrices.
  std::vector<std::uint64_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = 128 * (l % 8) + 16 * (l / 8);
  CHECK(wavefronts(Op::ldsm, 16, a) == 32);
  CHECK(wavefronts(Op::stsm, 16, a) == 32);
  // contiguous rows: 1 per matrix; .x1 (lanes 0-7 only): 1.
  CHECK(wavefronts(Op::ldsm, 16, lanes(0, 16)) == 4);
  CHECK(wavefronts(Op::ldsm, 16, lanes(0, 16, 8)) == 1);
  // one row address for a whole matrix: 1 per matrix, no pairing across matrices.
  std::vector<std::uint64_t> row(32);
  for (unsigned l = 0; l < 32; ++l) row[l] = 16 * (l / 8);
  CHECK(wavefronts(Op::ldsm, 16, row) == 4);
}

TEST_CASE("sm90 equals the H100's per-instruction wavefronts on every single-instruction kind case") {
  const std::string root = BANKCHECK_SOURCE_DIR "/validate/sm90/";
  std::map<std::string, std::uint64_t> measured = measured_wavefronts(root + "measured/kinds.csv");
  const BankModel sm90 = make_preset("sm90");
  TextTraceReader trace(InputFile(root + "cases/kinds.trace"));
  TraceRecord rec;
  std::size_t checked = 0, mismatches = 0;
  std::map<Op, std::size_t> per_op;
  std::size_t cg_unmodelled = 0;
  while (trace.next(rec)) {
    const std::string& site = trace.sites().name(rec.site);
    REQUIRE(measured.count(site) == 1);
    const RequestCost c = sm90.cost(rec.request);
    ++checked;
    ++per_op[rec.request.op];
    // These .cg cases carry no sources: rule 6b decides with the source in
    // lane order, and says "not modelled" where the sectors do not move whole.
    if (!c.modelled && rec.request.op == Op::cpasync_cg) {
      ++cg_unmodelled;
      continue;
    }
    if ((!c.modelled || c.wavefronts != measured[site]) && ++mismatches <= 5)
      FAIL_CHECK(site << ": model " << c.wavefronts << ", H100 " << measured[site]);
  }
  CHECK(checked == measured.size());
  CHECK(checked == 207);
  CHECK(mismatches == 0);
  CHECK(cg_unmodelled == 5);  // kway4, kway8, kway32, stride2, mask-even-kway32
  CHECK(per_op[Op::atom_cas] > 0);
  CHECK(per_op[Op::atom_popc] > 0);
  CHECK(per_op[Op::cpasync_cg] > 0);
}

namespace {

/// Requests of `lanes` lanes of `width` bytes (multiples of it), drawn from
/// `rng`: random words in small and large windows (multicast and not),
/// strides, partial warps, all idle.
std::vector<std::vector<std::uint64_t>> degree_requests(unsigned lanes, unsigned width, std::mt19937_64& rng) {
  std::vector<std::vector<std::uint64_t>> out;
  auto make = [&](auto&& addr_of) {
    std::vector<std::uint64_t> a(lanes);
    for (unsigned l = 0; l < lanes; ++l) a[l] = addr_of(l);
    out.push_back(a);
  };
  for (std::uint64_t window : {2u, 9u, 70u, 5000u})
    for (int rep = 0; rep < 12; ++rep) make([&](unsigned) { return (rng() % window) * width; });
  for (std::uint64_t stride : {0u, 1u, 2u, 3u, 7u, 16u, 32u, 33u, 64u, 65u, 128u})
    make([&](unsigned l) { return (40 + stride * l) * width; });
  for (int rep = 0; rep < 12; ++rep) {
    const std::uint64_t mask = rng();
    make([&](unsigned l) { return (mask >> (l % 64)) & 1 ? (rng() % 300) * width : kInactive; });
  }
  make([&](unsigned) { return kInactive; });
  return out;
}

}  // namespace

TEST_CASE("the scalar degree passes equal the definition on every geometry they serve") {
  std::mt19937_64 rng(20261202);
  unsigned compared = 0;
  for (unsigned banks : {1u, 2u, 3u, 7u, 16u, 32u, 33u, 64u})
    for (unsigned bank_bytes : {0u, 1u, 2u, 4u, 8u})  // 0: the DMM, one element per cell
      for (unsigned rows : {1u, 2u, 3u})
        for (unsigned lanes : {1u, 7u, 32u, 33u, 64u})
          for (unsigned width : {1u, 2u, 4u, 8u, 16u}) {
            if (bank_bytes != 0 && width > bank_bytes) continue;  // one cell per lane
            const BankGeometry g{banks, bank_bytes, lanes, rows};
            for (const auto& addr : degree_requests(lanes, width, rng)) {
              CAPTURE(banks);
              CAPTURE(bank_bytes);
              CAPTURE(rows);
              CAPTURE(lanes);
              CAPTURE(width);
              REQUIRE(scalar_single_cell_degree(g, width, addr) == conflict_degree(word_layout(g, width), width, addr));
              ++compared;
            }
          }
  MESSAGE(compared << " requests compared");
}

TEST_CASE("one-phase models cost a request its conflict degree as defined, SIMD shortcut or not") {
  std::mt19937_64 rng(20261203);
  const std::vector<BankModel> models = {make_preset("dmm"), make_preset("dmm", 32, 33), make_preset("dmm", 16),
                                         make_custom(32, 4, 32), make_custom(16, 8, 32), make_custom(7, 4, 32),
                                         make_custom(128, 4, 32)};
  for (const BankModel& m : models)
    for (unsigned width : {1u, 2u, 4u, 8u, 16u})
      for (const auto& addr : degree_requests(m.geometry().warp, width, rng)) {
        CAPTURE(m.describe());
        CAPTURE(width);
        const RequestCost c = m.cost(WarpRequest{Op::load, width, addr});
        const std::uint32_t want = conflict_degree(word_layout(m.geometry(), width), width, addr);
        REQUIRE(c.modelled);
        CHECK(c.degree == want);
        CHECK(c.wavefronts == want);
        CHECK(c.ideal == (want > 0 ? 1u : 0u));
      }
}
