#include "capture/host/compare.hpp"

#include <filesystem>
#include <map>
#include <stdexcept>

#include "capture/host/function_map.hpp"
#include "capture/host/launch_table.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::capture {

namespace fs = std::filesystem;

bool CompareResult::all_equal() const {
  for (const CompareRow& r : rows)
    if (!r.equal()) return false;
  return !rows.empty();
}

namespace {

struct SiteCost {
  std::uint64_t executed = 0, wavefronts = 0, sectors = 0, ideal_sectors = 0;
  bool modelled = true;
  bool global = false;
};

/// ncu launch index per capture launch id: in launch order, each capture
/// launch takes the next ncu block whose kernel has the same base name.
std::map<std::uint64_t, std::size_t> match_launches(const std::vector<LaunchRow>& rows, const NcuSourceTable& ncu) {
  std::map<std::uint64_t, std::size_t> match;
  std::size_t next = 0;
  for (const LaunchRow& row : rows) {
    const std::string base = kernel_base_name(row.demangled);
    std::size_t i = next;
    while (i < ncu.launches.size() && kernel_base_name(ncu.launches[i].kernel) != base) ++i;
    if (i == ncu.launches.size()) continue;  // ncu did not profile this launch (a --kernel-name filter)
    match[row.id] = i;
    next = i + 1;
  }
  return match;
}

}  // namespace

CompareResult compare_with_ncu(const NcuSourceTable& ncu, const std::vector<std::string>& traces, const BankModel& model) {
  CompareResult result;
  std::map<fs::path, std::vector<LaunchRow>> tables;
  for (const std::string& trace : traces) {
    const fs::path dir = fs::path(trace).parent_path().empty() ? fs::path(".") : fs::path(trace).parent_path();
    auto [it, fresh] = tables.try_emplace(dir);
    if (fresh) it->second = read_launch_table((dir / "launches.csv").string());
    const std::vector<LaunchRow>& rows = it->second;
    const std::string file = fs::path(trace).filename().string();
    const LaunchRow* row = nullptr;
    for (const LaunchRow& r : rows)
      if (r.trace == file) row = &r;
    if (row == nullptr)
      throw std::invalid_argument(trace + ": no row of " + (dir / "launches.csv").string() + " names this trace");
    const auto match = match_launches(rows, ncu);
    auto m = match.find(row->id);
    if (m == match.end())
      throw std::invalid_argument(trace + ": no launch of '" + kernel_base_name(row->demangled) +
                                  "' in the ncu report is left for launch " + std::to_string(row->id));
    const NcuLaunch& measured = ncu.launches[m->second];

    std::map<std::uint64_t, SiteCost> by_offset;
    std::uint64_t elsewhere = 0;
    bool any_global = false;
    auto source = open_trace(trace);
    const SiteTable* sites = &source->sites();
    replay(*source, model, [&](const InstructionCost& i) {
      const auto ref = parse_site_name(sites->name(i.site));
      if (!ref || ref->function != row->kernel) {
        ++elsewhere;
        return;
      }
      SiteCost& c = by_offset[ref->offset];
      ++c.executed;
      if (is_global(i.request.op)) {
        any_global = c.global = true;
        c.sectors += i.global.sectors;
        c.ideal_sectors += i.global.ideal_sectors;
        return;
      }
      c.wavefronts += i.cost.wavefronts;
      c.modelled = c.modelled && i.cost.modelled;
    });
    if (elsewhere > 0)
      result.notes.push_back(trace + ": " + std::to_string(elsewhere) +
                             " instructions in functions other than the kernel are not compared");
    for (const NcuInstruction& ins : measured.instructions) {
      auto site = by_offset.find(ins.offset);
      // Global rows only where the trace holds global accesses (a capture without --global has none).
      if (ins.wavefronts == 0 && !(any_global && ins.sectors > 0) && site == by_offset.end()) continue;
      CompareRow r;
      r.launch = row->id;
      r.kernel = row->demangled;
      r.offset = ins.offset;
      r.sass = ins.sass;
      r.measured_executed = ins.executed;
      r.measured_wavefronts = ins.wavefronts;
      r.measured_sectors = ins.sectors;
      r.measured_ideal_sectors = ins.ideal_sectors;
      r.global = ins.wavefronts == 0 && ins.sectors > 0;
      if (site != by_offset.end()) {
        r.model_executed = site->second.executed;
        r.model_wavefronts = site->second.wavefronts;
        r.modelled = site->second.modelled;
        r.global = site->second.global;
        r.model_sectors = site->second.sectors;
        r.model_ideal_sectors = site->second.ideal_sectors;
        by_offset.erase(site);
      }
      result.rows.push_back(std::move(r));
    }
    for (const auto& [offset, cost] : by_offset) {
      CompareRow r{row->id, row->demangled, offset, "(no such instruction in the ncu report)", 0, 0,
                   cost.executed, cost.wavefronts, cost.modelled};
      r.global = cost.global;
      r.model_sectors = cost.sectors;
      r.model_ideal_sectors = cost.ideal_sectors;
      result.rows.push_back(std::move(r));
    }
  }
  return result;
}

}  // namespace bankcheck::capture
