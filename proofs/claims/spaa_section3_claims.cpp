// SPAA 2025 Section 3 (load-balanced dual subsequence gather): the
// number-theoretic lemmas, checked from their definitions
// (proofs/spaa_residues.hpp), independently of sim/algorithms/merge/cf_merge.hpp.
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/spaa_residue_proofs.hpp"
#include "proofs/spaa_residues.hpp"

namespace bankcheck::proofs {
namespace {

using std::int64_t;
using std::uint64_t;
using std::to_string;

constexpr uint64_t kMaxRounds = 256;  // rounds j checked per point; beyond, a sample

/// Rounds j in [0, E) to check: all of them up to kMaxRounds, else the ends and a seeded sample.
std::vector<uint64_t> rounds(const Point& p, const CheckOptions& o) {
  std::vector<uint64_t> js;
  if (p.E <= kMaxRounds || o.mode == Mode::exhaustive) {
    for (uint64_t j = 0; j < p.E; ++j) js.push_back(j);
    return js;
  }
  std::mt19937_64 rng(point_seed(o.seed, p));
  js = {0, p.E - 1};
  while (js.size() < kMaxRounds) js.push_back(rng() % p.E);
  return js;
}

BigCount round_count(const Point& p) { return BigCount(p.E); }

Claim base(std::string id, std::string lemma, std::string statement, std::string hypotheses) {
  Claim c;
  c.id = std::move(id);
  c.paper = "SPAA 2025";
  c.lemma = std::move(lemma);
  c.statement = std::move(statement);
  c.hypotheses = std::move(hypotheses);
  c.category = "number theory";
  c.domain = Domain{1, 256, 1, 256};
  c.exhaustive_cases = round_count;
  return c;
}

/// The fast path: where `proves` establishes the claim at a point
/// (proofs/spaa_residue_proofs.hpp), it holds there for every case the
/// oracle would examine (`cases` of them); elsewhere the oracle runs and
/// finds the counterexample.
void prove_or_check(Claim& c, bool (*proves)(uint64_t, uint64_t),
                    std::function<uint64_t(const Point&, const CheckOptions&)> cases) {
  c.fast_check = [check = c.check, proves, cases = std::move(cases)](const Point& p, const CheckOptions& o) {
    if (!proves(p.w, p.E)) return check(p, o);
    PointResult res;
    res.cases = cases(p, o);
    return res;
  };
}

uint64_t round_cases(const Point& p, const CheckOptions& o) { return rounds(p, o).size(); }

Region within_e_le_w(const Point& p) { return p.E <= p.w ? Region::within : Region::beyond; }

Claim lemma1() {
  Claim c = base("spaa.lemma1", "Lemma 1",
                 "if GCD(w, E) = 1 then R_j = {j + kE : 0 <= k < w} is a complete residue system mod w",
                 "GCD(w, E) = 1 (checked for every round j in [0, E))");
  c.region = [](const Point& p) { return nt::gcd(p.w, p.E) == 1 ? Region::within : Region::outside; };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    thread_local nt::ResidueSet seen;
    for (uint64_t j : rounds(p, o)) {
      ++res.cases;
      seen.reset(p.w);
      bool complete = true;
      nt::ResidueStepper r(j, p.E, p.w);  // j + kE mod w
      for (uint64_t k = 0; k < p.w && complete; ++k, r.next()) complete = seen.insert_residue(r.value());
      if (complete) continue;
      const auto prof = nt::residue_profile(spaa::residue_row(static_cast<int64_t>(j), p.w, p.E), p.w);
      {
        res.counterexample = counterexample_at(id, p, o, "R_" + to_string(j) + ": " + nt::collision_text(prof, p.w));
        return res;
      }
    }
    return res;
  };
  prove_or_check(c, spaa::proves_row_profile, round_cases);
  return c;
}

Claim lemma1_tight() {
  Claim c = base("spaa.lemma1.tight", "Lemma 1 (converse, Section 3.2)",
                 "if d = GCD(w, E) > 1 then R_j hits exactly w/d residues mod w, each d times (a d-way conflict)",
                 "d = GCD(w, E) > 1");
  c.region = [](const Point& p) { return nt::gcd(p.w, p.E) > 1 ? Region::within : Region::outside; };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const uint64_t d = nt::gcd(p.w, p.E);
    for (uint64_t j : rounds(p, o)) {
      ++res.cases;
      const auto prof = nt::residue_profile(spaa::residue_row(static_cast<int64_t>(j), p.w, p.E), p.w);
      if (prof.classes_hit != p.w / d || prof.largest_class != d) {
        res.counterexample = counterexample_at(id, p, o,
                                "R_" + to_string(j) + " hits " + to_string(prof.classes_hit) + " residues (expected " +
                                    to_string(p.w / d) + "), largest class " + to_string(prof.largest_class) +
                                    " (expected " + to_string(d) + ")");
        return res;
      }
    }
    return res;
  };
  prove_or_check(c, spaa::proves_row_profile, round_cases);
  return c;
}

