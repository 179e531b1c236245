#include "sim/html/html_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "model/shared_timing.hpp"
#include "sim/draw/html_escape.hpp"
#include "sim/html/instruction_grid.hpp"
#include "sim/html/page_assets.hpp"

namespace bankcheck::html {

namespace {

/// Lines shown around each line with instructions.
constexpr std::uint32_t kContext = 2;

/// The wanted lines of a source file, where it can be read here.
nlohmann::ordered_json file_lines(const std::string& path, const std::set<std::uint32_t>& wanted) {
  nlohmann::ordered_json j = {{"found", false}, {"lines", nlohmann::ordered_json::object()}};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > kMaxSourceBytes) return j;
  std::ifstream in(path);
  if (!in) return j;
  j["found"] = true;
  std::string line;
  for (std::uint32_t n = 1; std::getline(in, line); ++n) {
    const auto it = wanted.lower_bound(n > kContext ? n - kContext : 1);
    if (it != wanted.end() && *it <= n + kContext) j["lines"][std::to_string(n)] = line;
  }
  return j;
}

nlohmann::ordered_json instruction_data(const ReportInstruction& i, std::size_t kernel, const BankModel& model) {
  nlohmann::ordered_json j = {{"kernel", kernel}, {"site", i.site}, {"op", i.op}, {"width", i.width}, {"sass", i.sass}};
  j["source"] = i.source ? report::source_text(*i.source) : "";
  j["file"] = i.source && i.source->at ? nlohmann::ordered_json(i.source->at->file) : nlohmann::ordered_json(nullptr);
  j["line"] = i.source && i.source->at ? nlohmann::ordered_json(i.source->at->line) : nlohmann::ordered_json(nullptr);
  j["executions"] = i.totals.instructions + i.unmodelled;
  const bool costed = i.totals.instructions > 0;
  const auto cost = [&](std::uint64_t v) { return costed ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  j["wavefronts"] = cost(i.totals.wavefronts);
  j["ideal"] = cost(i.totals.ideal);
  j["conflicts"] = cost(i.totals.conflicts());
  j["degree"] = cost(i.totals.worst_degree);
  j["not_modelled"] = i.unmodelled;
  j["verdict"] = i.verdict;
  j["measured"] = i.measured_wavefronts ? nlohmann::ordered_json(*i.measured_wavefronts) : nlohmann::ordered_json(nullptr);
  j["grid"] = i.worst.present ? grid_json(model, i.worst)
                              : nlohmann::ordered_json{{"none", i.unmodelled > 0 && !costed
                                                                    ? "not modelled: the model has no rule for this kind"
                                                                    : "the input holds no lane addresses for it"}};
  return j;
}

}  // namespace

nlohmann::ordered_json report_data(const ReportInput& input, const BankModel& model) {
  const double cycles = shared_timing(model.name()) ? shared_timing(model.name())->cycles_per_wavefront : 1.0;
  // Kernels in order of first appearance, then ranked by their conflicts' cycles.
  std::vector<std::string> names;
  std::map<std::string, CostTotals> totals;
  for (const ReportInstruction& i : input.instructions) {
    if (!totals.count(i.kernel)) names.push_back(i.kernel);
    totals[i.kernel] += i.totals;
  }
  std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    return totals[a].conflicts() > totals[b].conflicts();
  });
  nlohmann::ordered_json doc;
  doc["title"] = input.title;
  doc["model"] = model.describe();
  doc["cycles_per_wavefront"] = cycles;
  doc["context"] = kContext;
  doc["notes"] = input.notes;
  doc["kernels"] = nlohmann::ordered_json::array();
  doc["instructions"] = nlohmann::ordered_json::array();
  std::map<std::string, std::set<std::uint32_t>> wanted;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    nlohmann::ordered_json kernel = {{"rank", k + 1}, {"name", name}};
    const auto launches = input.launches.find(name);
    std::uint64_t executions = 0, not_modelled = 0, sites = 0;
    std::map<std::string, std::uint64_t> verdicts;
    kernel["instructions"] = nlohmann::ordered_json::array();
    for (const ReportInstruction& i : input.instructions) {
      if (i.kernel != name) continue;
      ++sites;
      executions += i.totals.instructions + i.unmodelled;
      not_modelled += i.unmodelled;
      if (!i.verdict.empty()) ++verdicts[i.verdict.substr(0, i.verdict.find(" ("))];
      if (i.source && i.source->at) wanted[i.source->at->file].insert(i.source->at->line);
      kernel["instructions"].push_back(doc["instructions"].size());
      doc["instructions"].push_back(instruction_data(i, k, model));
    }
    std::string verdict_text, notes;
    for (const auto& [v, n] : verdicts) verdict_text += (verdict_text.empty() ? "" : ", ") + v + " " + std::to_string(n);
    if (const auto it = input.kernel_notes.find(name); it != input.kernel_notes.end())
      for (const std::string& n : it->second) notes += (notes.empty() ? "" : "; ") + n;
    const CostTotals& t = totals[name];
    kernel["launches"] = launches == input.launches.end() ? 1 : launches->second;
    kernel["sites"] = sites;
    kernel["executions"] = executions;
    kernel["wavefronts"] = t.wavefronts;
    kernel["ideal"] = t.ideal;
    kernel["conflicts"] = t.conflicts();
    kernel["conflict_cycles"] = static_cast<double>(t.conflicts()) * cycles;
    kernel["verdicts"] = verdict_text;
    kernel["not_modelled"] = not_modelled;
    kernel["notes"] = notes;
    doc["kernels"].push_back(kernel);
  }
  doc["files"] = nlohmann::ordered_json::object();
  for (const auto& [file, lines] : wanted) doc["files"][file] = file_lines(file, lines);
  return doc;
}

