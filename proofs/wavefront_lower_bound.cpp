#include "proofs/wavefront_lower_bound.hpp"

#include <algorithm>
#include <set>
#include <vector>

namespace bankcheck::proofs {
namespace {

/// The counting bound of one instruction: its distinct words grouped by bank residue.
std::uint64_t counting_bound(const layout::LayoutInstruction& ins, unsigned cell, unsigned residues, unsigned banks) {
  std::vector<std::set<std::uint64_t>> words(residues);
  for (const std::uint64_t a : ins.addr) {
    if (a == kInactive) continue;
    for (std::uint64_t w = a / cell; w <= (a + ins.width - 1) / cell; ++w) words[w % residues].insert(w);
  }
  const std::uint64_t per_residue = banks / residues;
  std::uint64_t bound = 0;
  for (const auto& s : words) bound = std::max<std::uint64_t>(bound, (s.size() + per_residue - 1) / per_residue);
  return bound;
}

}  // namespace

AccessLowerBound access_lower_bound(const layout::LayoutCheck& reference, unsigned pinned_bytes,
                                    const BankGeometry& g) {
  AccessLowerBound out;
  const unsigned cell = g.bank_bytes;
  const bool counts = cell != 0 && g.rows_per_word == 1 && pinned_bytes >= cell && pinned_bytes % cell == 0 &&
                      g.banks % (pinned_bytes / cell) == 0;
  const unsigned residues = counts ? std::min(pinned_bytes / cell, g.banks) : 1;
  for (std::size_t i = 0; i < reference.costs.size(); ++i) {
    const RequestCost& c = reference.costs[i];
    if (!c.modelled) continue;
    std::uint64_t b = c.ideal;
    out.ideal += c.ideal;
    if (counts) {
      const std::uint64_t k = counting_bound(reference.access.instructions[i], cell, residues, g.banks);
      if (k > b) {
        b = k;
        ++out.counting_wins;
      }
    }
    out.wavefronts += b;
  }
  out.argument = out.counting_wins == 0
                     ? "the ideal, one wavefront per phase"
                     : "counting: " + std::to_string(pinned_bytes) + "-byte vectors fix each word's bank modulo " +
                           std::to_string(residues) + ", so " + std::to_string(out.counting_wins) +
                           " instructions need more than their ideal";
  return out;
}

}  // namespace bankcheck::proofs
