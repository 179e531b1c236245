#include "sim/report/results_writer.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "sim/report/global_section.hpp"

namespace bankcheck::report {
namespace {

std::string display_site(const std::string& s) { return s.empty() ? "(none)" : s; }

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

std::string percent(std::uint64_t part, std::uint64_t whole) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(part) / static_cast<double>(whole) << "%";
  return s.str();
}

/// The cost columns shared by every CSV row.
std::string csv_costs(const CostTotals& t) {
  return std::to_string(t.instructions) + "," + std::to_string(t.lane_accesses) + "," + std::to_string(t.wavefronts) +
         "," + std::to_string(t.ideal) + "," + std::to_string(t.conflicts) + "," + std::to_string(t.worst_degree);
}

void text_totals_table(std::ostream& out, const std::string& title, const std::string& first_column,
                       const std::vector<std::pair<std::string, CostTotals>>& rows,
                       const std::vector<std::string>& suffixes = {}) {
  if (rows.empty()) return;
  std::size_t width = first_column.size();
  for (const auto& [name, t] : rows) width = std::max(width, name.size());
  const int w = static_cast<int>(width);
  out << "\n" << title << "\n  " << std::left << std::setw(w) << first_column << std::right
      << "  instructions  lane_accesses    wavefronts         ideal     conflicts  worst_degree"
      << (suffixes.empty() ? "" : "  kind  sass") << "\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& [name, x] = rows[i];
    out << "  " << std::left << std::setw(w) << name << std::right << "  " << std::setw(12) << x.instructions << "  "
        << std::setw(13) << x.lane_accesses << "  " << std::setw(12) << x.wavefronts << "  " << std::setw(12)
        << x.ideal << "  " << std::setw(12) << x.conflicts << "  " << std::setw(12) << x.worst_degree
        << (suffixes.empty() ? std::string() : suffixes[i]) << "\n";
  }
}

}  // namespace

nlohmann::ordered_json totals_json(const CostTotals& t, const Unmodelled& unmodelled) {
  nlohmann::ordered_json j = {{"instructions", t.instructions}, {"lane_accesses", t.lane_accesses},
                              {"wavefronts", t.wavefronts},     {"ideal", t.ideal},
                              {"conflicts", t.conflicts},       {"worst_degree", t.worst_degree}};
  j["unmodelled"] = nlohmann::ordered_json::object();
  for (const auto& [kind, c] : unmodelled)
    j["unmodelled"][kind] = {{"instructions", c.instructions}, {"lane_accesses", c.lane_accesses}};
  return j;
}

nlohmann::ordered_json instruction_json(const InstructionRow& r) {
  nlohmann::ordered_json j = {{"index", r.index},       {"location", r.location},
                              {"site", r.site},         {"op", r.op},
                              {"width", r.width},       {"lane_accesses", r.active},
                              {"wavefronts", r.cost.wavefronts}, {"ideal", r.cost.ideal},
                              {"conflicts", r.cost.conflicts},   {"worst_degree", r.cost.degree}};
  if (!r.bank_words.empty()) j["bank_words"] = r.bank_words;
  if (!r.sass.empty()) j["sass"] = r.sass;
  return j;
}

nlohmann::ordered_json worst_json(const WorstRow& r) {
  return {{"index", r.index}, {"location", r.location}, {"site", r.site},   {"op", r.op},
          {"width", r.width}, {"degree", r.degree},     {"bank", r.bank},   {"lanes", r.lanes},
          {"cells", r.cells}};
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
  return std::to_string(t.conflicts) + " of " + std::to_string(t.wavefronts) + " wavefronts are bank conflicts (" +
         percent(t.conflicts, t.wavefronts) + "); worst " + std::to_string(t.worst_degree) + "-way";
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
           << ',' << r.width << ",,,1," << r.active << ',' << r.cost.wavefronts << ',' << r.cost.ideal << ','
           << r.cost.conflicts << ',' << r.cost.degree << ',' << bank_words_csv(r.bank_words) << ','
           << csv_field(r.sass) << '\n';
      break;
    case Format::json: out_ << (rows_ ? ",\n    " : "\n    ") << instruction_json(r).dump(); break;
    case Format::text:
      out_ << std::setw(10) << r.index << "  " << std::setw(16) << display_site(r.site) << "  " << r.op << "  "
           << std::setw(5) << r.width << "  " << std::setw(6) << r.active << "  " << std::setw(10)
           << r.cost.wavefronts << "  " << std::setw(5) << r.cost.ideal << "  " << std::setw(9) << r.cost.conflicts
           << "  " << std::setw(6) << r.cost.degree << "  " << r.location;
      if (!r.bank_words.empty()) out_ << "  banks " << bank_words_text(r.bank_words);
      if (!r.sass.empty()) out_ << "  " << r.sass;
      out_ << '\n';
      break;
  }
  ++rows_;
}

