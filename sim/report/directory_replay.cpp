#include "sim/report/directory_replay.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/parallel/parallel_for.hpp"
#include "sim/replay/parallel_replay.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// ---- one file's summary, as a rank sends it ---------------------------------

Json totals_to_json(const CostTotals& t) {
  return {t.instructions, t.lane_accesses, t.wavefronts, t.ideal, t.conflicts(), t.worst_degree, t.fewer_on_kernel_counter};
}
CostTotals totals_from_json(const Json& j) {
  CostTotals t;
  t.instructions = j[0];
  t.lane_accesses = j[1];
  t.wavefronts = j[2];
  t.ideal = j[3];
  t.worst_degree = j[5];
  t.fewer_on_kernel_counter = j[6];
  // A rank's totals, checked as the model's are (conflicts() throws where wavefronts < ideal), and against the
  // conflicts the rank sent beside them ([4]).
  if (t.conflicts() != j[4].get<std::uint64_t>())
    throw std::runtime_error("replay: a worker's totals have conflicts != wavefronts - ideal");
  if (t.fewer_on_kernel_counter > t.conflicts())
    throw std::runtime_error("replay: a worker's totals have more kernel-counter savings than conflicts");
  return t;
}
Json worst_to_json(const WorstInstruction& w) {
  if (!w.present) return nullptr;
  return {{"index", w.index},        {"unit", static_cast<int>(w.position.unit)},
          {"at", w.position.value},  {"op", static_cast<int>(w.op)},
          {"width", w.width},        {"addr", w.addr},
          {"source", w.source},
          {"cost", {w.cost.wavefronts, w.cost.ideal, w.cost.conflicts(), w.cost.degree}}};
}
WorstInstruction worst_from_json(const Json& j, const std::string& site) {
  WorstInstruction w;
  if (j.is_null()) return w;
  w.present = true;
  w.index = j["index"];
  w.position = {static_cast<RecordPosition::Unit>(j["unit"].get<int>()), j["at"].get<std::uint64_t>()};
  w.site = site;
  w.op = static_cast<Op>(j["op"].get<int>());
  w.width = j["width"];
  w.addr = j["addr"].get<std::vector<std::uint64_t>>();
  w.source = j.value("source", std::vector<std::uint64_t>{});
  w.cost = {j["cost"][0], j["cost"][1], j["cost"][3], true};  // [2], the conflicts, follow from the first two
  return w;
}

Json summary_to_json(const std::string& file, const ReplaySummary& s) {
  Json sites = Json::array(), kinds = Json::array();
  for (const auto& site : s.sites)
    sites.push_back({{"site", site.site}, {"totals", totals_to_json(site.totals)},
                     {"unmodelled", site.unmodelled}, {"worst", worst_to_json(site.worst)}});
  for (const auto& k : s.unmodelled)
    kinds.push_back({static_cast<int>(k.op), k.width, k.instructions, k.lane_accesses});
  std::uint64_t records = s.totals.instructions + s.unmodelled_instructions();
  return {{"file", file}, {"records", records}, {"sites", sites}, {"unmodelled", kinds}};
}

// ---- the merge, the same on one process and on rank 0 ------------------------

struct MergedSite {
  CostTotals totals;
  std::uint64_t unmodelled = 0;
  WorstInstruction worst;  ///< index counts the records of all files before it
  std::string worst_file;
};

class DirectoryMerge {
 public:
  /// Add one file's summary; files must come in order.
  void add(const Json& part) {
    const std::string file = part["file"];
    for (const Json& s : part["sites"]) {
      const std::string name = s["site"];
      auto [it, fresh] = index_.try_emplace(name, sites_.size());
      if (fresh) sites_.push_back({name, {}});
      MergedSite& m = sites_[it->second].second;
      m.totals += totals_from_json(s["totals"]);
      m.unmodelled += s["unmodelled"].get<std::uint64_t>();
      WorstInstruction w = worst_from_json(s["worst"], name);
      w.index += records_;
      if (m.worst.worse(w)) {
        m.worst = std::move(w);
        m.worst_file = file;
      }
    }
    for (const Json& k : part["unmodelled"]) {
      UnmodelledCount& c = unmodelled_[kind_name(static_cast<Op>(k[0].get<int>()), k[1].get<unsigned>())];
      c.instructions += k[2].get<std::uint64_t>();
      c.lane_accesses += k[3].get<std::uint64_t>();
    }
    records_ += part["records"].get<std::uint64_t>();
  }

