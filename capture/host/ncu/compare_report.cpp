#include "capture/host/ncu/compare_report.hpp"

#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "capture/host/csv.hpp"
#include "capture/host/ring/function_map.hpp"
#include "sim/report/source_line.hpp"

namespace bankcheck::capture {
namespace {

nlohmann::json row_json(const CompareRow& r) {
  nlohmann::json row = {{"launch", r.launch}, {"kernel", r.kernel}, {"offset", r.offset}, {"sass", r.sass},
                        {"executions", r.measured_executed}, {"model_executions", r.model_executed},
                        {"model_wavefronts", r.model_wavefronts}, {"model_ideal", r.model_ideal}, {"measured_wavefronts", r.measured_wavefronts},
                        {"modelled", r.modelled}, {"equal", r.equal()}, {"runs_differ", r.runs_differ()},
                        {"verdict", verdict_name(r.verdict())}, {"verdict_text", r.verdict_text()}};
  if (!r.detail.empty()) row["detail"] = r.detail;
  if (r.source) row["source"] = report::source_json(*r.source);
  if (r.global) {
    row["global"] = true;
    row["model_sectors"] = r.model_sectors;
    row["measured_sectors"] = r.measured_sectors;
    row["model_ideal_sectors"] = r.model_ideal_sectors;
    row["measured_ideal_sectors"] = r.measured_ideal_sectors;
  }
  return row;
}

/// The text table's rows: launch, offset, SASS, executions, model and measured wavefronts (sectors for global
/// rows), the verdict, the detail and the source line.
void write_text_rows(std::ostream& out, const CompareResult& result) {
  out << std::setw(6) << "launch" << "  " << std::setw(8) << "offset" << "  " << std::left << std::setw(40) << "sass"
      << std::right << "  " << std::setw(10) << "executions" << "  " << std::setw(10) << "model_wf" << "  "
      << std::setw(10) << "measured" << "  equal\n";
  for (const auto& r : result.rows) {
    std::ostringstream off;
    off << "0x" << std::hex << r.offset;
    out << std::setw(6) << r.launch << "  " << std::setw(8) << off.str() << "  " << std::left << std::setw(40)
        << r.sass.substr(0, 40) << std::right << "  " << std::setw(10) << r.measured_executed << "  " << std::setw(10)
        << (r.global ? r.model_sectors : r.model_wavefronts) << "  " << std::setw(10)
        << (r.global ? r.measured_sectors : r.measured_wavefronts) << "  " << r.verdict_text()
        << (r.detail.empty() ? "" : "  [" + r.detail + "]") << (r.source ? "  " + report::source_text(*r.source) : "")
        << "\n";
  }
}

/// The CSV cell of the layout offered for a row's buffer, when the row is one of its conflicting instructions.
std::string offer_cell(const CompareResult& result, const CompareRow& r) {
  for (const auto& o : result.offers) {
    if (o.launch != r.launch) continue;
    for (const std::string& site : o.conflicting)
      if (const auto ref = parse_site_name(site); ref && ref->offset == r.offset) return report::offer_cell(o);
  }
  return "";
}

}  // namespace

void write_compare_json(std::ostream& out, const CompareResult& result, const CompareInputs& inputs) {
  const auto counts = result.verdict_counts();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : result.rows) rows.push_back(row_json(r));
  nlohmann::json verdicts = nlohmann::json::object();
  for (unsigned v = 0; v < kVerdicts; ++v)
    verdicts[verdict_name(static_cast<Verdict>(v))] = counts[v];
  nlohmann::json uncompared = nlohmann::json::array();
  for (const auto& u : result.uncompared)
    uncompared.push_back({{"launch", u.launch}, {"kernel", u.kernel}, {"reason", u.reason}});
  nlohmann::json suggestions = nlohmann::json::array();
  for (const auto& o : result.offers) suggestions.push_back(report::offer_json(o));
  out << nlohmann::json{{"ncu", inputs.ncu}, {"model", inputs.model}, {"all_equal", result.all_equal()},
                        {"ncu_blocks_printed_twice", inputs.ncu_blocks_printed_twice},
                        {"compared_launches", result.compared_launches}, {"verdicts", verdicts},
                        {"uncompared", uncompared}, {"rows", rows}, {"suggestions", suggestions},
                        {"notes", result.notes}}
             .dump(2)
      << "\n";
}

void write_compare_csv(std::ostream& out, const CompareResult& result) {
  out << "launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal,detail,"
         "source,suggestion\n";
  for (const auto& r : result.rows)
    out << csv_line({std::to_string(r.launch), r.kernel, std::to_string(r.offset), r.sass,
                              std::to_string(r.measured_executed), std::to_string(r.model_executed),
                              std::to_string(r.global ? r.model_sectors : r.model_wavefronts),
                              std::to_string(r.global ? r.measured_sectors : r.measured_wavefronts), r.verdict_text(),
                              r.detail, r.source ? report::source_text(*r.source) : "", offer_cell(result, r)});
}

void write_compare_text(std::ostream& out, const CompareResult& result, const std::string& model) {
  const auto counts = result.verdict_counts();
  write_text_rows(out, result);
  out << "\n" << counts[static_cast<unsigned>(Verdict::yes)] << " of " << result.rows.size()
      << " instructions equal (model " << model << ")\n";
  out << "verdicts:";
  for (unsigned v = 0; v < kVerdicts; ++v)
    out << (v == 0 ? " " : ", ") << verdict_name(static_cast<Verdict>(v)) << " " << counts[v];
  out << "\n";
  if (counts[static_cast<unsigned>(Verdict::executions_differ)] > 0)
    out << "executions differ: the capture and ncu's run executed those instructions a different number of times "
        << "(timing-dependent code such as spin-waits, or ncu counting predicated-off executions): their "
        << "totals are not comparable\n";
  out << "launches: " << result.compared_launches << " compared, " << result.uncompared.size() << " not compared\n";
  for (const auto& u : result.uncompared)
    out << "not compared: launch " << u.launch << " " << u.kernel.substr(0, 100) << ": " << u.reason << "\n";
  if (result.rows.empty())
    out << "nothing compared: no instruction of these launches touched shared (or traced global) memory; "
           "exit 1, never a vacuous match\n";
  for (const auto& o : result.offers) out << "suggest: " << report::offer_text(o) << "\n";
  for (const auto& n : result.notes) out << "note: " << n << "\n";
}

}  // namespace bankcheck::capture
