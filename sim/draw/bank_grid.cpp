#include "sim/draw/bank_grid.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "sim/draw/html_escape.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck {
namespace {

/// Cell size in bytes for an access of `width` bytes under the model's geometry.
std::uint64_t cell_bytes(const BankModel& model, unsigned width) {
  const unsigned b = model.geometry().bank_bytes;
  return b == 0 ? width : b;
}

bool round_selected(const BankGridOptions& o, std::size_t round) {
  if (!o.rounds.empty()) return round < o.rounds.size() && o.rounds[round];
  return o.round == BankGridOptions::kAllRounds || o.round == round;
}

bool warp_selected(const BankGridOptions& o, unsigned warp_index) {
  return o.warp_index == BankGridOptions::kAllWarps || o.warp_index == warp_index;
}

/// Thread ids as a short label: "3", "3,7", "3,7,+2".
std::string threads_label(const std::set<std::uint64_t>& threads) {
  std::string text;
  std::size_t shown = 0;
  for (auto t : threads) {
    if (shown == 2 && threads.size() > 3) {
      text.append(",+").append(std::to_string(threads.size() - 2));
      break;
    }
    if (!text.empty()) text.push_back(',');
    text.append(std::to_string(t));
    ++shown;
  }
  return text;
}

// Pale tints for the sites (A list yellow and B list blue first, as in SPAA Figures 2-3).
constexpr const char* kRegionColors[] = {"#fff3b0", "#cfe2ff", "#e8d5f5", "#ffe0c2", "#d8f0e0", "#f0f0f0"};
constexpr const char* kAccessedColor = "#7fd38f";
constexpr const char* kConflictColor = "#f07b72";

std::string cell_color(const GridCell& cell) {
  switch (cell.state) {
    case CellState::unused: return "#ffffff";
    case CellState::touched:
      return kRegionColors[static_cast<std::size_t>(cell.region) % std::size(kRegionColors)];
    case CellState::accessed: return kAccessedColor;
    case CellState::conflict: return kConflictColor;
  }
  return "#ffffff";
}

}  // namespace

void GridRecorder::instruction(const InstructionInfo& info, const WarpRequest& request) {
  if (info.block != block_) return;
  const Round key{info.phase, info.site, info.k, std::string(info.name)};
  auto it = std::find(rounds_.begin(), rounds_.end(), key);
  const std::size_t round = static_cast<std::size_t>(it - rounds_.begin());
  if (it == rounds_.end()) rounds_.push_back(key);
  trace_.push_back({round, info.warp_index, std::string(info.name), request.op, request.width,
                    std::vector<std::uint64_t>(request.addr.begin(), request.addr.end())});
}

