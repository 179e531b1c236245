#include "sim/html/report_document.hpp"

#include <stdexcept>

#include "sim/replay/replay.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::html {

namespace {

/// Whether execution `b` is a worse sight than `a`: more excess wavefronts, then a higher degree.
bool worse(const RequestCost& a, const RequestCost& b) {
  return b.conflicts() > a.conflicts() || (b.conflicts() == a.conflicts() && b.degree > a.degree);
}

ReportInstruction& find_or_add(std::vector<ReportInstruction>& into, const std::string& kernel, const std::string& site) {
  for (ReportInstruction& i : into)
    if (i.kernel == kernel && i.site == site) return i;
  into.push_back({});
  into.back().kernel = kernel;
  into.back().site = site;
  return into.back();
}

std::uint64_t count(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? 0 : it->get<std::uint64_t>();
}

/// A results document's `source` object back as a SourceLine.
std::optional<report::SourceLine> source_of_json(const nlohmann::json& j) {
  const auto it = j.find("source");
  if (it == j.end() || it->is_null()) return std::nullopt;
  report::SourceLine s;
  if (!(*it)["file"].is_null()) s.at = report::FileLine{(*it)["file"].get<std::string>(), (*it)["line"].get<std::uint32_t>()};
  for (const auto& p : (*it)["inlined_at"]) s.inlined_at.push_back({p["file"].get<std::string>(), p["line"].get<std::uint32_t>()});
  return s;
}

}  // namespace

void add_trace(std::vector<ReportInstruction>& into, TraceSource& source, const BankModel& model,
               const std::string& name, const SiteInfo& info) {
  struct Site {
    std::string op;
    unsigned width = 0;
    CostTotals totals;
    std::uint64_t unmodelled = 0;
    WorstInstruction worst;
  };
  std::map<std::uint32_t, Site> sites;
  replay(source, model, [&](const InstructionCost& i) {
    if (is_global(i.request.op)) return;  // the report is of shared memory; global sectors are replay's
    Site& s = sites[i.site];
    if (s.op.empty()) s.op = std::string(op_name(i.request.op)), s.width = i.request.width;
    if (!i.cost.modelled) {
      ++s.unmodelled;
      return;
    }
    s.totals.add(i.active, i.cost);
    if (s.worst.present && !worse(s.worst.cost, i.cost)) return;
    const WarpRequest& q = i.request;
    s.worst = {true, i.index, source.position(), {}, q.op, q.width, {q.addr.begin(), q.addr.end()},
               {q.source.begin(), q.source.end()}, i.cost};
  });
  for (auto& [id, s] : sites) {
    const std::string site = source.sites().name(id);
    const std::string kernel = info.kernel_of ? info.kernel_of(site) : "";
    ReportInstruction& r = find_or_add(into, kernel.empty() ? name : kernel, site);
    if (r.op.empty()) {
      r.op = s.op, r.width = s.width;
      if (info.sass_of) r.sass = info.sass_of(site);
      if (info.source_of) r.source = info.source_of(site);
    }
    r.totals += s.totals;
    r.unmodelled += s.unmodelled;
    if (s.worst.present && (!r.worst.present || worse(r.worst.cost, s.worst.cost))) r.worst = std::move(s.worst);
  }
}

std::vector<ReportInstruction> instructions_of_results(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object() || !doc.contains("schema_version") || !doc["sites"].is_array())
    throw std::invalid_argument(name + ": not a results document (docs/results-schema.md): no schema_version or sites");
  const int version = doc["schema_version"].get<int>();
  if (version < 2 || version > report::kSchemaVersion)
    throw std::invalid_argument(name + ": results schema version " + std::to_string(version) + "; this bankcheck reads 2 to " +
                                std::to_string(report::kSchemaVersion));
  std::vector<ReportInstruction> out;
  for (const auto& s : doc["sites"]) {
    ReportInstruction r;
    r.kernel = name;
    r.site = s["site"].get<std::string>();
    if (s.contains("op")) r.op = s["op"].get<std::string>(), r.width = s["width"].get<unsigned>();
    if (s.contains("sass")) r.sass = s["sass"].get<std::string>();
    r.source = source_of_json(s);
    const auto& t = s["totals"];
    r.totals = CostTotals{count(t, "instructions"), count(t, "lane_accesses"), count(t, "wavefronts"), count(t, "ideal"),
                          static_cast<std::uint32_t>(count(t, "worst_degree"))};
    // The totals derive their conflicts; a document whose own disagree (or would be negative) is not one bankcheck wrote.
    if (r.totals.wavefronts < r.totals.ideal || r.totals.conflicts() != count(t, "conflicts"))
      throw std::invalid_argument(name + ": site " + r.site + ": conflicts are not wavefronts - ideal");
    for (const auto& [kind, c] : t["unmodelled"].items()) r.unmodelled += count(c, "instructions");
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace bankcheck::html