Claim lemma2(int part) {
  Claim c = base(part == 1 ? "spaa.lemma2.1" : "spaa.lemma2.2", part == 1 ? "Lemma 2 (1)" : "Lemma 2 (2)",
                 part == 1 ? "every element of R_j^(l) is congruent mod w to an element of D_{j mod d}"
                           : "the elements of R_j^(l) are pairwise incongruent mod w",
                 "d = GCD(w, E); every j in [0, E) and l in [0, d)");
  c.region = within_e_le_w;
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.E) * nt::gcd(p.w, p.E); };
  c.check = [id = c.id, part](const Point& p, const CheckOptions& o) {
    PointResult res;
    const uint64_t d = nt::gcd(p.w, p.E), n = p.w / d;
    std::vector<char> in_class(p.w);
    thread_local nt::ResidueSet seen;
    for (uint64_t j : rounds(p, o)) {
      std::fill(in_class.begin(), in_class.end(), 0);
      for (int64_t x : spaa::class_set(j % d, p.w, d)) in_class[nt::mod(x, static_cast<int64_t>(p.w))] = 1;
      for (uint64_t l = 0; l < d; ++l) {
        ++res.cases;
        // Fast pass without allocation; the sets are built only to report a counterexample.
        bool ok = true;
        seen.reset(p.w);
        nt::ResidueStepper step(j + (l * n) % p.w * (p.E % p.w), p.E, p.w);  // j + (l n + k) E mod w
        for (uint64_t k = 0; k < n && ok; ++k, step.next())
          ok = part == 1 ? in_class[step.value()] != 0 : seen.insert_residue(step.value());
        if (ok) continue;
        const auto r = spaa::residue_part(static_cast<int64_t>(j), l, p.w, p.E);
        if (part == 1) {
          for (int64_t x : r)
            if (!in_class[nt::mod(x, static_cast<int64_t>(p.w))]) {
              res.counterexample = counterexample_at(id, p, o,
                                      "element " + to_string(x) + " of R_" + to_string(j) + "^(" + to_string(l) +
                                          ") is congruent to no element of D_" + to_string(j % d));
              return res;
            }
        } else {
          const auto prof = nt::residue_profile(r, p.w);
          if (prof.classes_hit != r.size()) {
            res.counterexample = counterexample_at(id, p, o, "R_" + to_string(j) + "^(" + to_string(l) + "): " + nt::collision_text(prof, p.w));
            return res;
          }
        }
      }
    }
    return res;
  };
  prove_or_check(c, part == 1 ? spaa::proves_part_classes : spaa::proves_parts_distinct,
                 [](const Point& p, const CheckOptions& o) { return round_cases(p, o) * nt::gcd(p.w, p.E); });
  return c;
}

Claim corollary3() {
  Claim c = base("spaa.corollary3", "Corollary 3",
                 "R'_j = R_j^(0) + R_{j+1}^(1) + ... + R_{j+d-1}^(d-1) (indices mod E) is a complete residue system mod w",
                 "d = GCD(w, E); every round j in [0, E)");
  c.region = within_e_le_w;
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    thread_local nt::ResidueSet seen;
    const uint64_t d = nt::gcd(p.w, p.E), n = p.w / d;
    for (uint64_t j : rounds(p, o)) {
      ++res.cases;
      seen.reset(p.w);
      bool ok = true;
      for (uint64_t l = 0; l < d && ok; ++l) {
        nt::ResidueStepper r((j + l) % p.E + (l * n) % p.w * (p.E % p.w), p.E, p.w);  // R_{j+l}^(l) mod w
        for (uint64_t k = 0; k < n && ok; ++k, r.next()) ok = seen.insert_residue(r.value());
      }
      if (ok) continue;
      const auto prof = nt::residue_profile(spaa::shifted_row(j, p.w, p.E), p.w);
      if (prof.classes_hit != p.w || prof.size != p.w) {
        res.counterexample = counterexample_at(id, p, o, "R'_" + to_string(j) + ": " + nt::collision_text(prof, p.w));
        return res;
      }
    }
    return res;
  };
  prove_or_check(c, spaa::proves_parts_distinct, round_cases);
  return c;
}