std::string report_html(const ReportInput& input, const BankModel& model) {
  // Source files and names need not be UTF-8: bytes that are not are shown as U+FFFD, never a failure.
  std::string data = report_data(input, model).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  // A "</" inside the data would close its script element; "<\/" is the same JSON string.
  for (std::size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3) data.replace(at, 2, "<\\/");
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>bankcheck report: " +
                     html_escape(input.title) + "</title>\n<style>" + std::string(page_style()) + "</style>\n</head>\n<body>\n";
  page += R"HTML(<header>
<h1>bankcheck report</h1>
<p class="meta" id="title"></p>
<p class="meta" id="model"></p>
<p class="keys">Keys: j / k or the arrows move, Enter opens, / filters, Esc goes back. Cells: &#x2715; and hatching mark a conflict.</p>
</header>
<section id="kernels-section">
<h2>Kernels, by the cycles their conflicts cost</h2>
<input class="filter" id="kernel-filter" type="search" placeholder="filter kernels (words)" aria-label="filter kernels">
<table class="data" id="kernels"></table>
<ul id="notes"></ul>
</section>
<section id="kernel-section" hidden>
<p class="back"><button type="button" id="back">&larr; all kernels</button></p>
<h2 id="kernel-title"></h2>
<p class="meta" id="kernel-facts"></p>
<section id="grid-section" hidden>
<h3>Worst execution: <span id="grid-title"></span></h3>
<div class="legend"><span>lanes in a cell: the lanes touching that word</span><span>&#x2715; conflict: a bank holding two or more distinct words</span><span>bank (words): words the bank serves, over the phases</span></div>
<div class="facts" id="grid-facts"></div>
<div class="grid-wrap" id="grid"></div>
</section>
<h3>Source lines</h3>
<div id="source"></div>
<h3>Instructions</h3>
<input class="filter" id="instruction-filter" type="search" placeholder="filter instructions (words)" aria-label="filter instructions">
<table class="data" id="instructions"></table>
</section>
)HTML";
  page += "<script type=\"application/json\" id=\"report-data\">" + data + "</script>\n<script>" +
          std::string(page_script()) + "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace bankcheck::html
