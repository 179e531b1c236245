#include "sim/report/global_section.hpp"

#include <algorithm>
#include <iomanip>

#include "sim/report/csv.hpp"
#include "sim/report/results_writer.hpp"

namespace bankcheck::report {
namespace {

/// CSV columns from `instructions` on, for global scopes: wavefronts holds
/// sectors, ideal the ideal sectors, conflicts the excess, worst_degree the
/// pages and bank_words the lines (docs/results-schema.md, "Global memory").
std::string csv_global(std::uint64_t instructions, std::uint64_t lanes, const GlobalCost& c) {
  return std::to_string(instructions) + "," + std::to_string(lanes) + "," + std::to_string(c.sectors) + "," +
         std::to_string(c.ideal_sectors) + "," + std::to_string(c.excess_sectors()) + "," + std::to_string(c.pages) +
         "," + std::to_string(c.lines);
}

GlobalCost as_cost(const GlobalTotals& t) { return GlobalCost{t.sectors, t.ideal_sectors, t.lines, t.pages}; }

}  // namespace

nlohmann::ordered_json global_totals_json(const GlobalTotals& t) {
  return {{"instructions", t.instructions},   {"loads", t.loads},
          {"stores", t.instructions - t.loads}, {"lane_accesses", t.lane_accesses},
          {"sectors", t.sectors},             {"ideal_sectors", t.ideal_sectors},
          {"excess_sectors", t.excess_sectors()}, {"lines", t.lines},
          {"pages", t.pages}};
}

nlohmann::ordered_json global_instruction_json(const InstructionRow& r) {
  const GlobalCost& c = *r.global;
  nlohmann::ordered_json j = instruction_identity_json(r);
  j["sectors"] = c.sectors;
  j["ideal_sectors"] = c.ideal_sectors;
  j["excess_sectors"] = c.excess_sectors();
  j["lines"] = c.lines;
  j["pages"] = c.pages;
  j["modelled"] = true;
  if (!r.sass.empty()) j["sass"] = r.sass;
  if (r.source) j["source"] = source_json(*r.source);
  return j;
}

void write_global_instruction_text(std::ostream& out, const InstructionRow& r) {
  const GlobalCost& c = *r.global;
  out << std::setw(10) << r.index << "  " << std::setw(16) << display_site(r.site) << "  " << r.op << "  "
      << std::setw(4) << r.width << "  " << std::setw(6) << r.active << "  " << std::setw(10) << "-" << "  "
      << std::setw(5) << "-" << "  " << std::setw(9) << "-" << "  " << std::setw(6) << "-" << "  " << r.location
      << "  sectors " << c.sectors << " ideal " << c.ideal_sectors << " lines " << c.lines << " pages " << c.pages;
  if (!r.sass.empty()) out << "  " << r.sass;
  if (r.source) out << "  [" << source_text(*r.source) << "]";
  out << '\n';
}

void write_global_instruction_csv(std::ostream& out, const InstructionRow& r) {
  out << "global-instruction," << csv_field(r.site) << ',' << r.index << ',' << csv_field(r.location) << ',' << r.op
      << ',' << r.width << ",,," << csv_global(1, r.active, *r.global) << ',' << csv_field(r.sass) << ','
      << csv_field(source_cell(r.source)) << ",true,0\n";
}

nlohmann::ordered_json global_json(const Results& r) {
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const auto& s : r.global_sites) sites.push_back({{"site", s.site}, {"totals", global_totals_json(s.totals)}});
  return {{"geometry", {{"sector_bytes", 32}, {"line_bytes", 128}, {"page_elements", r.page_elements}}},
          {"totals", global_totals_json(r.global)},
          {"sites", sites}};
}

void write_global_text(std::ostream& out, const Results& r) {
  if (r.global.instructions == 0) return;
  const GlobalTotals& t = r.global;
  out << "\nglobal memory (32-byte sectors, 128-byte lines, Karsin pages of " << r.page_elements
      << " elements; not in the totals above)\n"
      << "  instructions   " << t.instructions << " (" << t.loads << " gld, " << t.instructions - t.loads << " gst or gatom)\n"
      << "  lane accesses  " << t.lane_accesses << "\n"
      << "  sectors        " << t.sectors << "\n"
      << "  ideal sectors  " << t.ideal_sectors << "\n"
      << "  excess sectors " << t.excess_sectors() << "\n"
      << "  lines          " << t.lines << "\n"
      << "  pages          " << t.pages << "\n";
  std::size_t width = 4;
  for (const auto& s : r.global_sites) width = std::max(width, display_site(s.site).size());
  const int w = static_cast<int>(width);
  out << "\nglobal by site\n  " << std::left << std::setw(w) << "site" << std::right
      << "  instructions  lane_accesses       sectors  ideal_sectors         lines         pages\n";
  for (const auto& s : r.global_sites)
    out << "  " << std::left << std::setw(w) << display_site(s.site) << std::right << "  " << std::setw(12)
        << s.totals.instructions << "  " << std::setw(13) << s.totals.lane_accesses << "  " << std::setw(12)
        << s.totals.sectors << "  " << std::setw(13) << s.totals.ideal_sectors << "  " << std::setw(12)
        << s.totals.lines << "  " << std::setw(12) << s.totals.pages << "\n";
}

void write_global_csv(std::ostream& out, const Results& r) {
  if (r.global.instructions == 0) return;
  out << "global-total,,,,,,,," << csv_global(r.global.instructions, r.global.lane_accesses, as_cost(r.global))
      << ",,,true,0\n";
  for (const auto& s : r.global_sites)
    out << "global-site," << csv_field(s.site) << ",,,,,,,"
        << csv_global(s.totals.instructions, s.totals.lane_accesses, as_cost(s.totals)) << ",,,true,0\n";
}

std::string global_only_line(const Results& r) {
  return "no shared-memory access; " + std::to_string(r.global.instructions) + " global instructions cost " +
         std::to_string(r.global.sectors) + " sectors (ideal " + std::to_string(r.global.ideal_sectors) +
         "), see the global-memory section";
}

}  // namespace bankcheck::report