Claim lemma4() {
  Claim c = base("spaa.lemma4", "Lemma 4",
                 "the first element of R_{j+1 mod E}^(l+1) minus the last of R_j^(l) is E+1 if j < E-1, else 1",
                 "d = GCD(w, E) >= 2 (so l+1 < d exists); every j in [0, E), l in [0, d-1)");
  c.region = [](const Point& p) {
    if (nt::gcd(p.w, p.E) < 2) return Region::outside;
    return p.E <= p.w ? Region::within : Region::beyond;
  };
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.E) * (nt::gcd(p.w, p.E) - 1); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const uint64_t d = nt::gcd(p.w, p.E);
    for (uint64_t j : rounds(p, o))
      for (uint64_t l = 0; l + 1 < d; ++l) {
        ++res.cases;
        const int64_t a = spaa::residue_part(static_cast<int64_t>(j), l, p.w, p.E).back();
        const int64_t b = spaa::residue_part(static_cast<int64_t>((j + 1) % p.E), l + 1, p.w, p.E).front();
        const int64_t expected = j + 1 < p.E ? static_cast<int64_t>(p.E) + 1 : 1;
        if (b - a != expected) {
          res.counterexample = counterexample_at(id, p, o,
                                  "j=" + to_string(j) + " l=" + to_string(l) + ": b-a = " + to_string(b - a) +
                                      ", expected " + to_string(expected));
          return res;
        }
      }
    return res;
  };
  // The same differences from the elements' definition, j + (l w/d + k)E,
  // without building the sets.
  c.fast_check = [check = c.check](const Point& p, const CheckOptions& o) {
    const uint64_t d = nt::gcd(p.w, p.E), n = p.w / d;
    PointResult res;
    for (uint64_t j : rounds(p, o))
      for (uint64_t l = 0; l + 1 < d; ++l) {
        ++res.cases;
        const uint64_t last = j + (l * n + n - 1) * p.E, first = (j + 1) % p.E + (l + 1) * n * p.E;
        if (first - last != (j + 1 < p.E ? p.E + 1 : 1)) return check(p, o);
      }
    return res;
  };
  return c;
}

/// round_of[k] = the j with k in R'_j, built from the sets themselves;
/// empty string if they partition [0, wE), else what goes wrong.
std::string rounds_from_sets(const Point& p, std::vector<std::int32_t>& round_of) {
  const uint64_t n = p.w * p.E, d = nt::gcd(p.w, p.E), m = p.w / d;
  round_of.assign(n, -1);
  for (uint64_t j = 0; j < p.E; ++j)
    for (uint64_t l = 0; l < d; ++l)
      for (uint64_t k = 0, x = (j + l) % p.E + l * m * p.E; k < m; ++k, x += p.E) {  // R_{j+l mod E}^(l)
        if (x >= n) return "element " + to_string(x) + " of R'_" + to_string(j) + " lies outside [0, wE)";
        if (round_of[x] != -1) return "element " + to_string(x) + " is in R'_" + to_string(round_of[x]) + " and R'_" + to_string(j);
        round_of[x] = static_cast<std::int32_t>(j);
      }
  return {};
}

