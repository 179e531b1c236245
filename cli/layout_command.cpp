// `bankcheck layout`: the bank conflicts of a CuTe shared-memory layout under
// one access kind, every warp instruction that covers the tile costed by the
// model (sim/layout/ plans the instructions; replay's report prints them,
// names the worst conflict and gates CI; this file parses and prints).
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "cli/commands.hpp"
#include "cli/conversion_suggest.hpp"
#include "cli/layout_suggest.hpp"
#include "cli/options.hpp"
#include "cli/wgmma_picture.hpp"
#include "proofs/layout_suggestion.hpp"
#include "proofs/layout_symbolic.hpp"
#include "sim/draw/bank_grid.hpp"
#include "sim/layout/layout_access.hpp"
#include "sim/layout/layout_explanation.hpp"
#include "sim/layout/register_layout.hpp"
#include "sim/report/replay_report.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck::cli {
namespace {

struct LayoutOptions {
  std::string layout;
  std::string layout_file;
  std::string element;
  std::vector<std::string> accesses;  ///< one, or with --suggest every access of the tile
  bool suggest = false;
  std::string tile;
  std::string from, to;  ///< --suggest: register layouts the tile is written from and read into
  std::string along = "auto";
  std::uint64_t base = 0;
  ModelOptions model;
  bool per_instruction = false;
  bool per_bank = false;
  std::string svg;
  OutputOptions output;
  GateOptions gate;
  WgmmaPictureOptions wgmma;  ///< --wgmma-desc: the bank picture of a wgmma operand instead of a layout check
};

/// The layout text of --layout-file: its lines joined, '#' comments dropped.
std::string read_layout_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--layout-file: cannot read " + path);
  std::string text, line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    text += (text.empty() ? "" : " ") + line;
  }
  const auto first = text.find_first_not_of(" \t\r");
  return first == std::string::npos ? std::string() : text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

void draw_instruction(const BankModel& model, const layout::LayoutInstruction& ins, const std::string& path) {
  const std::vector<GridInstruction> grid_trace{GridInstruction{0, 0, ins.site, ins.op, ins.width, ins.addr}};
  BankGridOptions go;
  go.title = "instruction " + ins.site;
  render_bank_grid(build_bank_grid(model, grid_trace, go), path);
}

/// The symbolic proof (proofs/layout_symbolic.hpp) as the JSON field
/// `symbolic` (docs/results-schema.md), checked against the enumeration's
/// totals when they cover every instruction (no --site).
nlohmann::ordered_json symbolic_json(const proofs::LayoutSymbolic& s, const report::Results& r, bool& agrees) {
  using Status = proofs::LayoutSymbolic::Status;
  nlohmann::ordered_json j;
  j["status"] = proofs::LayoutSymbolic::status_name(s.status);
  agrees = true;
  if (s.status != Status::proven) {
    j["reason"] = s.reason;
    return j;
  }
  j["degree"] = s.degree;
  j["instructions"] = s.instructions;
  j["phases_per_instruction"] = s.phases;
  j["lanes_per_phase"] = s.lanes_per_phase;
  j["cell_rank"] = s.cell_rank;
  j["bank_rank"] = s.bank_rank;
  j["wavefronts"] = s.wavefronts();
  j["ideal"] = s.ideal();
  if (s.witness)
    j["witness"] = {{"instruction", 0},          {"lanes", {s.witness->lane_a, s.witness->lane_b}},
                    {"cells", {s.witness->cell_a, s.witness->cell_b}}, {"bank", s.witness->bank}};
  else
    j["witness"] = nullptr;
  if (r.selected_sites.empty() && r.unmodelled.empty()) {
    agrees = r.totals.instructions == s.instructions && r.totals.wavefronts == s.wavefronts() &&
             r.totals.ideal == s.ideal() && r.totals.worst_degree == s.degree;
    j["agrees_with_enumeration"] = agrees;
  } else {
    j["agrees_with_enumeration"] = nullptr;
  }
  return j;
}

/// --suggest: the options it takes, then the search (cli/layout_suggest.hpp).
void suggest(const LayoutOptions& o) {
  if (!o.from.empty() || !o.to.empty()) {
    if (o.from.empty() || o.to.empty() || !o.accesses.empty() || !o.layout.empty() || !o.layout_file.empty() ||
        o.along != "auto" || o.base != 0 || o.per_instruction || o.per_bank || !o.svg.empty() ||
        o.gate.fail_on_conflicts || !o.gate.sites.empty())
      throw std::invalid_argument("--from and --to go together, with --suggest, --tile, --type, --model, --json/--csv, "
                                  "-o; not --access (the instructions are chosen), a layout, --along, --base, --per-*, "
                                  "--svg or the gate");
    return run_conversion_suggest(ConversionOptions{o.tile, o.element, o.from, o.to, o.model, o.output});
  }
  if (!o.layout_file.empty() || o.along != "auto" || o.per_instruction || o.per_bank || !o.svg.empty() ||
      o.gate.fail_on_conflicts || !o.gate.sites.empty())
    throw std::invalid_argument("--suggest takes the layout or --tile, --type, --access (each with its own ',along='), "
                                "--base, --model, --json/--csv, -o; not --layout-file, --along, --per-*, --svg or the gate");
  run_layout_suggest(SuggestOptions{o.layout, o.tile, o.element, o.accesses, o.base, o.model, o.output});
}

