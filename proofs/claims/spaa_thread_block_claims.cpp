// SPAA 2025 Section 3.3, the thread-block extension: B reversed over the
// whole block and partitions of wE/d elements rotated by l mod d. Warp v owns
// A[alpha_v, alpha_{v+1}) and the reversed B positions
// [uE-(v+1)wE+alpha_{v+1}, uE-v wE+alpha_v); in round j it reads its
// positions congruent to j mod E. The claim: those are w elements in w
// distinct banks, for every split.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/claims/input_plan.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/spaa_residue_proofs.hpp"
#include "proofs/spaa_residues.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

constexpr uint64_t kBlockWarps = 3;  // u = 3w: warps with no, one and two warps before them

struct BlockSplit {
  uint64_t v, alpha, delta;  // warp, alpha_v, alpha_{v+1} - alpha_v
};

BigCount all_splits(const Point& p) {
  BigCount total = 0;
  for (uint64_t v = 0; v < kBlockWarps; ++v) total += (BigCount(v) * p.w * p.E + 1) * (BigCount(p.w) * p.E + 1);
  return total;
}

/// Every split when few, else per warp the four extreme ones and a seeded sample.
std::vector<BlockSplit> block_splits(const Point& p, const CheckOptions& o) {
  const uint64_t we = p.w * p.E;
  std::vector<BlockSplit> splits;
  const bool all = enumerates(all_splits(p), o);
  std::mt19937_64 rng = point_rng(p, o);
  for (uint64_t v = 0; v < kBlockWarps; ++v) {
    if (all) {
      for (uint64_t a = 0; a <= v * we; ++a)
        for (uint64_t dl = 0; dl <= we; ++dl) splits.push_back({v, a, dl});
    } else {
      for (uint64_t a : {uint64_t{0}, v * we})
        for (uint64_t dl : {uint64_t{0}, we}) splits.push_back({v, a, dl});
      for (uint64_t s = 0; s < o.inputs; ++s) splits.push_back({v, rng() % (v * we + 1), rng() % (we + 1)});
    }
  }
  return splits;
}

/// The oracle: every split's positions, grouped by round, profiled mod w.
PointResult brute_force(const std::string& id, const Point& p, const CheckOptions& o) {
  PointResult res;
  const uint64_t w = p.w, E = p.E, we = w * E, uE = kBlockWarps * we;
  const spaa::CircularShift rho(w, E);
  std::vector<std::vector<std::int64_t>> by_round(E);
  for (const BlockSplit& s : block_splits(p, o)) {
    ++res.cases;
    for (auto& r : by_round) r.clear();
    auto take = [&](uint64_t k) { by_round[k % E].push_back(static_cast<std::int64_t>(rho(k))); };
    for (uint64_t k = s.alpha; k < s.alpha + s.delta; ++k) take(k);
    const uint64_t b_lo = uE - (s.v + 1) * we + s.alpha + s.delta, b_hi = uE - s.v * we + s.alpha;
    for (uint64_t k = b_lo; k < b_hi; ++k) take(k);
    for (uint64_t j = 0; j < E; ++j) {
      const auto prof = nt::residue_profile(by_round[j], w);
      if (prof.size != w || prof.classes_hit != w) {
        res.counterexample = counterexample_at(
            id, p, o,
            "warp " + to_string(s.v) + " with alpha_v=" + to_string(s.alpha) + ", |A_v|=" + to_string(s.delta) +
                ", round " + to_string(j) + ": reads " + to_string(prof.size) + " elements in " +
                to_string(prof.classes_hit) + " banks (" + nt::collision_text(prof, w) + ")");
        return res;
      }
    }
  }
  return res;
}

/// Every split at once (proofs/spaa_residue_proofs.hpp, proves_shift): a
/// split reads [alpha, alpha + delta) and [alpha + delta, alpha + wE) +
/// (2 - v) wE; rho(k + wE) = rho(k) + wE and w divides wE, so, round by
/// round (wE is a multiple of E), it reads the banks of one window of wE
/// consecutive positions, which are those of [0, wE): complete in every
/// round. Where the facts do not hold the oracle finds the failing split.
PointResult fast(const std::string& id, const Point& p, const CheckOptions& o) {
  if (!spaa::proves_shift(p.w, p.E)) return brute_force(id, p, o);
  PointResult res;
  const BigCount all = all_splits(p);
  res.cases = enumerates(all, o) ? static_cast<uint64_t>(all) : kBlockWarps * (o.inputs + 4);
  return res;
}

Claim thread_block() {
  Claim c;
  c.id = "spaa.thread_block";
  c.paper = "SPAA 2025";
  c.lemma = "Section 3.3";
  c.statement = "with B reversed over the block and partition l rotated by l mod d, every warp reads w elements in w "
                "distinct banks in every round, for every split of A and B across the warps (u = 3w threads)";
  c.hypotheses = "u a multiple of w (here u = 3w); alpha_v in [0, v wE], alpha_{v+1} - alpha_v in [0, wE]";
  c.category = "number theory";
  c.domain = Domain{1, 32, 1, 32};
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::beyond; };
  c.exhaustive_cases = all_splits;
  c.planned_cases = [](const Point& p, const CheckOptions& o) {
    const BigCount all = all_splits(p);
    return enumerates(all, o) ? all : BigCount(kBlockWarps * (o.inputs + 4));
  };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) { return brute_force(id, p, o); };
  c.fast_check = [id = c.id](const Point& p, const CheckOptions& o) { return fast(id, p, o); };
  return c;
}

}  // namespace

std::vector<Claim> spaa_thread_block_claims() { return {thread_block()}; }

}  // namespace bankcheck::proofs
