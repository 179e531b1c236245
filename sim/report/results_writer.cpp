#include "sim/report/results_writer.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "sim/report/csv.hpp"
#include "sim/report/global_section.hpp"

namespace bankcheck::report {

std::string display_site(const std::string& s) { return s.empty() ? "(none)" : s; }

std::string source_cell(const std::optional<SourceLine>& s) { return s ? source_text(*s) : std::string(); }

namespace {

/// "0:32" or "0-15:1 16:2": bank (or run of banks with the same count) and words; idle banks left out.
std::string bank_words_text(const std::vector<std::uint32_t>& words) {
  std::string text;
  for (std::size_t b = 0; b < words.size();) {
    std::size_t e = b;
    while (e + 1 < words.size() && words[e + 1] == words[b]) ++e;
    if (words[b] != 0) {
      if (!text.empty()) text += ' ';
      text += std::to_string(b);
      if (e > b) text.append("-").append(std::to_string(e));
      text.append(":").append(std::to_string(words[b]));
    }
    b = e + 1;
  }
  return text.empty() ? "-" : text;
}

std::string bank_words_csv(const std::vector<std::uint32_t>& words) {
  std::string text;
  for (std::size_t b = 0; b < words.size(); ++b) {
    if (b) text += ' ';
    text += std::to_string(words[b]);
  }
  return text;
}

/// Instructions of every kind in `u`.
std::uint64_t count_of(const Unmodelled& u) {
  std::uint64_t n = 0;
  for (const auto& [kind, c] : u) n += c.instructions;
  return n;
}

/// Whether a scope's costs are unknown: none of its instructions was
/// costed, yet some were of kinds the model does not cost. Its cost cells
/// are then empty (CSV), null (JSON) or "not modelled" (text), never 0.
bool costs_unknown(const CostTotals& t, std::uint64_t unmodelled) { return t.instructions == 0 && unmodelled > 0; }

/// The cost columns shared by every CSV row.
std::string csv_costs(const CostTotals& t, std::uint64_t unmodelled) {
  const std::string counted = std::to_string(t.instructions) + "," + std::to_string(t.lane_accesses) + ",";
  if (costs_unknown(t, unmodelled)) return counted + ",,,";
  return counted + std::to_string(t.wavefronts) + "," + std::to_string(t.ideal) + "," + std::to_string(t.conflicts()) +
         "," + std::to_string(t.worst_degree);
}

/// The columns that end every CSV row: whether each of the scope's
/// instructions was costed, and how many were not.
std::string csv_modelled(std::uint64_t unmodelled) {
  return std::string(unmodelled == 0 ? "true," : "false,") + std::to_string(unmodelled);
}

/// A row of a text table of totals.
struct TextRow {
  std::string name;
  CostTotals totals;
  std::uint64_t unmodelled = 0;  ///< instructions not costed
  std::string suffix;            ///< after the costs (a single instruction's kind and SASS)
};

void text_totals_table(std::ostream& out, const std::string& title, const std::string& first_column,
                       const std::vector<TextRow>& rows, bool suffixes = false) {
  if (rows.empty()) return;
  std::size_t width = first_column.size();
  bool any_unmodelled = false;
  for (const TextRow& r : rows) width = std::max(width, r.name.size()), any_unmodelled |= r.unmodelled > 0;
  const int w = static_cast<int>(width);
  out << "\n" << title << "\n  " << std::left << std::setw(w) << first_column << std::right
      << "  instructions  lane_accesses    wavefronts         ideal     conflicts  worst_degree"
      << (any_unmodelled ? "  not_modelled" : "") << (suffixes ? "  kind  sass" : "") << "\n";
  for (const TextRow& r : rows) {
    const CostTotals& x = r.totals;
    out << "  " << std::left << std::setw(w) << r.name << std::right << "  " << std::setw(12) << x.instructions << "  "
        << std::setw(13) << x.lane_accesses << "  ";
    if (costs_unknown(x, r.unmodelled))
      out << std::setw(54) << "not modelled";
    else
      out << std::setw(12) << x.wavefronts << "  " << std::setw(12) << x.ideal << "  " << std::setw(12) << x.conflicts()
          << "  " << std::setw(12) << x.worst_degree;
    if (any_unmodelled) out << "  " << std::setw(12) << r.unmodelled;
    out << r.suffix << "\n";
  }
}

/// The text's totals block: counts, or "not modelled" where kinds without a rule make them unknown.
void write_text_totals(std::ostream& out, const Results& r) {
  const CostTotals& t = r.totals;
  const std::uint64_t not_costed = unmodelled_instructions(r);
  const auto cost_line = [&](std::uint64_t v) {
    return costs_unknown(t, not_costed) ? std::string("not modelled") : std::to_string(v);
  };
  out << (r.header.empty() ? "" : "\n") << "totals" << (r.selected_sites.empty() ? "" : " (selected sites)") << "\n"
      << "  instructions   " << t.instructions << "\n"
      << "  lane accesses  " << t.lane_accesses << "\n"
      << "  wavefronts     " << cost_line(t.wavefronts) << "\n"
      << "  ideal          " << cost_line(t.ideal) << "\n"
      << "  conflicts      " << cost_line(t.conflicts()) << "\n"
      << "  worst degree   " << cost_line(t.worst_degree) << "\n";
  if (not_costed > 0) out << "  not modelled   " << not_costed << " instructions (in no count above)\n";
  if (r.kernel_counter_known && t.fewer_on_kernel_counter > 0 && !costs_unknown(t, not_costed))
    out << "  kernel counter " << t.kernel_counter_wavefronts() << " wavefronts, " << t.kernel_counter_conflicts()
        << " conflicts: what ncu's kernel-level counters (l1tex__data_pipe_lsu_wavefronts_mem_shared*.sum,"
           " l1tex__data_bank_conflicts_pipe_lsu_mem_shared*.sum) report; the counts above are per instruction"
           " (ncu's Source page), which counts a paired 8-byte load's half warps apart (docs/bank-model.md, rule 3)\n";
}

/// The by-site (or by-instruction) and by-round tables.
void write_text_tables(std::ostream& out, const Results& r) {
  std::vector<TextRow> rows;
  bool single_instructions = !r.sites.empty();  // sites that are single instructions: their kind and SASS after the costs
  for (const auto& s : r.sites) single_instructions = single_instructions && !s.op.empty();
  for (const auto& s : r.sites)
    rows.push_back({display_site(s.site), s.totals, count_of(s.unmodelled),
                    (single_instructions ? "  " + s.op + " " + std::to_string(s.width) + (s.sass.empty() ? "" : "  " + s.sass)
                                         : std::string()) +
                        (s.source ? "  [" + source_text(*s.source) + "]" : std::string())});
  text_totals_table(out, single_instructions ? "by instruction" : "by site", single_instructions ? "instruction" : "site",
                    rows, single_instructions);
  rows.clear();
  for (const auto& x : r.rounds) {
    std::string name = "p";
    name.append(std::to_string(x.phase)).append(" ").append(x.site).append(" k=").append(std::to_string(x.k));
    rows.push_back({std::move(name), x.totals, 0, {}});
  }
  text_totals_table(out, "by round (phase, site, k)", "round", rows);
}

/// The worst conflict's line: which bank serves which lanes.
void write_text_worst(std::ostream& out, const WorstRow& w) {
  out << "worst conflict: instruction " << w.index << " (" << display_site(w.site) << ", " << w.op << " " << w.width
      << ")" << (w.location.empty() ? "" : " at " + w.location) << (w.source ? " [" + source_text(*w.source) + "]" : "")
      << ": ";
  if (w.lanes.empty())
    out << w.degree << "-way in no single bank: the copy's read and write stages (docs/bank-model.md, rule 6)\n";
  else if (w.unit == ConflictCulprit::Unit::lanes)
    out << "bank " << w.bank << " serves lanes " << lane_ranges(w.lanes) << " one pass each (" << w.cells.size() << " distinct words)\n";
  else
    out << "bank " << w.bank << " serves " << w.cells.size() << " distinct words to lanes " << lane_ranges(w.lanes) << "\n";
}

}  // namespace

nlohmann::ordered_json totals_json(const CostTotals& t, const Unmodelled& unmodelled) {
  const std::uint64_t not_costed = count_of(unmodelled);
  const bool known = !costs_unknown(t, not_costed);
  const auto or_null = [&](auto v) { return known ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json j = {{"instructions", t.instructions},      {"lane_accesses", t.lane_accesses},
                              {"wavefronts", or_null(t.wavefronts)}, {"ideal", or_null(t.ideal)},
                              {"conflicts", or_null(t.conflicts())},   {"worst_degree", or_null(t.worst_degree)},
                              {"modelled", not_costed == 0}};
  j["unmodelled"] = nlohmann::ordered_json::object();
  for (const auto& [kind, c] : unmodelled)
    j["unmodelled"][kind] = {{"instructions", c.instructions}, {"lane_accesses", c.lane_accesses}};
  return j;
}

nlohmann::ordered_json instruction_json(const InstructionRow& r) {
  const auto or_null = [&](auto v) { return r.cost.modelled ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json j = instruction_identity_json(r);
  j["wavefronts"] = or_null(r.cost.wavefronts);
  j["ideal"] = or_null(r.cost.ideal);
  j["conflicts"] = or_null(r.cost.conflicts());
  j["worst_degree"] = or_null(r.cost.degree);
  j["modelled"] = r.cost.modelled;
  if (!r.bank_words.empty()) j["bank_words"] = r.bank_words;
  if (!r.sass.empty()) j["sass"] = r.sass;
  if (r.source) j["source"] = source_json(*r.source);
  return j;
}

nlohmann::ordered_json worst_json(const WorstRow& r) {
  nlohmann::ordered_json j = {{"index", r.index},
          {"location", r.location},
          {"site", r.site},
          {"op", r.op},
          {"width", r.width},
          {"degree", r.degree},
          {"bank", r.lanes.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.bank)},
          {"lanes", r.lanes},
          {"cells", r.cells},
          {"piles_up", r.unit == ConflictCulprit::Unit::lanes ? "lanes" : "words"}};
  if (r.source) j["source"] = source_json(*r.source);
  return j;
}

ResultsWriter::ResultsWriter(std::ostream& out, Format format, bool per_instruction)
    : out_(out), format_(format), per_instruction_(per_instruction) {}

void ResultsWriter::start() {
  if (started_) return;
  started_ = true;
  switch (format_) {
    case Format::csv: out_ << kCsvHeader << "\n"; break;
    case Format::json:
      if (per_instruction_) out_ << "{\n  \"schema_version\": " << kSchemaVersion << ",\n  \"instructions\": [";
      break;
    case Format::text:
      if (per_instruction_)
        out_ << std::setw(10) << "index" << "  " << std::setw(16) << "site" << "  op  width  active  wavefronts"
             << "  ideal  conflicts  degree  location\n";
      break;
  }
}

void ResultsWriter::instruction(const InstructionRow& r) {
  start();
  if (r.global) {  // gld/gst: sectors, not wavefronts
    switch (format_) {
      case Format::csv: write_global_instruction_csv(out_, r); break;
      case Format::json: out_ << (rows_ ? ",\n    " : "\n    ") << global_instruction_json(r).dump(); break;
      case Format::text: write_global_instruction_text(out_, r); break;
    }
    ++rows_;
    return;
  }
  switch (format_) {
    case Format::csv:
      out_ << "instruction," << csv_field(r.site) << ',' << r.index << ',' << csv_field(r.location) << ',' << r.op
           << ',' << r.width << ",,,1," << r.active << ',';
      if (r.cost.modelled)
        out_ << r.cost.wavefronts << ',' << r.cost.ideal << ',' << r.cost.conflicts() << ',' << r.cost.degree;
      else
        out_ << ",,,";
      out_ << ',' << bank_words_csv(r.bank_words) << ',' << csv_field(r.sass) << ',' << csv_field(source_cell(r.source))
           << ',' << csv_modelled(r.cost.modelled ? 0 : 1) << '\n';
      break;
    case Format::json: out_ << (rows_ ? ",\n    " : "\n    ") << instruction_json(r).dump(); break;
    case Format::text:
      out_ << std::setw(10) << r.index << "  " << std::setw(16) << display_site(r.site) << "  " << r.op << "  "
           << std::setw(5) << r.width << "  " << std::setw(6) << r.active << "  ";
      if (r.cost.modelled)
        out_ << std::setw(10) << r.cost.wavefronts << "  " << std::setw(5) << r.cost.ideal << "  " << std::setw(9)
             << r.cost.conflicts() << "  " << std::setw(6) << r.cost.degree;
      else
        out_ << std::setw(36) << "not modelled";
      out_ << "  " << r.location;
      if (!r.bank_words.empty()) out_ << "  banks " << bank_words_text(r.bank_words);
      if (!r.sass.empty()) out_ << "  " << r.sass;
      if (r.source) out_ << "  [" << source_text(*r.source) << "]";
      out_ << '\n';
      break;
  }
  ++rows_;
}

void ResultsWriter::finish(const Results& r) {
  if (r.worst)
    if (const std::string why = impossible_worst(*r.worst, r.warp); !why.empty())
      throw std::logic_error("results: impossible worst conflict (instruction " + std::to_string(r.worst->index) +
                             "): " + why);
  start();
  switch (format_) {
    case Format::csv: finish_csv(r); break;
    case Format::json: finish_json(r); break;
    case Format::text: finish_text(r); break;
  }
  out_.flush();
}

void ResultsWriter::finish_text(const Results& r) {
  if (per_instruction_) out_ << "\n";
  for (const auto& line : r.header) out_ << line << "\n";
  const CostTotals& t = r.totals;
  write_text_totals(out_, r);
  write_text_tables(out_, r);
  write_global_text(out_, r);
  if (!r.notes.empty()) out_ << "\n";
  for (const auto& line : r.notes) out_ << line << "\n";
  out_ << "\nverdict: " << verdict_line(r) << "\n";
  if (r.timing && t.wavefronts > 0)
    out_ << "time: " << t.wavefronts << " wavefronts keep an SM's shared-memory pipe busy about "
         << static_cast<double>(t.wavefronts) * r.timing->cycles_per_wavefront << " cycles, "
         << static_cast<double>(t.conflicts()) * r.timing->cycles_per_wavefront
         << " of them for conflicts (measured: " << r.timing->cycles_per_wavefront
         << " cycle per wavefront; a dependent load waits " << r.timing->load_cycles_per_extra
         << " cycles more per extra wavefront)\n";
  for (const auto& [kind, c] : r.unmodelled)
    out_ << c.instructions << " instructions of kind " << kind << " not modelled (" << c.lane_accesses
         << " lane accesses; their conflicts are unknown)\n";
  if (r.worst) write_text_worst(out_, *r.worst);
  if (r.fail_on_conflicts && verdict_of(t) != Verdict::no_accesses) {
    out_ << "gate: --fail-on-conflicts=" << *r.fail_on_conflicts << ": ";
    if (gate_passes(r)) out_ << "passed (" << t.conflicts() << " conflicts)\n";
    else out_ << "FAILED (" << exit_reason(r).substr(std::string("--fail-on-conflicts: ").size()) << ")\n";
  }
}

void ResultsWriter::finish_csv(const Results& r) {
  const std::uint64_t not_costed = unmodelled_instructions(r);
  out_ << "total,,,,,,,," << csv_costs(r.totals, not_costed) << ",,,," << csv_modelled(not_costed) << "\n";
  for (const auto& s : r.sites)
    out_ << "site," << csv_field(s.site) << ",,," << s.op << ',' << (s.op.empty() ? "" : std::to_string(s.width)) << ",,,"
         << csv_costs(s.totals, count_of(s.unmodelled)) << ",," << csv_field(s.sass) << ','
         << csv_field(source_cell(s.source)) << ',' << csv_modelled(count_of(s.unmodelled)) << "\n";
  for (const auto& x : r.rounds)
    out_ << "round," << csv_field(x.site) << ",,,,," << x.phase << ',' << x.k << ',' << csv_costs(x.totals, 0) << ",,,,"
         << csv_modelled(0) << "\n";
  for (const auto& [kind, c] : r.unmodelled)
    out_ << "unmodelled," << csv_field(kind) << ",,,,,,," << c.instructions << ',' << c.lane_accesses << ",,,,,,,,"
         << csv_modelled(c.instructions) << "\n";
  write_global_csv(out_, r);
  if (r.worst)
    out_ << "worst," << csv_field(r.worst->site) << ',' << r.worst->index << ',' << csv_field(r.worst->location) << ','
         << r.worst->op << ',' << r.worst->width << ",,,1,,,,," << r.worst->degree << ",,,"
         << csv_field(source_cell(r.worst->source)) << ',' << csv_modelled(0) << "\n";
}

void ResultsWriter::finish_json(const Results& r) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = kSchemaVersion;
  doc["command"] = r.command;
  doc["model"] = r.model;
  doc["model_description"] = r.model_description;
  doc["warp"] = r.warp;
  doc["inputs"] = r.inputs;
  if (!r.selected_sites.empty()) doc["selected_sites"] = r.selected_sites;
  doc["totals"] = totals_json(r.totals, r.unmodelled);
  if (r.kernel_counter_known && !costs_unknown(r.totals, count_of(r.unmodelled)))
    doc["totals"]["kernel_counter"] = {{"wavefronts", r.totals.kernel_counter_wavefronts()},
                                       {"conflicts", r.totals.kernel_counter_conflicts()}};
  if (r.timing) {
    const double c = r.timing->cycles_per_wavefront;
    nlohmann::ordered_json time = {{"cycles_per_wavefront", c},
                                   {"pipe_cycles", static_cast<double>(r.totals.wavefronts) * c},
                                   {"conflict_cycles", static_cast<double>(r.totals.conflicts()) * c},
                                   {"load_cycles_per_extra_wavefront", r.timing->load_cycles_per_extra},
                                   {"source", std::string(r.timing->source)}};
    nlohmann::ordered_json sites = nlohmann::ordered_json::array();
    for (const auto& s : r.sites) {
      const bool known = !costs_unknown(s.totals, count_of(s.unmodelled));
      const auto cycles = [&](std::uint64_t n) {
        return known ? nlohmann::ordered_json(static_cast<double>(n) * c) : nlohmann::ordered_json(nullptr);
      };
      sites.push_back({{"site", s.site}, {"pipe_cycles", cycles(s.totals.wavefronts)},
                       {"conflict_cycles", cycles(s.totals.conflicts())}});
    }
    time["sites"] = sites;
    doc["time"] = time;
  }
  if (r.global.instructions > 0) doc["global"] = global_json(r);
  doc["verdict"] = verdict_name(verdict_of(r));
  doc["sites"] = nlohmann::ordered_json::array();
  for (const auto& s : r.sites) {
    nlohmann::ordered_json site = {{"site", s.site}, {"totals", totals_json(s.totals, s.unmodelled)}};
    if (!s.op.empty()) site["op"] = s.op, site["width"] = s.width;
    if (!s.sass.empty()) site["sass"] = s.sass;
    if (s.source) site["source"] = source_json(*s.source);
    doc["sites"].push_back(site);
  }
  if (!r.rounds.empty()) {
    doc["rounds"] = nlohmann::ordered_json::array();
    for (const auto& x : r.rounds)
      doc["rounds"].push_back({{"phase", x.phase}, {"k", x.k}, {"site", x.site}, {"totals", totals_json(x.totals)}});
  }
  doc["worst"] = r.worst ? worst_json(*r.worst) : nlohmann::ordered_json(nullptr);
  if (r.fail_on_conflicts)
    doc["gate"] = {{"fail_on_conflicts", *r.fail_on_conflicts}, {"passed", gate_passes(r)}};
  for (const auto& [key, value] : r.extra.items()) doc[key] = value;
  if (!per_instruction_) {
    out_ << doc.dump(2) << "\n";
    return;
  }
  // The opening and the instruction rows are out already: close the array, then the rest.
  doc.erase("schema_version");
  const std::string rest = doc.dump(2);  // "{\n  \"command\": ...\n}"
  out_ << (rows_ ? "\n  ],\n" : "],\n") << rest.substr(2) << "\n";
}

}  // namespace bankcheck::report