/// The one --access of a plain check, with the layout and --along read.
layout::LayoutAccessSpec layout_spec(const LayoutOptions& o) {
  if (!o.tile.empty()) throw std::invalid_argument("--tile goes with --suggest");
  if (o.accesses.size() != 1)
    throw std::invalid_argument(o.accesses.empty() ? "layout needs --access (or --wgmma-desc for a wgmma operand)"
                                                   : "layout checks one --access at a time (several go with --suggest)");
  o.model.check();
  if (o.layout.empty() == o.layout_file.empty())
    throw std::invalid_argument("give the layout either as an argument or with --layout-file, not both or neither");
  layout::LayoutAccessSpec spec;
  spec.layout = o.layout_file.empty() ? o.layout : read_layout_file(o.layout_file);
  spec.element = o.element;
  spec.access = o.accesses.front();
  if (o.along == "0" || o.along == "1") spec.along = static_cast<unsigned>(o.along[0] - '0');
  else if (o.along != "auto") throw std::invalid_argument("--along: expected 0, 1 or auto (got " + o.along + ")");
  spec.base = o.base;
  return spec;
}

/// What `layout` adds to the replayed results: its input, the access's
/// description, the worst conflict explained, and the symbolic proof checked
/// against the enumeration. `drawn` is set to the instruction --svg draws.
void amend_layout_results(report::Results& r, const LayoutOptions& o, const layout::LayoutAccess& access,
                          const BankModel& model, const proofs::LayoutSymbolic& symbolic,
                          std::optional<std::size_t>& drawn) {
  r.command = "layout";
  r.inputs = nlohmann::ordered_json::array();
  r.inputs.push_back({{"kind", "layout"}, {"layout", access.layout.text()}, {"element", access.element.name},
                      {"access", access.access.name()}, {"along", access.along}, {"base", access.base}});
  r.header = layout::describe_access(access);
  r.header.push_back("model  " + model.describe());
  if (r.worst)
    for (auto& line : layout::explain_conflict(access, model.geometry(), r.worst->index, r.worst->lanes, r.worst->bank))
      r.notes.push_back(line);
  bool agrees = true;
  r.extra["symbolic"] = symbolic_json(symbolic, r, agrees);
  r.notes.push_back(symbolic.text());
  // The proof and the enumeration are independent; a disagreement is a bug in one of them.
  if (!agrees)
    throw std::logic_error("bug: the symbolic proof disagrees with the enumeration (" + symbolic.text() +
                           "; enumerated " + std::to_string(r.totals.wavefronts) + " wavefronts, degree " +
                           std::to_string(r.totals.worst_degree) + ")");
  if (!o.svg.empty()) {
    drawn = r.worst ? r.worst->index : 0;
    r.notes.push_back("drawn: instruction " + access.instructions.at(*drawn).site + " in " + o.svg);
  }
  r.extra["along"] = access.along;
}

void run_layout(const LayoutOptions& o) {
  if (!o.wgmma.descriptor.empty()) {
    WgmmaPictureOptions w = o.wgmma;
    w.type = o.element;
    w.svg = o.svg;
    print_wgmma_picture(w, std::cout);
    return;
  }
  if (o.suggest) return suggest(o);
  const layout::LayoutAccess access = layout::plan_layout_access(layout_spec(o));
  const BankModel model = o.model.make(layout::kLayoutWarp);
  const proofs::LayoutSymbolic symbolic = proofs::prove_layout_degree(access, access.base, model);

  TraceBuffer buffer;
  buffer.begin(layout::kLayoutWarp);
  for (const auto& ins : access.instructions) buffer.record(ins.site, ins.request());
  buffer.end();
  BufferSource source(buffer);

  report::ResultOutput out(o.output.file, o.layout_file.empty() ? std::vector<std::string>{}
                                                                : std::vector<std::string>{o.layout_file});
  report::ReplayReportOptions ro{"layout", o.gate.sites, o.per_instruction || o.per_bank, o.per_bank,
                                 o.gate.fail_on_conflicts, {}, 1, {}, {}};
  std::optional<std::size_t> drawn;
  ro.amend = [&](report::Results& r) { amend_layout_results(r, o, access, model, symbolic, drawn); };
  report::ResultsWriter writer(out.stream(), o.output.format(), o.per_instruction || o.per_bank);
  report::Progress progress(o.output.progress_stream(), "layout", OutputOptions::progress_delay());
  const report::Results r = report::replay_report(source, model, ro, writer, progress);
  if (drawn) draw_instruction(model, access.instructions.at(*drawn), o.svg);
  out.commit();
  exit_code() = report::exit_code_of(r);
  if (exit_code() != kOk) std::cerr << "bankcheck layout: " << report::exit_reason(r) << "\n";
}