namespace {

/// What the selected warps do to one cell, over all rounds: fixes the grid's
/// size and the label of cells outside the chosen round.
struct CellInfo {
  int region = -1;
  std::set<std::uint64_t> threads_any;    // every thread touching it
  std::set<std::uint64_t> threads_round;  // threads touching it in the chosen round
  std::map<int, std::set<std::uint64_t>> threads_by_region;
  bool in_round = false;
  bool conflict = false;
};

/// Step 1's result: every cell each selected warp touches, and the sites.
struct CellScan {
  std::map<std::uint64_t, CellInfo> info;
  std::vector<std::string> regions;
  std::set<int> round_regions;  // sites issuing in the chosen round
  int region_of(const std::string& site) {
    auto it = std::find(regions.begin(), regions.end(), site);
    if (it != regions.end()) return static_cast<int>(it - regions.begin());
    regions.push_back(site);
    return static_cast<int>(regions.size() - 1);
  }
};

/// Step 1, one instruction: its cells, and in the chosen round its cost and conflicting cells.
void scan_instruction(const BankModel& model, const GridInstruction& ins, const BankGridOptions& options,
                      CellScan& scan, BankGrid& grid) {
  const unsigned banks = model.geometry().banks, warp = model.geometry().warp;
  if (ins.addr.size() != warp)
    throw std::invalid_argument("instruction of " + std::to_string(ins.addr.size()) + " lanes for a model of warp " +
                                std::to_string(warp));
  const std::uint64_t bytes = cell_bytes(model, ins.width);
  const bool selected = round_selected(options, ins.round);
  const int region = scan.region_of(ins.site);
  // Distinct cells per bank in this instruction: >= 2 in one bank is a conflict.
  std::map<unsigned, std::set<std::uint64_t>> per_bank;
  for (unsigned lane = 0; lane < warp; ++lane) {
    const std::uint64_t a = ins.addr[lane];
    if (a == kInactive) continue;
    const std::uint64_t thread = std::uint64_t{ins.warp_index} * warp + lane;
    for (std::uint64_t c = a / bytes; c <= (a + ins.width - 1) / bytes; ++c) {
      auto& ci = scan.info[c];
      if (ci.region < 0) ci.region = region;
      ci.threads_any.insert(thread);
      ci.threads_by_region[region].insert(thread);
      if (selected) {
        ci.in_round = true;
        ci.threads_round.insert(thread);
        per_bank[static_cast<unsigned>(c % banks)].insert(c);
      }
    }
  }
  if (!selected) return;
  scan.round_regions.insert(region);
  const RequestCost cost = model.cost({ins.op, ins.width, ins.addr});
  grid.round_wavefronts += cost.wavefronts;
  grid.round_conflicts += cost.conflicts();
  if (cost.degree > 1)
    for (const auto& [bank, cells] : per_bank)
      if (cells.size() > 1)
        for (auto c : cells) scan.info[c].conflict = true;
}

/// Step 2: one grid cell from what the scan found of it.
void fill_cell(GridCell& cell, const CellInfo& ci, const CellScan& scan, const BankGridOptions& options) {
  // Tint: the site that first touched it (the staging store, typically: SPAA Figs. 2-3
  // colour A's and B's cells by the list they came from).
  cell.region = ci.region;
  cell.state = ci.conflict ? CellState::conflict : ci.in_round ? CellState::accessed : CellState::touched;
  if (options.label != GridLabel::thread) return;
  // In the round: who touches it now. Elsewhere: who touches it through the round's
  // sites in other rounds (the papers label a cell with the thread that reads it);
  // blank when only other sites touch it. With every round highlighted: everyone.
  std::set<std::uint64_t> same_sites;
  for (const auto& [region, threads] : ci.threads_by_region)
    if (scan.round_regions.contains(region)) same_sites.insert(threads.begin(), threads.end());
  cell.text = threads_label(ci.in_round ? ci.threads_round : same_sites);
}

}  // namespace

BankGrid build_bank_grid(const BankModel& model, const std::vector<GridInstruction>& trace,
                         const BankGridOptions& options) {
  if (trace.empty()) throw std::invalid_argument("the algorithm issued no shared-memory instruction to draw");
  const unsigned banks = model.geometry().banks;
  std::size_t rounds = 0;
  for (const auto& ins : trace) rounds = std::max(rounds, ins.round + 1);
  if (options.rounds.empty() && options.round != BankGridOptions::kAllRounds && options.round >= rounds)
    throw std::invalid_argument("--round must be in [0, " + std::to_string(rounds - 1) + "] (got " +
                                std::to_string(options.round) + ")");
  BankGrid grid;
  CellScan scan;
  bool any_warp = false;
  for (const auto& ins : trace)
    if (warp_selected(options, ins.warp_index)) any_warp = true, scan_instruction(model, ins, options, scan, grid);
  if (!any_warp)
    throw std::invalid_argument("warp " + std::to_string(options.warp_index) + " issued no shared-memory instruction");

  const std::uint64_t last_cell = scan.info.rbegin()->first;
  grid.banks = banks;
  grid.first_column = std::min(options.first_cell, last_cell) / banks;
  grid.columns = last_cell / banks + 1 - grid.first_column;
  if (grid.columns * banks > (std::uint64_t{1} << 20))
    throw std::invalid_argument("the grid would have " + std::to_string(grid.columns * banks) +
                                " cells; draw a smaller instance (at most 2^20 cells)");
  grid.cells.resize(banks * grid.columns);
  grid.regions = scan.regions;
  grid.rounds = rounds;
  grid.title = options.title;
  grid.state_legend = options.state_legend;
  for (std::uint64_t c = grid.first_column * banks; c <= last_cell; ++c) {
    GridCell& cell = grid.cells[(c % banks) * grid.columns + c / banks - grid.first_column];
    if (options.label == GridLabel::address) cell.text = std::to_string(c);
    if (auto it = scan.info.find(c); it != scan.info.end()) fill_cell(cell, it->second, scan, options);
  }
  return grid;
}