void ResultsWriter::finish(const Results& r) {
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
  out_ << (r.header.empty() ? "" : "\n") << "totals" << (r.selected_sites.empty() ? "" : " (selected sites)") << "\n"
       << "  instructions   " << t.instructions << "\n"
       << "  lane accesses  " << t.lane_accesses << "\n"
       << "  wavefronts     " << t.wavefronts << "\n"
       << "  ideal          " << t.ideal << "\n"
       << "  conflicts      " << t.conflicts << "\n"
       << "  worst degree   " << t.worst_degree << "\n";
  std::vector<std::pair<std::string, CostTotals>> rows;
  std::vector<std::string> kinds;  // sites that are single instructions: their kind and SASS after the costs
  for (const auto& s : r.sites) {
    rows.emplace_back(display_site(s.site), s.totals);
    if (!s.op.empty()) kinds.push_back("  " + s.op + " " + std::to_string(s.width) + (s.sass.empty() ? "" : "  " + s.sass));
  }
  if (kinds.size() != rows.size()) kinds.clear();
  text_totals_table(out_, kinds.empty() ? "by site" : "by instruction", kinds.empty() ? "site" : "instruction", rows,
                    kinds);
  rows.clear();
  for (const auto& x : r.rounds) {
    std::string name = "p";
    name.append(std::to_string(x.phase)).append(" ").append(x.site).append(" k=").append(std::to_string(x.k));
    rows.emplace_back(std::move(name), x.totals);
  }
  text_totals_table(out_, "by round (phase, site, k)", "round", rows);
  write_global_text(out_, r);
  if (!r.notes.empty()) out_ << "\n";
  for (const auto& line : r.notes) out_ << line << "\n";
  out_ << "\nverdict: " << verdict_line(r) << "\n";
  if (r.timing && t.wavefronts > 0)
    out_ << "time: " << t.wavefronts << " wavefronts keep an SM's shared-memory pipe busy about "
         << static_cast<double>(t.wavefronts) * r.timing->cycles_per_wavefront << " cycles, "
         << static_cast<double>(t.conflicts) * r.timing->cycles_per_wavefront
         << " of them for conflicts (measured: " << r.timing->cycles_per_wavefront
         << " cycle per wavefront; a dependent load waits " << r.timing->load_cycles_per_extra
         << " cycles more per extra wavefront)\n";
  for (const auto& [kind, c] : r.unmodelled)
    out_ << c.instructions << " instructions of kind " << kind << " not modelled (" << c.lane_accesses
         << " lane accesses; their conflicts are unknown)\n";
  if (r.worst)
    out_ << "worst conflict: instruction " << r.worst->index << " (" << display_site(r.worst->site) << ", "
         << r.worst->op << " " << r.worst->width << ")" << (r.worst->location.empty() ? "" : " at " + r.worst->location)
         << ": bank " << r.worst->bank << " serves " << r.worst->cells.size() << " distinct words to lanes "
         << lane_ranges(r.worst->lanes) << "\n";
  if (r.fail_on_conflicts && verdict_of(t) != Verdict::no_accesses) {
    out_ << "gate: --fail-on-conflicts=" << *r.fail_on_conflicts << ": ";
    if (gate_passes(r)) out_ << "passed (" << t.conflicts << " conflicts)\n";
    else out_ << "FAILED (" << exit_reason(r).substr(std::string("--fail-on-conflicts: ").size()) << ")\n";
  }
}

void ResultsWriter::finish_csv(const Results& r) {
  out_ << "total,,,,,,,," << csv_costs(r.totals) << ",,\n";
  for (const auto& s : r.sites)
    out_ << "site," << csv_field(s.site) << ",,," << s.op << ',' << (s.op.empty() ? "" : std::to_string(s.width)) << ",,,"
         << csv_costs(s.totals) << ",," << csv_field(s.sass) << "\n";
  for (const auto& x : r.rounds)
    out_ << "round," << csv_field(x.site) << ",,,,," << x.phase << ',' << x.k << ',' << csv_costs(x.totals) << ",,\n";
  for (const auto& [kind, c] : r.unmodelled)
    out_ << "unmodelled," << csv_field(kind) << ",,,,,,," << c.instructions << ',' << c.lane_accesses << ",,,,,,\n";
  write_global_csv(out_, r);
  if (r.worst)
    out_ << "worst," << csv_field(r.worst->site) << ',' << r.worst->index << ',' << csv_field(r.worst->location) << ','
         << r.worst->op << ',' << r.worst->width << ",,,1,,,,," << r.worst->degree << ",,\n";
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
  if (r.timing) {
    const double c = r.timing->cycles_per_wavefront;
    nlohmann::ordered_json time = {{"cycles_per_wavefront", c},
                                   {"pipe_cycles", static_cast<double>(r.totals.wavefronts) * c},
                                   {"conflict_cycles", static_cast<double>(r.totals.conflicts) * c},
                                   {"load_cycles_per_extra_wavefront", r.timing->load_cycles_per_extra},
                                   {"source", std::string(r.timing->source)}};
    nlohmann::ordered_json sites = nlohmann::ordered_json::array();
    for (const auto& s : r.sites)
      sites.push_back({{"site", s.site}, {"pipe_cycles", static_cast<double>(s.totals.wavefronts) * c},
                       {"conflict_cycles", static_cast<double>(s.totals.conflicts) * c}});
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