/// --from/--to: the register layouts of a conversion, whose instructions --suggest chooses.
void add_conversion_options(CLI::App& cmd, LayoutOptions& o, CLI::Option* suggest) {
  cmd.add_option("--from", o.from,
                 std::string("with --suggest, instead of --access: the registers the tile is written from, ") +
                     std::string(layout::kRegisterLayoutForm) +
                     "; the instructions are chosen with the layout (docs/layout.md, \"Choosing the instructions\")")
      ->type_name("REGS")
      ->needs(suggest);
  cmd.add_option("--to", o.to, "with --from: the registers the tile is read into (same form)")
      ->type_name("REGS")
      ->needs(suggest);
}

}  // namespace

void add_layout_command(CLI::App& app) {
  auto o = std::make_shared<LayoutOptions>();
  auto* cmd = app.add_subcommand("layout", "Count the bank conflicts of a CuTe shared-memory layout (with its "
                                           "swizzle) under one access kind, for every warp instruction that covers the "
                                           "tile (docs/layout.md)");
  cmd->add_option("layout", o->layout,
                  "the layout in CuTe's notation or as cute::print writes it, e.g. \"Sw<3,3,3> o _0 o "
                  "(_8,_64):(_64,_1)\" or \"(8,64):(64,1)\"");
  cmd->add_option("--layout-file", o->layout_file, "read the layout from FILE ('#' comments allowed)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--type", o->element, std::string("element type: ") + std::string(layout::kElementTypeNames) +
                                            " (default: smem_ptr[Nb]'s size, when the layout has one)");
  auto* access = cmd->add_option("--access", o->accesses,
                                 std::string("the warp instruction: ") + std::string(layout::kAccessKindNames) +
                                     "; with --suggest, once per access of the tile: " +
                                     std::string(proofs::kSuggestAccessNames))
                     ->allow_extra_args(false);
  auto* suggest = cmd->add_flag("--suggest", o->suggest,
                                "search the layout of the tile with the fewest wavefronts over every --access "
                                "(docs/layout.md, \"Suggesting a layout\")");
  cmd->add_option("--tile", o->tile, "with --suggest and no layout: the tile, ROWSxCOLS (e.g. 64x64)")->type_name("RxC");
  add_conversion_options(*cmd, *o, suggest);
  cmd->add_option("--along", o->along,
                  "the mode a lane's bytes run along: 0 (rows), 1 (columns), or auto (columns, else rows, whichever "
                  "holds them contiguously)");
  add_integer_option(*cmd, "--base", o->base, std::uint64_t{0}, std::uint64_t{1} << 32,
                     "byte address of the tile in shared memory (what a byte-address swizzle sees)");
  o->model.add_to(*cmd);
  cmd->add_flag("--per-instruction", o->per_instruction, "also a row per instruction");
  cmd->add_flag("--per-bank", o->per_bank, "rows per instruction with the words each bank served; implies --per-instruction");
  cmd->add_option("--svg", o->svg, "draw the worst instruction (else the first) as a bank grid: FILE.svg, .png or .dot")
      ->type_name("FILE");
  o->output.add_to(*cmd);
  o->gate.add_to(*cmd);
  // --wgmma-desc: a wgmma operand's layout from its matrix descriptor (docs/layout.md, "wgmma descriptors").
  auto* desc = cmd->add_option("--wgmma-desc", o->wgmma.descriptor,
                               "instead of a layout: picture the wgmma operand this 64-bit shared-memory matrix "
                               "descriptor (0xHEX) lays out, its core matrices' rows and banks (needs --wgmma-shape, "
                               "--type)")
                   ->type_name("DESC");
  cmd->add_option("--wgmma-shape", o->wgmma.shape, "with --wgmma-desc: the instruction's shape, m64nNkK")
      ->type_name("SHAPE")
      ->needs(desc);
  cmd->add_option("--operand", o->wgmma.operand, "with --wgmma-desc: which operand the descriptor is for, a or b "
                                                 "(default a)")
      ->needs(desc);
  cmd->add_flag("--mn-major", o->wgmma.mn_major, "with --wgmma-desc: the transposed (M- or N-major) layout, "
                                                 "the instruction's imm-trans bit; fp16/bf16 only")
      ->needs(desc);
  for (const char* name : {"layout", "--layout-file", "--along", "--base", "--per-instruction", "--per-bank", "--json",
                           "--csv", "--output", "--fail-on-conflicts", "--site", "--model"})
    if (auto* other = cmd->get_option_no_throw(name)) desc->excludes(other);
  desc->excludes(access);
  desc->excludes(suggest);
  cmd->footer("Sites are the instructions, named by the rows and columns they touch (rA-B.cC-D, tT. first for mode 2's "
              "tiles).\nExit status: 0 success; 1 --fail-on-conflicts exceeded; 2 bad usage or a layout, type or access "
              "that does not fit (the error names the column or the lane), or a wgmma descriptor refused (docs/layout.md, "
              "\"wgmma descriptors\").");
  cmd->callback([o] { run_layout(*o); });
}

}  // namespace bankcheck::cli
