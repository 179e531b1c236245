#include "proofs/register_instructions.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>

namespace bankcheck::proofs {
namespace {

using layout::AccessKind;
using layout::RegisterLayout;
using layout::TileCoord;

/// A register index with the bits of `value` at the register bases `where`.
std::uint64_t ri_spread(std::uint64_t value, const std::vector<unsigned>& where) {
  std::uint64_t r = 0;
  for (std::size_t i = 0; i < where.size(); ++i)
    if ((value >> i) & 1) r |= std::uint64_t{1} << where[i];
  return r;
}

std::vector<unsigned> ri_except(std::size_t n, const std::vector<unsigned>& used) {
  std::vector<unsigned> out;
  for (unsigned b = 0; b < n; ++b)
    if (std::find(used.begin(), used.end(), b) == used.end()) out.push_back(b);
  return out;
}

[[noreturn]] void ri_refuse(const InstructionChoice& c, const TileCoord& at, const std::string& why) {
  throw std::invalid_argument(c.kind.name() + " does not fit: element (" + std::to_string(at.row) + "," +
                              std::to_string(at.col) + ") " + why);
}

/// The register bases whose elements lie e, 2e, 4e, ... bytes past register 0's (lane 0, warp 0): `count` of them.
std::vector<unsigned> ri_steps(const RegisterLayout& regs, const TileAddresses& addr, unsigned e, std::size_t count,
                               const std::vector<unsigned>& avoid = {}) {
  std::vector<unsigned> out;
  const std::uint64_t a0 = addr.at(regs.at(0, 0, 0));
  for (std::size_t i = 0; i < count; ++i) {
    bool found = false;
    for (unsigned b = 0; b < regs.reg.size() && !found; ++b) {
      if (std::find(avoid.begin(), avoid.end(), b) != avoid.end()) continue;
      if (addr.at(regs.at(std::uint64_t{1} << b, 0, 0)) == a0 + (std::uint64_t{e} << i)) out.push_back(b), found = true;
    }
    if (!found) return {};
  }
  return out;
}

layout::LayoutInstruction ri_instruction(const AccessKind& k, std::uint64_t w, std::uint64_t o) {
  layout::LayoutInstruction ins;
  ins.site = "w" + std::to_string(w) + ".i" + std::to_string(o);
  ins.op = k.op();
  ins.width = k.bytes;
  ins.addr.assign(layout::kLayoutWarp, kInactive);
  ins.lanes.assign(layout::kLayoutWarp, layout::LaneElement{});
  return ins;
}

void ri_plan_vector(const RegisterLayout& regs, const InstructionChoice& c, unsigned e, const TileAddresses& addr,
                    layout::LayoutAccess& out) {
  const std::uint64_t v = c.kind.bytes;
  for (std::uint64_t w = 0; w < regs.warps(); ++w)
    for (std::uint64_t o = 0; o < (std::uint64_t{1} << c.outer.size()); ++o) {
      layout::LayoutInstruction ins = ri_instruction(c.kind, w, o);
      const std::uint64_t r = ri_spread(o, c.outer);
      for (unsigned l = 0; l < layout::kLayoutWarp; ++l) {
        const TileCoord at = regs.at(r, l, w);
        const std::uint64_t a = addr.at(at);
        if (a % v != 0) ri_refuse(c, at, "lies at byte " + std::to_string(a) + ", not " + std::to_string(v) + "-aligned");
        for (std::uint64_t t = 1; t < v / e; ++t)
          if (addr.at(regs.at(r | ri_spread(t, c.inner), l, w)) != a + t * e)
            ri_refuse(c, at, "and the lane's other registers are not the consecutive bytes after it");
        ins.addr[l] = a;
        ins.lanes[l] = layout::LaneElement{0, at.row, at.col};
      }
      out.instructions.push_back(std::move(ins));
    }
}

/// Row `row` of matrix `j`: its register index and lane 0..3 (the fragment's lanes that hold its first word).
void ri_plan_matrix(const RegisterLayout& regs, const InstructionChoice& c, unsigned e, const TileAddresses& addr,
                    layout::LayoutAccess& out) {
  const std::uint64_t n = c.kind.matrices;
  for (std::uint64_t w = 0; w < regs.warps(); ++w)
    for (std::uint64_t o = 0; o < (std::uint64_t{1} << c.outer.size()); ++o) {
      layout::LayoutInstruction ins = ri_instruction(c.kind, w, o);
      for (std::uint64_t j = 0; j < n; ++j)
        for (unsigned i = 0; i < 8; ++i) {
          std::uint64_t r = ri_spread(o, c.outer) | ri_spread(j, c.matrix), lane = 4 * i;
          if (c.kind.trans) r |= std::uint64_t{i & 1} << c.trans_pair, lane = i >> 1;  // row i = 2t + pair
          const TileCoord at = regs.at(r, lane, w);
          const std::uint64_t a = addr.at(at);
          if (a % 16 != 0) ri_refuse(c, at, "starts a matrix row at byte " + std::to_string(a) + ", not 16-aligned");
          for (unsigned b = 1; b < 16 / e; ++b) {
            // The b-th element of the row: .trans lanes step along it; else lanes step words, registers elements.
            const std::uint64_t rr = c.kind.trans ? r : r | ri_spread(b % (4 / e), c.inner);
            const std::uint64_t ll = c.kind.trans ? lane | (b << 2) : lane | (b / (4 / e));
            if (addr.at(regs.at(rr, ll, w)) != a + b * e)
              ri_refuse(c, at, "starts a matrix row whose 16 bytes are not the fragment's elements in order");
          }
          ins.addr[8 * j + i] = a;
          ins.lanes[8 * j + i] = layout::LaneElement{0, at.row, at.col};
        }
      out.instructions.push_back(std::move(ins));
    }
}

AccessKind ri_kind(bool store, bool matrix, unsigned bytes, unsigned matrices = 0, bool trans = false) {
  AccessKind k;
  k.family = matrix ? (store ? AccessKind::Family::stmatrix : AccessKind::Family::ldmatrix)
                    : (store ? AccessKind::Family::store : AccessKind::Family::load);
  k.bytes = bytes, k.matrices = matrices, k.trans = trans;
  return k;
}

/// The .xN of the bases left: N = 4 with two or more, else 2 or 1.
void ri_split_matrices(InstructionChoice& c, std::size_t bases, std::vector<unsigned> used) {
  const std::vector<unsigned> rest = ri_except(bases, used);
  const std::size_t m = std::min<std::size_t>(2, rest.size());
  c.matrix.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(m));
  c.outer.assign(rest.begin() + static_cast<std::ptrdiff_t>(m), rest.end());
  c.kind.matrices = 1u << m;
}

std::vector<InstructionChoice> ri_candidates(const RegisterLayout& regs, bool store, unsigned e, const TileAddresses& addr) {
  std::vector<InstructionChoice> out;
  const std::size_t nb = regs.reg.size();
  for (unsigned v = e, k = 0; v <= 16 && k <= nb; v *= 2, ++k) {
    InstructionChoice c;
    c.kind = ri_kind(store, false, v);
    c.inner = ri_steps(regs, addr, e, k);
    if (c.inner.size() != k) break;
    c.outer = ri_except(nb, c.inner);
    out.push_back(c);
  }
  if (e <= 4) {
    const std::size_t k0 = static_cast<std::size_t>(std::countr_zero(4u / e));
    InstructionChoice c;
    c.kind = ri_kind(store, true, 16);
    c.inner = ri_steps(regs, addr, e, k0);
    if (c.inner.size() == k0) ri_split_matrices(c, nb, c.inner), out.push_back(c);
  }
  if (e == 2)
    for (unsigned h = 0; h < nb; ++h) {
      InstructionChoice c;
      c.kind = ri_kind(store, true, 16, 0, true);
      c.trans_pair = static_cast<int>(h);
      ri_split_matrices(c, nb, {h});
      out.push_back(c);
    }
  return out;
}

std::string ri_list(const std::vector<unsigned>& b) {
  std::string s;
  for (unsigned x : b) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

std::string InstructionChoice::text() const {
  std::string s = kind.name();
  if (!kind.is_matrix()) return s + (inner.empty() ? "" : " (registers " + ri_list(inner) + " in one vector)");
  s += " (";
  if (kind.trans) s += "register " + std::to_string(trans_pair) + " picks row 2t+1";
  else s += inner.empty() ? "one register a word" : "registers " + ri_list(inner) + " in a word";
  return s + (matrix.empty() ? "" : "; matrices: registers " + ri_list(matrix)) + ")";
}

layout::LayoutAccess plan_register_access(const RegisterLayout& regs, const InstructionChoice& choice,
                                          const layout::ElementType& e, const TileAddresses& addr) {
  layout::LayoutAccess out;
  out.element = e;
  out.access = choice.kind;
  out.rows = addr.rows, out.cols = addr.cols;
  if (choice.kind.is_matrix()) ri_plan_matrix(regs, choice, e.bytes, addr, out);
  else ri_plan_vector(regs, choice, e.bytes, addr, out);
  return out;
}

std::vector<RegisterAccess> register_accesses(const RegisterLayout& regs, bool store, const layout::ElementType& e,
                                              const TileAddresses& addr, const BankModel& model) {
  std::vector<RegisterAccess> out;
  for (const InstructionChoice& c : ri_candidates(regs, store, e.bytes, addr)) {
    try {
      out.push_back(RegisterAccess{c, layout::check_layout(plan_register_access(regs, c, e, addr), model)});
    } catch (const std::invalid_argument&) {
      // The addresses do not permit this instruction on this layout: not a choice.
    }
  }
  return out;
}

bool better_access(const RegisterAccess& a, const RegisterAccess& b) {
  const auto key = [](const RegisterAccess& x) {
    return std::make_tuple(x.check.not_modelled, x.check.wavefronts, x.check.instructions);
  };
  return key(a) < key(b);
}

}  // namespace bankcheck::proofs