std::string grid_text(const BankGrid& grid) {
  std::string out;
  if (!grid.title.empty()) out += grid.title + "\n";
  for (unsigned b = 0; b < grid.banks; ++b) {
    out += std::to_string(b) + ":";
    for (std::uint64_t c = 0; c < grid.columns; ++c) {
      const GridCell& cell = grid.at(b, c);
      const char mark = cell.state == CellState::conflict ? '*' : cell.state == CellState::accessed ? '+' : ' ';
      out += " " + (cell.text.empty() ? std::string(".") : cell.text) + mark;
    }
    out += "\n";
  }
  return out;
}

std::string grid_dot(const BankGrid& grid) {
  std::string t = "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\">";
  for (unsigned b = 0; b < grid.banks; ++b) {
    t += "<TR><TD BORDER=\"0\" ALIGN=\"RIGHT\">" + std::to_string(b) + ":</TD>";
    for (std::uint64_t c = 0; c < grid.columns; ++c) {
      const GridCell& cell = grid.at(b, c);
      t += "<TD WIDTH=\"28\" BGCOLOR=\"" + cell_color(cell) + "\">" +
           (cell.text.empty() ? std::string(" ") : html_escape(cell.text)) + "</TD>";
    }
    t += "</TR>";
  }
  t += "</TABLE>";
  // Legend in its own node below, so its width does not stretch the grid's columns.
  std::vector<bool> used(grid.regions.size(), false);
  for (const auto& cell : grid.cells)
    if (cell.region >= 0) used[static_cast<std::size_t>(cell.region)] = true;
  std::string legend = "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"4\"><TR>";
  for (std::size_t r = 0; r < grid.regions.size(); ++r)
    if (used[r])
      legend += "<TD BGCOLOR=\"" + std::string(kRegionColors[r % std::size(kRegionColors)]) + "\">" +
                html_escape(grid.regions[r]) + "</TD>";
  if (grid.state_legend) {
    legend += std::string("<TD BGCOLOR=\"") + kAccessedColor + "\">accessed this round</TD>";
    legend += std::string("<TD BGCOLOR=\"") + kConflictColor + "\">bank conflict</TD>";
  }
  legend += "</TR></TABLE>";
  std::string title;
  for (char c : grid.title) {
    if (c == '"' || c == '\\') title += '\\';
    title += c;
  }
  return "digraph bank_grid {\n  nodesep=0.1; ranksep=0.05; labelloc=\"t\"; fontname=\"Helvetica-Bold\"; fontsize=13;\n"
         "  label=\"" + title + "\";\n  node [shape=plaintext, fontname=\"Helvetica\", fontsize=11];\n"
         "  grid [label=<" + t + ">];\n  legend [label=<" + legend + ">];\n  grid -> legend [style=invis];\n}\n";
}

void render_bank_grid(const BankGrid& grid, const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext != "svg" && ext != "png" && ext != "dot")
    throw std::invalid_argument("output file '" + path + "' must end in .svg, .png or .dot");
  const std::string text = grid_dot(grid);
  // Create the file first: an unwritable path fails before the layout work,
  // and the picture appears whole (AtomicFile) or not at all.
  OutputFile out(path);
  std::unique_ptr<GVC_t, int (*)(GVC_t*)> gvc(gvContext(), gvFreeContext);
  if (!gvc) throw std::runtime_error("Graphviz: cannot create a context");
  Agraph_t* g = agmemread(text.c_str());
  if (!g) throw std::runtime_error("Graphviz: cannot parse the generated grid");
  if (gvLayout(gvc.get(), g, "dot") != 0) {
    agclose(g);
    throw std::runtime_error("Graphviz: layout failed");
  }
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc.get(), g, ext == "dot" ? "dot" : ext.c_str(), &data, &length);
  gvFreeLayout(gvc.get(), g);
  agclose(g);
  if (rc != 0 || data == nullptr) {
    if (data) gvFreeRenderData(data);
    throw std::runtime_error("Graphviz: cannot render the grid as " + ext);
  }
  try {
    out.write(data, length);
  } catch (...) {
    gvFreeRenderData(data);
    throw;
  }
  gvFreeRenderData(data);
  out.close();
}

}  // namespace bankcheck
