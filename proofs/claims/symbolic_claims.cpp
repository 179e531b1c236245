// Symbolic conflict degrees (proofs/affine_map.hpp, proofs/xor_swizzle.hpp,
// proofs/layout_symbolic.hpp) checked against the bank model on every point
// of the grid.
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/affine_map.hpp"
#include "proofs/claims/claim_groups.hpp"
#include "proofs/layout_symbolic.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/xor_swizzle.hpp"

namespace bankcheck::proofs {
namespace {

using std::uint64_t;
using std::to_string;

/// Cost of one request of 4-byte elements at the given element addresses.
RequestCost model_cost(const BankModel& model, const std::vector<uint64_t>& elements) {
  std::vector<uint64_t> bytes(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) bytes[i] = elements[i] * 4;
  return model.cost(WarpRequest{Op::load, 4, bytes});
}

Claim affine_claim() {
  Claim c;
  c.id = "sym.affine";
  c.paper = "SPAA 2025";
  c.lemma = "Section 2 / Lemma 1 (closed form)";
  c.statement = "lane l, round j reading element a*l + b*j + c costs GCD(a, w) accesses per round on w banks (point = "
                "(w, a)); the closed form equals the bank model's cost for b in {0,1,3}, c in {0,5}, j in [0,4)";
  c.hypotheses = "lanes = banks = w; one 4-byte element per cell";
  c.category = "symbolic";
  c.models = {"dmm", "sm90"};  // one 4-byte element per cell, one phase
  c.domain = Domain{1, 64, 0, 128, false};
  c.domain.E_lo = 1;
  c.region = [](const Point&) { return Region::within; };
  c.exhaustive_cases = [](const Point&) { return BigCount(24); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const auto a = static_cast<std::int64_t>(p.E);
    const uint64_t closed = affine_degree_square(a, p.w);
    for (std::int64_t b : {0, 1, 3})
      for (std::int64_t off : {0, 5})
        for (std::int64_t j = 0; j < 4; ++j) {
          ++res.cases;
          std::vector<uint64_t> elems(p.w);
          for (uint64_t l = 0; l < p.w; ++l) elems[l] = static_cast<uint64_t>(a * static_cast<std::int64_t>(l) + b * j + off);
          const RequestCost cost = model_cost(model, elems);
          const uint64_t general = affine_degree({a, b, off, p.w, p.w}).degree;
          if (cost.wavefronts != closed || general != closed || closed != nt::gcd(p.E, p.w)) {
            res.counterexample = Counterexample{
                p,
                "a=" + to_string(a) + " b=" + to_string(b) + " c=" + to_string(off) + " j=" + to_string(j) +
                    ": model " + to_string(cost.wavefronts) + ", closed form " + to_string(closed) + ", GCD " +
                    to_string(nt::gcd(p.E, p.w)),
                reproduce_command(id, p, o)};
            return res;
          }
        }
    return res;
  };
  return c;
}

Claim xor_claim() {
  Claim c;
  c.id = "sym.xor_swizzle";
  c.paper = "(bankcheck)";
  c.lemma = "GF(2) rank formula";
  c.statement = "reading column col of a row-major tile of width W (lane = row), plain (l*W + col) or XOR-swizzled "
                "(l*W + (col ^ (l mod W))), costs 2^(rank A - rank PA) accesses: the bank model agrees (point = (w, W))";
  c.hypotheses = "w and W powers of two; lanes = banks = w; one 4-byte element per cell";
  c.category = "symbolic";
  c.models = {"dmm", "sm90"};
  c.domain = Domain{1, 256, 1, 256, false};
  c.region = [](const Point& p) {
    return nt::is_power_of_two(p.w) && nt::is_power_of_two(p.E) ? Region::within : Region::outside;
  };
  c.exhaustive_cases = [](const Point& p) { return BigCount(2 * p.E); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const unsigned lane_bits = nt::log2_floor(p.w), width_bits = nt::log2_floor(p.E);
    const uint64_t W = p.E;
    for (int swizzled = 0; swizzled < 2; ++swizzled)
      for (uint64_t col = 0; col < W; ++col) {
        ++res.cases;
        auto address = [&](uint64_t l) { return l * W + (swizzled ? col ^ (l % W) : col); };
        const Gf2Affine map = fit_gf2_affine(address, lane_bits, lane_bits + width_bits + 1);
        const XorDegree deg = xor_degree(map, lane_bits);
        std::vector<uint64_t> elems(p.w);
        for (uint64_t l = 0; l < p.w; ++l) elems[l] = address(l);
        const RequestCost cost = model_cost(model, elems);
        if (cost.wavefronts != deg.degree) {
          res.counterexample = Counterexample{
              p,
              std::string(swizzled ? "swizzled" : "plain") + " col=" + to_string(col) + ": rank formula " +
                  to_string(deg.degree) + " (rank A " + to_string(deg.address_rank) + ", rank PA " +
                  to_string(deg.bank_rank) + "), model " + to_string(cost.wavefronts),
              reproduce_command(id, p, o)};
          return res;
        }
      }
    return res;
  };
  return c;
}

Claim layout_swizzle_claim() {
  Claim c;
  c.id = "sym.layout_swizzle";
  c.paper = "(bankcheck)";
  c.lemma = "GF(2) rank formula on layouts (docs/layout.md, Symbolic proof)";
  c.statement = "for (8,64):(64,1) and (64,8):(1,64) of E-byte elements under every Sw<B,M,S> (B <= 3, M <= 4, |S| <= 5), "
                "on elements and on bytes, with ldmatrix.x4(.trans), ld.128, st.128 and ld.32: wherever the GF(2) "
                "rank argument proves a degree, every instruction the bank model enumerates costs exactly it "
                "(point = (32, E))";
  c.hypotheses = "a 32-lane warp; E a power of two up to 8 bytes; the access fits the layout";
  c.category = "symbolic";
  c.models = {"sm90", "dmm"};
  c.domain = Domain{32, 32, 1, 8, false};
  c.region = [](const Point& p) {
    return p.w == 32 && nt::is_power_of_two(p.E) && p.E <= 8 ? Region::within : Region::outside;
  };
  c.exhaustive_cases = [](const Point&) { return BigCount(121 * 2 * 2 * 5); };  // swizzles x tiles x units x accesses; misfits skipped
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, 32);
    const std::string type = std::to_string(p.E);
    std::uint64_t proven = 0;
    for (int b = 0; b <= 3; ++b)
      for (int m = 0; m <= 4; ++m)
        for (int s = -5; s <= 5; ++s) {
          if ((s < 0 ? -s : s) < b || (b == 0 && (m != 0 || s != 0))) continue;
          const std::string sw = "Sw<" + to_string(b) + "," + to_string(m) + "," + to_string(s) + ">";
          for (const std::string tile : {"(8,64):(64,1)", "(64,8):(1,64)"})
            for (const std::string& form :
                 {sw + " o 0 o " + tile, sw + " o smem_ptr[" + to_string(8 * p.E) + "b](unset) o " + tile})
              for (const char* acc : {"ldmatrix.x4", "ldmatrix.x4.trans", "ld.128", "st.128", "ld.32"}) {
                layout::LayoutAccessSpec spec{form, type, acc, std::nullopt, 0};
                layout::LayoutAccess plan;
                try {
                  plan = layout::plan_layout_access(spec);
                } catch (const std::invalid_argument&) {
                  continue;  // the access does not fit this layout
                }
                ++res.cases;
                const LayoutSymbolic proof = prove_layout_degree(plan, 0, model);
                proven += proof.status == LayoutSymbolic::Status::proven;
                const std::string why = symbolic_disagreement(proof, layout::check_layout(plan, model));
                if (!why.empty()) {
                  res.counterexample = Counterexample{p, form + " " + acc + ": " + why, reproduce_command(id, p, o)};
                  return res;
                }
              }
        }
    // A claim that proved nothing would hold vacuously.
    if (proven == 0) res.counterexample = Counterexample{p, "no case proven", reproduce_command(id, p, o)};
    return res;
  };
  return c;
}

}  // namespace

std::vector<Claim> symbolic_claims() { return {affine_claim(), xor_claim(), layout_swizzle_claim()}; }

}  // namespace bankcheck::proofs
