#include "sim/report/results.hpp"

#include <iomanip>
#include <sstream>

#include "sim/report/global_section.hpp"

namespace bankcheck::report {
namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(part) / static_cast<double>(whole) << "%";
  return s.str();
}

}  // namespace

Verdict verdict_of(const CostTotals& totals) {
  if (totals.lane_accesses == 0) return Verdict::no_accesses;
  return totals.conflicts() == 0 ? Verdict::conflict_free : Verdict::conflicts;
}

nlohmann::ordered_json instruction_identity_json(const InstructionRow& r) {
  return {{"index", r.index}, {"location", r.location}, {"site", r.site},
          {"op", r.op},       {"width", r.width},       {"lane_accesses", r.active}};
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::conflict_free: return "conflict-free";
    case Verdict::conflicts: return "conflicts";
    case Verdict::no_accesses: return "no-accesses";
    case Verdict::not_all_modelled: return "not-all-modelled";
    case Verdict::global_only: return "global-only";
  }
  return "?";
}

std::uint64_t unmodelled_instructions(const Results& r) {
  std::uint64_t n = 0;
  for (const auto& [kind, count] : r.unmodelled) n += count.instructions;
  return n;
}

Verdict verdict_of(const Results& r) {
  const Verdict v = verdict_of(r.totals);
  if (v == Verdict::no_accesses && r.global.lane_accesses > 0 && unmodelled_instructions(r) == 0)
    return Verdict::global_only;
  return v == Verdict::conflict_free && unmodelled_instructions(r) > 0 ? Verdict::not_all_modelled : v;
}

bool gate_passes(const Results& r) {
  if (!r.fail_on_conflicts) return true;
  return r.totals.conflicts() <= *r.fail_on_conflicts && unmodelled_instructions(r) == 0;
}

int exit_code_of(const Results& r) {
  if (verdict_of(r) == Verdict::no_accesses) return 2;
  return gate_passes(r) ? 0 : 1;
}

std::string exit_reason(const Results& r) {
  if (verdict_of(r) == Verdict::no_accesses) {
    if (const std::uint64_t n = unmodelled_instructions(r); n > 0)
      return "none of the " + std::to_string(n) +
             " instructions is of a kind the model costs; nothing was checked, so this is not a proof of "
             "conflict-freedom";
    const std::string what = r.selected_sites.empty() ? "the input" : "the selected sites";
    return what + " had no shared-memory access with an active lane (" + std::to_string(r.totals.instructions) +
           " instructions); nothing was checked, so this is not a proof of conflict-freedom";
  }
  if (gate_passes(r)) return {};
  if (r.totals.conflicts() > *r.fail_on_conflicts)
    return "--fail-on-conflicts: " + std::to_string(r.totals.conflicts()) + " conflicts exceed the threshold " +
           std::to_string(*r.fail_on_conflicts);
  return "--fail-on-conflicts: " + std::to_string(unmodelled_instructions(r)) +
         " instructions are not modelled, so their conflicts are unknown";
}

WorstRow worst_row(const BankModel& model, const WorstInstruction& worst, std::string location) {
  const ConflictCulprit c = model.culprit(worst.request());
  WorstRow row;
  row.index = worst.index;
  row.location = std::move(location);
  row.site = worst.site;
  row.op = std::string(op_name(worst.op));
  row.width = worst.width;
  row.degree = worst.cost.degree;
  row.bank = c.bank;
  row.lanes = c.lanes;
  row.cells = c.cells;
  row.unit = c.unit;
  return row;
}

std::string impossible_worst(const WorstRow& row, unsigned warp) {
  const std::string d = std::to_string(row.degree);
  if (row.degree < 2) return "a worst conflict of degree " + d + " is no conflict";
  if (row.lanes.empty() != row.cells.empty())
    return std::to_string(row.lanes.size()) + " lanes with " + std::to_string(row.cells.size()) + " words";
  if (row.lanes.empty())
    return row.op == "cpasync" ? "" : "a " + d + "-way " + row.op + " with no bank where it piles up";
  if (row.cells.size() > row.degree)
    return "a bank serving " + std::to_string(row.cells.size()) + " distinct words in a " + d + "-way conflict";
  if (row.unit == ConflictCulprit::Unit::lanes ? row.lanes.size() > row.degree : row.cells.size() < 2)
    return "a bank of " + std::to_string(row.cells.size()) + " words and " + std::to_string(row.lanes.size()) +
           " lanes in a " + d + "-way conflict";
  for (std::size_t i = 0; i < row.lanes.size(); ++i)
    if ((i > 0 && row.lanes[i] <= row.lanes[i - 1]) || (warp > 0 && row.lanes[i] >= warp))
      return "lanes out of order or outside the warp";
  return "";
}

std::string lane_ranges(const std::vector<unsigned>& lanes) {
  std::string text;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!text.empty()) text += ",";
    text += std::to_string(lanes[i]) + (j > i ? "-" + std::to_string(lanes[j]) : "");
    i = j + 1;
  }
  return text;
}

std::string verdict_line(const Results& r) {
  const CostTotals& t = r.totals;
  switch (verdict_of(r)) {
    case Verdict::no_accesses: return "no accesses: " + exit_reason(r);
    case Verdict::conflict_free: return "conflict-free (" + std::to_string(t.wavefronts) + " wavefronts, the ideal)";
    case Verdict::not_all_modelled:
      return "no conflict in the " + std::to_string(t.instructions) + " modelled instructions, but " +
             std::to_string(unmodelled_instructions(r)) + " are of kinds not modelled: not shown conflict-free";
    case Verdict::global_only: return global_only_line(r);
    case Verdict::conflicts: break;
  }
  return std::to_string(t.conflicts()) + " of " + std::to_string(t.wavefronts) + " wavefronts are bank conflicts (" +
         percent(t.conflicts(), t.wavefronts) + "); worst " + std::to_string(t.worst_degree) + "-way";
}

}  // namespace bankcheck::report
