#include "capture/host/ncu/compare.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "capture/host/run/capture_run.hpp"
#include "capture/host/launch/driver_queries.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/sass/hgmma_descriptors.hpp"
#include "capture/host/ncu/launch_pairing.hpp"
#include "capture/host/launch/launch_table.hpp"
#include "capture/host/sass/sass_form.hpp"
#include "capture/host/sass/sass_table.hpp"
#include "capture/host/tensor_maps/tensor_maps.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::capture {

namespace fs = std::filesystem;

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::yes: return "yes";
    case Verdict::no: return "no";
    case Verdict::not_modelled: return "not modelled";
    case Verdict::not_traced: return "not traced";
    case Verdict::executions_differ: return "executions differ";
  }
  return "no";
}

Verdict CompareRow::verdict() const {
  if (tma_rule) return measured_wavefronts == 0 ? Verdict::yes : Verdict::no;
  if (global) return equal() ? Verdict::yes : runs_differ() ? Verdict::executions_differ : Verdict::no;
  if (is_untraced(sass, "TMA") && model_executed == 0) return Verdict::not_modelled;
  if (model_executed == 0 && (measured_wavefronts > 0 || untraced_kind(sass_mnemonic(sass)))) return Verdict::not_traced;
  if (!modelled) return Verdict::not_modelled;
  if (equal()) return Verdict::yes;
  return runs_differ() ? Verdict::executions_differ : Verdict::no;
}

std::string CompareRow::verdict_text() const {
  const Verdict v = verdict();
  std::string text = verdict_name(v);
  if (global && (v == Verdict::yes || v == Verdict::no)) return text + " (sectors)";
  if (tma_rule) return text + " (TMA: no shared wavefronts)";
  if (v == Verdict::not_modelled) {
    text += " (" + std::string(sass_mnemonic(sass));
    if (const std::string_view p = predicate_operand(sass); !p.empty()) text += ", predicate operand " + std::string(p);
    if (is_untraced(sass, "TMA")) text += ": TMA form not measured";
    return text + ")";
  }
  if (v == Verdict::not_traced) {
    const auto kind = untraced_kind(sass_mnemonic(sass));
    return text + " (" + std::string(kind ? *kind : "no record in the capture") + ")";
  }
  return text;
}

bool CompareResult::all_equal() const {
  for (const CompareRow& r : rows)
    if (r.verdict() != Verdict::yes) return false;
  return uncompared.empty() && !rows.empty();
}

std::vector<std::size_t> CompareResult::verdict_counts() const {
  std::vector<std::size_t> counts(kVerdicts, 0);
  for (const CompareRow& r : rows) ++counts[static_cast<unsigned>(r.verdict())];
  return counts;
}