Claim round_formula() {
  Claim c = base("spaa.round_formula", "Section 3.2, round formula",
                 "element k in [0, wE) belongs to R'_j for exactly one j, and j = k - floor(kd/(wE)) mod E",
                 "d = GCD(w, E); every k in [0, wE)");
  c.region = within_e_le_w;
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.w) * p.E; };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const uint64_t n = p.w * p.E, d = nt::gcd(p.w, p.E);
    thread_local std::vector<std::int32_t> round_of;
    if (std::string err = rounds_from_sets(p, round_of); !err.empty()) {
      res.counterexample = counterexample_at(id, p, o, err);
      return res;
    }
    // floor(kd / wE) and k mod E stepped exactly, without a division per k.
    uint64_t fl = 0, kd = 0, k_mod_e = 0;
    for (uint64_t k = 0; k < n; ++k, kd += d, k_mod_e = k_mod_e + 1 == p.E ? 0 : k_mod_e + 1) {
      while (kd >= (fl + 1) * n) ++fl;
      ++res.cases;
      const uint64_t formula = (k_mod_e + p.E - fl % p.E) % p.E;
      if (static_cast<uint64_t>(round_of[k]) != formula) {
        res.counterexample = counterexample_at(id, p, o,
                                "element " + to_string(k) + " is in R'_" + to_string(round_of[k]) +
                                    " but the formula gives " + to_string(formula));
        return res;
      }
    }
    return res;
  };
  prove_or_check(c, spaa::proves_round_formula, [](const Point& p, const CheckOptions&) { return p.w * p.E; });
  return c;
}

Claim circular_shift() {
  Claim c = base("spaa.shift_round", "Section 3.2, circular shift",
                 "rotating partition l (wE/d elements) by l positions is a permutation after which element k is read "
                 "in round k mod E, and round j reads the complete residue system R'_j",
                 "d = GCD(w, E); every k in [0, wE) and round j in [0, E)");
  c.region = within_e_le_w;
  c.exhaustive_cases = [](const Point& p) { return BigCount(p.w) * p.E; };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const uint64_t n = p.w * p.E;
    thread_local std::vector<std::int32_t> round_of;
    if (std::string err = rounds_from_sets(p, round_of); !err.empty()) {
      res.counterexample = counterexample_at(id, p, o, err);
      return res;
    }
    thread_local std::vector<char> hit;
    thread_local std::vector<std::uint32_t> bank_hits;  // [round][bank]
    hit.assign(n, 0);
    bank_hits.assign(n, 0);
    // rho stepped partition by partition (spaa::circular_shift gives the same
    // value; the test suite checks that): partition l rotates right by l mod d.
    const uint64_t d = nt::gcd(p.w, p.E), part = n / d;
    uint64_t l = 0, x = part, y = 0, ym = 0;
    for (uint64_t k = 0, k_mod_e = 0; k < n; ++k, k_mod_e = k_mod_e + 1 == p.E ? 0 : k_mod_e + 1) {
      ++res.cases;
      if (x == part) {  // a new partition l: y = (x + l mod d) mod part with x = 0
        l = k / part;
        x = 0;
        y = l % d;
        ym = y % p.w;
      }
      ++x;
      const uint64_t phys = l * part + y;
      const uint64_t phys_bank = ym;  // part is a multiple of w, so phys = y (mod w)
      if (++y == part) y = 0, ym = 0;
      else if (++ym == p.w) ym = 0;
      if (phys >= n || hit[phys]) {
        res.counterexample = counterexample_at(id, p, o, "rho is not a permutation: rho(" + to_string(k) + ") = " + to_string(phys));
        return res;
      }
      hit[phys] = 1;
      if (static_cast<uint64_t>(round_of[phys]) != k_mod_e) {
        res.counterexample = counterexample_at(id, p, o,
                                "element " + to_string(k) + " sits at " + to_string(phys) + ", read in round " +
                                    to_string(round_of[phys]) + ", not k mod E = " + to_string(k_mod_e));
        return res;
      }
      if (++bank_hits[k_mod_e * p.w + phys_bank] > 1) {
        std::vector<int64_t> row;
        for (uint64_t x = k_mod_e; x < n; x += p.E) row.push_back(static_cast<int64_t>(spaa::circular_shift(x, p.w, p.E)));
        res.counterexample =
            counterexample_at(id, p, o, "round " + to_string(k_mod_e) + " after the shift: " + nt::collision_text(nt::residue_profile(row, p.w), p.w));
        return res;
      }
    }
    return res;
  };
  prove_or_check(c, spaa::proves_shift, [](const Point& p, const CheckOptions&) { return p.w * p.E; });
  return c;
}

}  // namespace

std::vector<Claim> spaa_section3_claims() {
  return {lemma1(), lemma1_tight(), lemma2(1), lemma2(2), corollary3(), lemma4(), round_formula(), circular_shift()};
}

}  // namespace bankcheck::proofs