  Results results(const std::string& dir, std::size_t files, const BankModel& model, const ReplayReportOptions& o) const {
    Results r;
    r.command = "replay";
    r.model = model.name();
    r.model_description = model.describe();
    r.timing = shared_timing(model.name());
    r.warp = model.geometry().warp;
    r.inputs.push_back({{"kind", "trace directory"}, {"path", dir}, {"files", files}});
    r.selected_sites = o.sites;
    r.fail_on_conflicts = o.fail_on_conflicts;
    r.kernel_counter_known = true;
    r.unmodelled = unmodelled_;
    r.header = {"traces " + dir + " (" + std::to_string(files) + " files, warp " + std::to_string(r.warp) + ")",
                "model  " + model.describe()};
    const MergedSite* worst = nullptr;
    for (const auto& [name, m] : sites_) {
      if (!o.sites.empty() && std::find(o.sites.begin(), o.sites.end(), name) == o.sites.end()) continue;
      r.totals += m.totals;
      Unmodelled site_unmodelled;
      if (m.unmodelled > 0) site_unmodelled["(all kinds)"] = {m.unmodelled, 0};
      r.sites.push_back({name, m.totals, site_unmodelled, {}, 0, {}, {}});
      if (!worst || worst->worst.worse(m.worst)) worst = &m;
    }
    if (worst && worst->worst.present)
      r.worst = worst_row(model, worst->worst, location_of(worst->worst_file, worst->worst.position));
    return r;
  }

 private:
  std::vector<std::pair<std::string, MergedSite>> sites_;  // in order of first appearance
  std::map<std::string, std::size_t> index_;
  Unmodelled unmodelled_;
  std::uint64_t records_ = 0;
};

bool is_trace_name(const fs::path& p) {
  const auto e = p.extension();
  return e == ".trace" || e == ".txt" || e == ".bktrace" || e == ".bin";
}

/// The summaries of files [shard.begin, shard.end), in file order. With
/// several threads and files each thread replays whole files, so a record
/// is read and priced by one thread with no copy between them (the batch
/// pipeline of replay_parallel gains nothing on two cores: copying a record
/// to a worker costs about what pricing it does); a lone file gets the
/// threads through replay_parallel.
/// @throws the error of the first failing file in file order, as one thread would.
Json replay_files(const std::vector<std::string>& files, Shard shard, const BankModel& model, unsigned threads) {
  std::vector<Json> parts(shard.size());
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads, shard.size()));
  if (workers <= 1) {
    for (std::size_t k = 0; k < shard.size(); ++k) {
      auto source = open_trace(files[shard.begin + k]);
      parts[k] = summary_to_json(files[shard.begin + k], replay_parallel(*source, model, threads));
    }
  } else {
    parallel_for(shard.size(), workers, [&](std::size_t k) {
      auto source = open_trace(files[shard.begin + k]);
      parts[k] = summary_to_json(files[shard.begin + k], replay(*source, model));
    });
  }
  Json all = Json::array();
  for (Json& part : parts) all.push_back(std::move(part));
  return all;
}

}  // namespace

std::vector<std::string> trace_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::invalid_argument(dir + ": not a folder");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && is_trace_name(e.path())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw std::invalid_argument(dir + ": no trace file in it (*.trace, *.txt, *.bktrace, *.bin): nothing to check");
  return files;
}

std::optional<Results> replay_directory(const std::string& dir, const std::vector<std::string>& files,
                                        const BankModel& model, const ReplayReportOptions& o,
                                        const Cluster& cluster) {
  const Shard mine = shard_of(files.size(), cluster.rank(), cluster.size());
  ShardOutcome outcome;
  try {
    outcome.payload = replay_files(files, mine, model, o.threads).dump();
  } catch (const std::exception& e) {
    outcome = {false, e.what()};
  }
  const std::vector<ShardOutcome> all = cluster.gather(outcome);
  if (!cluster.root()) return std::nullopt;
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].ok)
      throw std::invalid_argument(all[r].payload +
                                  (all.size() > 1 ? " (rank " + std::to_string(r) + "; no result: the run failed)" : ""));
  DirectoryMerge merge;
  for (const ShardOutcome& part : all)
    for (const Json& file : Json::parse(part.payload)) merge.add(file);
  return merge.results(dir, files.size(), model, o);
}

}  // namespace bankcheck::report
