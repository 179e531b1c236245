#include "sim/html/instruction_grid.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "sim/draw/bank_grid.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::html {

namespace {

/// How the model splits a warp's lanes into phases, in words.
std::string phases_text(const BankModel& model, const WarpRequest& r) {
  const BankGeometry& g = model.geometry();
  switch (model.phase_rule()) {
    case PhaseRule::none: return "one phase: the whole warp";
    case PhaseRule::bytes: {
      const unsigned lanes = g.bank_bytes == 0 ? g.warp : std::max(1u, g.banks * g.bank_bytes / std::max(1u, r.width));
      return "phases of " + std::to_string(std::min(lanes, g.warp)) + " lanes (" + std::to_string(g.banks * g.bank_bytes) +
             " bytes of lane data each)";
    }
    case PhaseRule::sm90: break;
  }
  return "the H100's phase rules for " + std::string(op_name(r.op)) + " " + std::to_string(r.width) +
         " (docs/bank-model.md); bank words are summed over the phases";
}

std::string culprit_text(const BankModel& model, const WarpRequest& r, const RequestCost& cost) {
  if (cost.conflicts() == 0) return "no bank conflict";
  const ConflictCulprit c = model.culprit(r);
  if (c.lanes.empty()) return std::to_string(cost.degree) + "-way in no single bank (a copy's read and write stages)";
  if (c.unit == ConflictCulprit::Unit::lanes)
    return "bank " + std::to_string(c.bank) + " serves lanes " + report::lane_ranges(c.lanes) + " one pass each";
  return "bank " + std::to_string(c.bank) + " serves " + std::to_string(c.cells.size()) + " distinct words to lanes " +
         report::lane_ranges(c.lanes);
}

}  // namespace

nlohmann::ordered_json grid_json(const BankModel& model, const WorstInstruction& worst) {
  if (!worst.present) return {{"none", "no costed execution"}};
  const WarpRequest request = worst.request();
  if (!model.models(request.op, request.width)) return {{"none", "not modelled: the model has no rule for this kind"}};
  std::uint64_t lowest = kInactive;
  for (const std::uint64_t a : request.addr) lowest = std::min(lowest, a);
  if (lowest == kInactive) return {{"none", "no active lane"}};
  const unsigned bytes = model.geometry().bank_bytes == 0 ? request.width : model.geometry().bank_bytes;
  BankGridOptions options;
  options.label = GridLabel::thread;
  options.first_cell = lowest / bytes;
  BankGrid grid;
  try {
    grid = build_bank_grid(model, {GridInstruction{0, 0, "worst", request.op, request.width, worst.addr}}, options);
  } catch (const std::invalid_argument& e) {
    return {{"none", std::string("no grid: ") + e.what()}};
  }
  std::vector<std::uint64_t> columns;  // the touched ones
  for (std::uint64_t c = 0; c < grid.columns; ++c)
    for (unsigned b = 0; b < grid.banks; ++b)
      if (grid.at(b, c).state != CellState::unused) {
        columns.push_back(c);
        break;
      }
  const std::size_t cut = columns.size() > kMaxGridColumns ? columns.size() - kMaxGridColumns : 0;
  columns.resize(std::min(columns.size(), kMaxGridColumns));
  nlohmann::ordered_json j;
  j["banks"] = grid.banks;
  j["columns"] = nlohmann::ordered_json::array();
  j["cells"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < columns.size(); ++k) {
    j["columns"].push_back(grid.first_column + columns[k]);
    for (unsigned b = 0; b < grid.banks; ++b) {
      const GridCell& cell = grid.at(b, columns[k]);
      if (cell.state == CellState::unused) continue;
      const int state = cell.state == CellState::conflict ? 2 : cell.state == CellState::accessed ? 1 : 0;
      j["cells"].push_back({b, k, state, cell.text});
    }
  }
  const RequestCost cost = model.cost(request);
  j["bank_words"] = model.bank_words(request);
  j["cost"] = {{"wavefronts", cost.wavefronts}, {"ideal", cost.ideal}, {"conflicts", cost.conflicts()}, {"degree", cost.degree}};
  j["culprit"] = culprit_text(model, request, cost);
  j["phases"] = phases_text(model, request);
  j["cut"] = cut;
  return j;
}

}  // namespace bankcheck::html
