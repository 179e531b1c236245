// `bankcheck replay`: stream a trace (text or binary, or '-') through a bank
// model and print totals, totals per site and optionally one row per
// instruction. The counting is sim/replay/replay.hpp; this file parses and prints.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "capture/host/sass_table.hpp"
#include "cli/commands.hpp"
#include "model/bank_model.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct ReplayOptions {
  std::string file;
  std::string model = "sm90";
  std::optional<unsigned> banks, bank_bytes, warp;
  bool per_instruction = false;
  bool csv = false;
  bool json = false;
  std::string sass;  ///< --sass FILE; default: sass.csv beside the trace, when there
};

/// "12 instructions of kind 'atom 4' not modelled (384 lane accesses)".
std::string unmodelled_line(const UnmodelledKind& k) {
  return std::to_string(k.instructions) + " instructions of kind '" + std::string(op_name(k.op)) + " " +
         std::to_string(k.width) + "' not modelled (" + std::to_string(k.lane_accesses) + " lane accesses)";
}

/// The SASS of the trace's sites: --sass, or sass.csv next to the trace.
std::optional<capture::SassTable> sass_for(const ReplayOptions& o) {
  std::string path = o.sass;
  if (path.empty() && o.file != "-") {
    const auto beside = std::filesystem::path(o.file).parent_path() / "sass.csv";
    std::error_code ec;
    if (std::filesystem::exists(beside, ec)) path = beside.string();
  }
  if (path.empty()) return std::nullopt;
  return capture::SassTable::read(path);
}

std::string location_text(const TraceLocation* l) {
  if (l == nullptr) return "";
  // launch:block.x.y.z:warp (no commas: it is a CSV field too)
  return std::to_string(l->launch) + ":" + std::to_string(l->block[0]) + "." + std::to_string(l->block[1]) + "." +
         std::to_string(l->block[2]) + ":" + std::to_string(l->warp);
}

/// Checks that need no trace: done before opening it, so a bad flag is reported first.
void check_flags(const ReplayOptions& o, bool model_given) {
  if (o.banks && *o.banks == 0) throw std::invalid_argument("--banks must be >= 1 (got 0)");
  if (o.warp && *o.warp == 0) throw std::invalid_argument("--warp must be >= 1 (got 0)");
  if (o.bank_bytes && !is_valid_width(*o.bank_bytes))
    throw std::invalid_argument("--bank-bytes must be one of 1, 2, 4, 8, 16 (got " + std::to_string(*o.bank_bytes) +
                                ")");
  const auto names = preset_names();
  if (std::find(names.begin(), names.end(), o.model) == names.end()) make_preset(o.model);  // throws, naming them
  if (model_given && o.bank_bytes)
    throw std::invalid_argument("--bank-bytes describes a custom model; it cannot be combined with --model");
  if (model_given && o.banks && o.model != "dmm")
    throw std::invalid_argument("--banks applies to --model dmm or a custom model, not to the preset '" + o.model +
                                "'");
  if (o.bank_bytes && !o.banks) throw std::invalid_argument("a custom model needs --banks (>= 1) with --bank-bytes");
}