namespace {

struct SiteCost {
  std::uint64_t executed = 0, wavefronts = 0, ideal = 0, sectors = 0, ideal_sectors = 0;
  bool modelled = true;
  bool global = false;
};

struct Replayed {
  std::map<std::uint64_t, SiteCost> by_offset;
  std::uint64_t elsewhere = 0;  ///< records in functions other than the kernel
  bool any_global = false;
};

Replayed replay_sites(const std::string& trace, const LaunchRow& row, const BankModel& model) {
  Replayed out;
  auto source = open_trace(trace);
  const SiteTable* sites = &source->sites();
  replay(*source, model, [&](const InstructionCost& i) {
    const auto ref = parse_site_name(sites->name(i.site));
    if (!ref || ref->function != row.kernel) {
      ++out.elsewhere;
      return;
    }
    SiteCost& c = out.by_offset[ref->offset];
    ++c.executed;
    if (is_global(i.request.op)) {
      out.any_global = c.global = true;
      c.sectors += i.global.sectors;
      c.ideal_sectors += i.global.ideal_sectors;
      return;
    }
    c.wavefronts += i.cost.wavefronts;
    c.ideal += i.cost.ideal;
    c.modelled = c.modelled && i.cost.modelled;
  });
  return out;
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Why the captured sites cannot belong to ncu's launch, or empty: a site at
/// an offset ncu's table lacks, or at an instruction that cannot access memory.
std::string mispairing(const Replayed& sites, const NcuLaunch& measured) {
  std::map<std::uint64_t, const NcuInstruction*> at;
  for (const NcuInstruction& ins : measured.instructions) at[ins.offset] = &ins;
  std::size_t bad = 0;
  std::string first;
  for (const auto& [offset, cost] : sites.by_offset) {
    const auto it = at.find(offset);
    std::string why;
    if (it == at.end()) why = "+" + hex(offset) + " is past ncu's listing of the function";
    else if (!can_access_memory(sass_mnemonic(it->second->sass)))
      why = "+" + hex(offset) + " is '" + it->second->sass + "' in ncu's listing";
    if (why.empty()) continue;
    if (bad++ == 0) first = why;
  }
  if (bad == 0) return "";
  return "captured memory records land where ncu's launch has no memory instruction (" + first +
         (bad > 1 ? ", and " + std::to_string(bad - 1) + " more" : "") + "): a different function, not compared";
}

/// A launch's tensor maps: as text for its TMA rows, and the swizzle modes they write tiles in.
struct LaunchMaps {
  std::string text;
  std::set<std::string> swizzles;  ///< "128B", "none", ... (tensor_map_swizzle_name)
};

/// The tensor maps of a capture folder by launch; none for a capture made before tensor maps were
/// recorded (no tensor_maps.csv) or a launch given none that the capture could find.
std::map<std::uint64_t, LaunchMaps> tensor_maps_by_launch(const fs::path& dir) {
  std::map<std::uint64_t, LaunchMaps> out;
  const fs::path maps_file = dir / "tensor_maps.csv", launches_file = dir / "launch_tensor_maps.csv";
  if (!fs::exists(maps_file) || !fs::exists(launches_file)) return out;
  std::map<std::uint64_t, TensorMapRow> maps;
  for (TensorMapRow& m : read_tensor_map_table(maps_file.string())) maps[m.id] = std::move(m);
  for (const LaunchTensorMap& l : read_launch_tensor_maps(launches_file.string())) {
    const auto it = maps.find(l.tensor_map);
    if (it == maps.end())
      throw std::invalid_argument(launches_file.string() + ": launch " + std::to_string(l.launch) + " names tensor map " +
                                  std::to_string(l.tensor_map) + ", which " + maps_file.string() + " does not have");
    LaunchMaps& m = out[l.launch];
    m.text += (m.text.empty() ? "" : "; ") + describe_tensor_map(it->second) + " (parameter byte " +
              std::to_string(l.offset) + ")";
    m.swizzles.insert(tensor_map_swizzle_name(it->second.swizzle));
  }
  return out;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// The wgmma rows' detail: the descriptors the SASS fixes and, where the launch has tensor maps, an
/// operand swizzled in a mode none of them writes (docs/capture.md, "wgmma descriptors").
std::map<std::uint64_t, std::string> wgmma_details(const NcuLaunch& measured, const LaunchMaps* maps) {
  std::map<std::uint64_t, std::string> out;
  if (std::none_of(measured.instructions.begin(), measured.instructions.end(),
                   [](const NcuInstruction& i) { return is_untraced(i.sass, "wgmma"); }))
    return out;  // the data flow is worked out only for functions with wgmma
  std::vector<SassLine> lines;
  for (const NcuInstruction& i : measured.instructions) lines.push_back({measured.kernel, i.offset, i.sass, {}});
  const SassConstants values(lines, measured.first_pc);
  for (const HgmmaDescriptors& h : recover_hgmma_descriptors(lines, values)) {
    std::string text = "descriptors: " + describe_descriptors(h);
    if (!values.unusable().empty()) text += " (" + values.unusable() + ")";
    std::set<std::string> foreign;
    for (const RecoveredDescriptor* d : {h.a ? &*h.a : nullptr, &h.b})
      if (d != nullptr && d->swizzle() && maps != nullptr && !maps->swizzles.empty() &&
          !maps->swizzles.count(std::string(layout::swizzle_mode_name(*d->swizzle()))))
        foreign.insert(std::string(layout::swizzle_mode_name(*d->swizzle())));
    if (!foreign.empty())
      text += "; swizzle " + join(foreign) + " is no tensor map's of the launch (they swizzle " + join(maps->swizzles) +
              "): a tile those maps wrote is read here in another layout, and the products are wrong; the cost "
              "is the same (rule 8)";
    out[h.offset] = std::move(text);
  }
  return out;
}

void add_rows(CompareResult& result, const LaunchRow& row, Replayed sites, const NcuLaunch& measured,
              const LaunchMaps* maps, const SassTable* sass) {
  const std::map<std::uint64_t, std::string> wgmma = wgmma_details(measured, maps);
  for (const NcuInstruction& ins : measured.instructions) {
    auto site = sites.by_offset.find(ins.offset);
    // Global rows only where the trace holds global accesses (a capture without --global has none);
    // TMA copies even where ncu counts no shared wavefronts for them: the capture cannot trace them either.
    const bool tma = ins.executed > 0 && is_untraced(ins.sass, "TMA");
    if (ins.wavefronts == 0 && !(sites.any_global && ins.sectors > 0) && site == sites.by_offset.end() && !tma) continue;
    CompareRow r;
    r.launch = row.id;
    r.kernel = row.demangled;
    r.offset = ins.offset;
    r.sass = ins.sass;
    r.measured_executed = ins.executed;
    r.measured_wavefronts = ins.wavefronts;
    r.measured_sectors = ins.sectors;
    r.measured_ideal_sectors = ins.ideal_sectors;
    r.global = ins.wavefronts == 0 && ins.sectors > 0;
    if (tma && maps != nullptr) r.detail = "the launch's " + maps->text;
    r.tma_rule = tma && tma_form_measured(sass_mnemonic(ins.sass));
    if (const auto w = wgmma.find(ins.offset); w != wgmma.end()) r.detail = w->second;
    if (sass != nullptr) {
      const report::SourceLine* line = sass->source(row.kernel, ins.offset);
      r.source = line ? *line : report::SourceLine{};
    }
    if (site != sites.by_offset.end()) {
      r.model_executed = site->second.executed;
      r.model_wavefronts = site->second.wavefronts;
      r.model_ideal = site->second.ideal;
      r.modelled = site->second.modelled;
      r.global = site->second.global;
      r.model_sectors = site->second.sectors;
      r.model_ideal_sectors = site->second.ideal_sectors;
    }
    result.rows.push_back(std::move(r));
  }
}

/// A note for each of ncu's launches that no captured launch was compared
/// with; where the capture's program ended early and the launch comes after
/// as many launches of its function as the program made under capture, it is
/// one the capture never saw, and the note says so.
void note_unused_ncu_launches(CompareResult& result, const std::vector<std::string>& ncu_names,
                              const std::vector<bool>& used, const std::map<fs::path, std::vector<LaunchRow>>& tables,
                              const std::string& ended_early) {
  std::map<std::string, std::size_t> rank;  // ncu's launches of each name so far
  for (std::size_t i = 0; i < ncu_names.size(); ++i) {
    const std::size_t k = rank[ncu_names[i]]++;
    if (used[i]) continue;
    std::size_t made = 0;
    for (const auto& [dir, table] : tables)
      for (const LaunchRow& r : table) made += same_function(r, ncu_names[i]);
    const std::string what = "ncu's launch " + std::to_string(i) + " (" + ncu_names[i].substr(0, 120) + ")";
    if (!ended_early.empty() && k >= made) result.notes.push_back(what + " was not captured (" + ended_early + ")");
    else result.notes.push_back(what + " has no compared captured launch");
  }
}

/// ncu's page without the copies of blocks it printed twice, where the launch list tells them apart (nullopt:
/// the page stands as it is); a note where they cannot be told apart.
std::optional<NcuSourceTable> aligned_page(const NcuSourceTable& page, const std::vector<NcuLaunchShape>& shapes,
                                           std::vector<std::string>& notes) {
  if (!shapes.empty() && page.launches.size() != shapes.size()) {
    NcuSourceTable aligned = page;
    const std::size_t dropped = drop_copies_by_launch_list(aligned, shapes);
    notes.push_back("ncu printed " + std::to_string(dropped) + " of " + std::to_string(shapes.size()) +
                    " launches' blocks twice; the copies were told apart by the launch list and dropped");
    return aligned;
  }
  if (shapes.empty() && !page.deduplicated)
    for (std::size_t i = 0; i + 1 < page.launches.size(); ++i)
      if (page.launches[i].kernel == page.launches[i + 1].kernel) {
        notes.push_back("consecutive source-page blocks of one function: launches or ncu's copies; give "
                        "--ncu-launches so compare can tell them apart");
        break;
      }
  return std::nullopt;
}

/// The traces by folder (each folder one capture with its launches.csv): folder -> launch id -> trace.
std::map<fs::path, std::map<std::uint64_t, std::string>> traces_by_folder(
    const std::vector<std::string>& traces, std::map<fs::path, std::vector<LaunchRow>>& tables, CompareResult& result) {
  std::map<fs::path, std::map<std::uint64_t, std::string>> by_dir;
  for (const std::string& trace : traces) {
    const fs::path dir = fs::path(trace).parent_path().empty() ? fs::path(".") : fs::path(trace).parent_path();
    auto [it, fresh] = tables.try_emplace(dir);
    if (fresh) it->second = read_launch_table((dir / "launches.csv").string());
    const std::string file = fs::path(trace).filename().string();
    const LaunchRow* row = nullptr;
    for (const LaunchRow& r : it->second)
      if (r.trace == file) row = &r;
    if (row == nullptr) {
      result.uncompared.push_back({0, "", trace + ": no row of " + (dir / "launches.csv").string() + " names this trace"});
      continue;
    }
    by_dir[dir][row->id] = trace;
  }
  return by_dir;
}

}  // namespace

CompareResult compare_with_ncu(const NcuSourceTable& page, const std::vector<std::string>& traces, const BankModel& model,
                               const std::vector<NcuLaunchShape>& shapes) {
  CompareResult result;
  const std::optional<NcuSourceTable> aligned = aligned_page(page, shapes, result.notes);
  const NcuSourceTable& ncu = aligned ? *aligned : page;
  std::vector<std::string> ncu_names;
  for (const NcuLaunch& l : ncu.launches) ncu_names.push_back(l.kernel);
  std::map<fs::path, std::vector<LaunchRow>> tables;
  const auto by_dir = traces_by_folder(traces, tables, result);
  std::vector<bool> ncu_used(ncu.launches.size(), false);
  std::string ended_early;  // how a capture's program ended, when it ended early
  for (const auto& [dir, traces_by_id] : by_dir) {
    const std::vector<LaunchRow>& table = tables[dir];
    const std::map<std::uint64_t, LaunchMaps> tensor_maps = tensor_maps_by_launch(dir);
    std::optional<SassTable> sass;  // the capture's SASS and line info, where it has them
    if (fs::exists(dir / "sass.csv")) sass = SassTable::read((dir / "sass.csv").string());
    std::vector<std::uint64_t> ids;
    for (const auto& [id, trace] : traces_by_id) ids.push_back(id);
    const std::vector<DriverQuery> queries = read_driver_queries((dir / "queries.csv").string());
    const std::string ended = capture_ended_early(dir / "capture.json");
    if (!ended.empty()) ended_early = ended;
    const auto pairs = pair_launches(table, ids, ncu_names, shapes, result.notes, ended);
    for (LaunchPair p : pairs) {
      const LaunchRow* row = nullptr;
      for (const LaunchRow& r : table)
        if (r.id == p.launch) row = &r;
      const std::string& trace = traces_by_id.at(p.launch);
      if (!p.ncu) {
        if (const std::string why = p.shape_differs && row ? grid_difference_reason(queries, row->kernel) : ""; !why.empty())
          p.reason += "; " + why;
        result.uncompared.push_back({p.launch, row ? row->demangled : "", p.reason});
        continue;
      }
      const NcuLaunch& measured = ncu.launches[*p.ncu];
      if (!measured.measured) {
        ncu_used[*p.ncu] = true;
        result.uncompared.push_back({p.launch, row->demangled, "ncu's launch " + std::to_string(*p.ncu) +
                                                                   " has no counters (it failed under the profiler)"});
        continue;
      }
      Replayed sites = replay_sites(trace, *row, model);
      if (const std::string why = mispairing(sites, measured); !why.empty()) {
        result.uncompared.push_back({p.launch, row->demangled, "paired with ncu's launch " + std::to_string(*p.ncu) + ": " + why});
        continue;
      }
      ncu_used[*p.ncu] = true;
      ++result.compared_launches;
      if (sites.elsewhere > 0)
        result.notes.push_back(trace + ": " + std::to_string(sites.elsewhere) +
                               " instructions in functions other than the kernel are not compared");
      const auto maps = tensor_maps.find(row->id);
      add_rows(result, *row, std::move(sites), measured, maps == tensor_maps.end() ? nullptr : &maps->second,
               sass ? &*sass : nullptr);
    }
  }
  note_unused_ncu_launches(result, ncu_names, ncu_used, tables, ended_early);
  return result;
}

}  // namespace bankcheck::capture