/// The model for a trace of `trace_warp` lanes: a preset (dmm takes its warp and
/// bank count from the trace unless --banks is given) or a custom model.
BankModel model_for(const ReplayOptions& o, bool model_given, unsigned trace_warp, const std::string& trace) {
  if (o.warp && *o.warp != trace_warp)
    throw std::invalid_argument("--warp " + std::to_string(*o.warp) + " disagrees with the trace " + trace +
                                ", which has warp " + std::to_string(trace_warp));
  const bool custom = o.bank_bytes || (o.banks && !model_given);
  if (custom) return make_custom(*o.banks, o.bank_bytes.value_or(4), trace_warp);
  return make_preset(o.model, trace_warp, o.banks.value_or(0));
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string display_site(const std::string& s) { return s.empty() ? "(none)" : s; }

nlohmann::json totals_json(const CostTotals& t) {
  return {{"instructions", t.instructions}, {"lane_accesses", t.lane_accesses}, {"wavefronts", t.wavefronts},
          {"ideal", t.ideal},               {"conflicts", t.conflicts},         {"worst_degree", t.worst_degree}};
}

/// "0-3,8,10-11": lanes as ranges.
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

/// The one-line verdict and, where there is a conflict, where the worst one is.
void print_verdict(std::ostream& out, const ReplaySummary& s, const BankModel& model) {
  const CostTotals& t = s.totals;
  const std::uint64_t unmodelled = s.unmodelled_instructions();
  out << "\nverdict: ";
  if (unmodelled > 0 && t.instructions == 0) {
    out << "unknown: none of the " << unmodelled << " instructions is modelled by " << s.model
        << ", so nothing can be said about their conflicts\n";
    return;
  }
  if (t.conflicts == 0 && unmodelled > 0) {
    out << "no conflict in the " << t.instructions << " modelled instructions, but " << unmodelled
        << " instructions are not modelled: not shown conflict-free\n";
    return;
  }
  if (t.conflicts == 0) {
    out << "conflict-free (" << t.wavefronts << " wavefronts, the ideal)\n";
    return;
  }
  out << t.conflicts << " of " << t.wavefronts << " wavefronts are bank conflicts ("
      << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(t.conflicts) / static_cast<double>(t.wavefronts)
      << "%); worst " << t.worst_degree << "-way\n";
  if (!s.worst.present) return;
  const ConflictCulprit c = model.culprit(s.worst.request());
  out << "worst conflict: instruction " << s.worst.index << " (" << display_site(s.worst.site) << ", "
      << op_name(s.worst.op) << " " << s.worst.width << "): bank " << c.bank << " serves " << c.cells.size()
      << " distinct words to lanes " << lane_ranges(c.lanes) << "\n";
}

nlohmann::json worst_json(const ReplaySummary& s, const BankModel& model) {
  if (!s.worst.present) return nullptr;
  const ConflictCulprit c = model.culprit(s.worst.request());
  return {{"index", s.worst.index}, {"site", s.worst.site},       {"op", op_name(s.worst.op)},
          {"width", s.worst.width}, {"degree", s.worst.cost.degree}, {"bank", c.bank},
          {"lanes", c.lanes},       {"cells", c.cells}};
}

void print_text_summary(std::ostream& out, const ReplaySummary& s) {
  const CostTotals& t = s.totals;
  out << "totals\n"
      << "  instructions   " << t.instructions << "\n"
      << "  lane accesses  " << t.lane_accesses << "\n"
      << "  wavefronts     " << t.wavefronts << "\n"
      << "  ideal          " << t.ideal << "\n"
      << "  conflicts      " << t.conflicts << "\n"
      << "  worst degree   " << t.worst_degree << "\n";
  if (!s.unmodelled.empty()) {
    out << "\nnot modelled (not in the totals above)\n";
    for (const UnmodelledKind& k : s.unmodelled) out << "  " << unmodelled_line(k) << "\n";
  }
  if (s.sites.empty()) return;
  std::size_t width = 4;
  for (const auto& site : s.sites) width = std::max(width, display_site(site.site).size());
  out << "\nby site\n  " << std::left << std::setw(static_cast<int>(width)) << "site" << std::right
      << "  instructions  lane_accesses    wavefronts         ideal     conflicts  worst_degree  unmodelled\n";
  for (const auto& site : s.sites) {
    const CostTotals& x = site.totals;
    out << "  " << std::left << std::setw(static_cast<int>(width)) << display_site(site.site) << std::right << "  "
        << std::setw(12) << x.instructions << "  " << std::setw(13) << x.lane_accesses << "  " << std::setw(12)
        << x.wavefronts << "  " << std::setw(12) << x.ideal << "  " << std::setw(12) << x.conflicts << "  "
        << std::setw(12) << x.worst_degree << "  " << std::setw(10) << site.unmodelled << "\n";
  }
}

void run_replay(const ReplayOptions& o, bool model_given) {
  check_flags(o, model_given);
  auto source = open_trace(o.file);
  const std::string trace_name = o.file == "-" ? "<stdin>" : o.file;
  const BankModel model = model_for(o, model_given, source->warp(), trace_name);
  std::ostream& out = std::cout;

  nlohmann::json rows = nlohmann::json::array();
  InstructionObserver observer;
  const std::optional<capture::SassTable> sass = o.per_instruction ? sass_for(o) : std::nullopt;
  auto sass_of = [&](std::uint32_t site) -> std::string {
    if (!sass) return "";
    const std::string* text = sass->find(source->sites().name(site));
    return text != nullptr ? *text : "";
  };
  if (o.per_instruction) {
    if (o.json) {
      observer = [&](const InstructionCost& i) {
        rows.push_back({{"index", i.index},
                        {"site", source->sites().name(i.site)},
                        {"op", op_name(i.request.op)},
                        {"width", i.request.width},
                        {"active", i.active},
                        {"wavefronts", i.cost.wavefronts},
                        {"ideal", i.cost.ideal},
                        {"conflicts", i.cost.conflicts},
                        {"degree", i.cost.degree},
                        {"modelled", i.cost.modelled},
                        {"location", location_text(i.location)},
                        {"sass", sass_of(i.site)}});
      };
    } else if (o.csv) {
      out << "index,site,op,width,active,wavefronts,ideal,conflicts,degree,modelled,location,sass\n";
      observer = [&](const InstructionCost& i) {
        out << i.index << ',' << csv_field(source->sites().name(i.site)) << ',' << op_name(i.request.op) << ','
            << i.request.width << ',' << i.active << ',' << i.cost.wavefronts << ',' << i.cost.ideal << ','
            << i.cost.conflicts << ',' << i.cost.degree << ',' << (i.cost.modelled ? "yes" : "no") << ','
            << location_text(i.location) << ',' << csv_field(sass_of(i.site)) << '\n';
      };
    } else {
      out << std::setw(10) << "index" << "  " << std::setw(16) << "site" << "  op  width  active  wavefronts"
          << "  ideal  conflicts  degree  location  sass\n";
      observer = [&](const InstructionCost& i) {
        out << std::setw(10) << i.index << "  " << std::setw(16) << display_site(source->sites().name(i.site))
            << "  " << op_name(i.request.op) << "  " << std::setw(5) << i.request.width << "  " << std::setw(6)
            << i.active << "  " << std::setw(10) << i.cost.wavefronts << "  " << std::setw(5) << i.cost.ideal
            << "  " << std::setw(9) << i.cost.conflicts << "  " << std::setw(6) << i.cost.degree
            << (i.cost.modelled ? "" : "  (not modelled)") << "  " << location_text(i.location) << "  " << sass_of(i.site)
            << '\n';
      };
    }
  }

  const ReplaySummary summary = replay(*source, model, observer);

  if (o.json) {
    nlohmann::json doc = {{"trace", trace_name},
                          {"model", summary.model},
                          {"model_description", model.describe()},
                          {"warp", summary.warp},
                          {"totals", totals_json(summary.totals)}};
    nlohmann::json sites = nlohmann::json::array();
    for (const auto& s : summary.sites) {
      nlohmann::json row = totals_json(s.totals);
      row["site"] = s.site;
      row["unmodelled"] = s.unmodelled;
      sites.push_back(row);
    }
    doc["sites"] = sites;
    doc["worst"] = worst_json(summary, model);
    nlohmann::json unmodelled = nlohmann::json::array();
    for (const UnmodelledKind& k : summary.unmodelled)
      unmodelled.push_back({{"op", op_name(k.op)}, {"width", k.width}, {"instructions", k.instructions},
                            {"lane_accesses", k.lane_accesses}, {"message", unmodelled_line(k)}});
    doc["unmodelled"] = unmodelled;
    doc["conflict_free"] = summary.totals.conflicts == 0 && summary.unmodelled.empty() && summary.totals.instructions > 0;
    if (o.per_instruction) doc["instructions"] = std::move(rows);
    out << doc.dump(2) << "\n";
  } else if (o.csv) {
    if (o.per_instruction) return;  // one table per CSV: the rows (totals are their sums)
    out << "scope,site,instructions,lane_accesses,wavefronts,ideal,conflicts,worst_degree\n";
    auto row = [&](const char* scope, const std::string& site, const CostTotals& t) {
      out << scope << ',' << csv_field(site) << ',' << t.instructions << ',' << t.lane_accesses << ','
          << t.wavefronts << ',' << t.ideal << ',' << t.conflicts << ',' << t.worst_degree << '\n';
    };
    row("total", "", summary.totals);
    for (const auto& s : summary.sites) row("site", s.site, s.totals);
    for (const UnmodelledKind& k : summary.unmodelled)
      out << "unmodelled," << csv_field(unmodelled_line(k)) << ',' << k.instructions << ',' << k.lane_accesses
          << ",,,,\n";
  } else {
    if (o.per_instruction) out << "\n";
    out << "trace  " << trace_name << " (warp " << summary.warp << ")\n"
        << "model  " << model.describe() << "\n\n";
    print_text_summary(out, summary);
    print_verdict(out, summary, model);
  }
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand("replay", "Replay a trace (text, binary or '-') through a bank model and count "
                                           "wavefronts and conflicts, in total and per site");
  cmd->add_option("file", opts->file, "Trace file (.trace text or .bktrace binary, told by content), or '-' for stdin")
      ->required();
  std::string presets;
  for (auto n : preset_names()) presets += (presets.empty() ? "" : ", ") + std::string(n);
  auto* model = cmd->add_option("--model", opts->model, "Preset model: " + presets + " (default sm90)");
  cmd->add_option("--banks", opts->banks, "Number of banks (>= 1): a custom model, or the dmm preset's bank count");
  cmd->add_option("--bank-bytes", opts->bank_bytes, "Bytes per bank cell of a custom model: 1, 2, 4, 8 or 16 "
                                                    "(default 4)");
  cmd->add_option("--warp", opts->warp, "Expected warp size (>= 1); must match the trace");
  cmd->add_flag("--per-instruction", opts->per_instruction,
                "Also print one row per instruction (with its location and SASS text for captured traces)");
  cmd->add_option("--sass", opts->sass, "SASS table (function,offset,sass) for --per-instruction; default: "
                                        "sass.csv beside the trace");
  auto* csv = cmd->add_flag("--csv", opts->csv, "Print CSV");
  auto* json = cmd->add_flag("--json", opts->json, "Print JSON");
  csv->excludes(json);
  cmd->callback([opts, model] {
    try {
      run_replay(*opts, model->count() > 0);
    } catch (const TraceError& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      exit_code() = kBadInput;
    }
  });
}

}  // namespace bankcheck::cli
