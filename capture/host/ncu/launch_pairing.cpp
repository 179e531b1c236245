#include "capture/host/ncu/launch_pairing.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "capture/host/launch/kernel_name.hpp"

namespace bankcheck::capture {

bool same_function(const LaunchRow& row, const std::string& ncu_name) {
  if (ncu_name == row.kernel) return true;
  if (is_mangled_name(ncu_name)) return false;
  return demangled_identity(ncu_name) == demangled_identity(row.demangled);
}

namespace {

/// A launch of a function of which ncu's report holds more launches than the
/// program made under capture (`mine` > `all`): ncu's launch it is, or none
/// with `reason`.
std::optional<std::size_t> pair_past_end(const LaunchRow& row, std::uint64_t id, const std::vector<std::size_t>& mine,
                                         const std::vector<std::uint64_t>& all, bool launch_list,
                                         const std::string& ended_early, std::set<std::string>& noted,
                                         std::vector<std::string>& notes, std::string& reason) {
  const std::size_t place = static_cast<std::size_t>(std::find(all.begin(), all.end(), id) - all.begin());
  if (launch_list && !ended_early.empty()) {
    // The launch list has one entry per launch, and the captured program stopped before ncu's did: up to
    // its end the two ran the same launches in the same order.
    if (noted.insert(row.kernel).second)
      notes.push_back("launches of " + kernel_base_name(row.demangled) + ": ncu profiled " + std::to_string(mine.size()) +
                      ", the capture saw " + std::to_string(all.size()) + " before " + ended_early +
                      "; paired in order, ncu's last " + std::to_string(mine.size() - all.size()) +
                      " were not captured");
    return mine[place];
  }
  if (launch_list) {
    reason = "ncu profiled " + std::to_string(mine.size()) + " launches of this function, the program made " +
             std::to_string(all.size()) + " under capture and ended normally: the two runs differ, so which "
             "launch is which is unknown";
    return std::nullopt;
  }
  // More blocks than the program made launches: ncu printed some twice (its
  // replays), the report holds another run, or the capture ended early.
  // Which block is which launch is unknown, and pairing in order has paired
  // different launches (H100, 2026-11-27: "no" rows at ATOMS of CUB's radix
  // sort), so none is paired.
  reason = "the ncu report holds " + std::to_string(mine.size()) + " blocks of this function, the program made " +
           std::to_string(all.size()) + " launches" + (ended_early.empty() ? "" : " before " + ended_early) +
           ": which block is which launch is unknown (give --ncu-launches)";
  return std::nullopt;
}

/// The note for a function ncu profiled only some launches of: they are paired in order.
std::string in_order_note(const LaunchRow& row, std::size_t profiled, std::size_t launched) {
  return "launches of " + kernel_base_name(row.demangled) + ": ncu profiled " + std::to_string(profiled) +
         " of the program's " + std::to_string(launched) +
         "; the captured ones are paired with them in order, which holds when capture and ncu "
         "select the same launches (docs/capture.md)";
}

/// Why ncu's launch `index` of the function is not the captured one: another grid or block.
std::string shape_difference(std::size_t index, const NcuLaunchShape& ncu, const LaunchRow& row) {
  return "ncu's launch " + std::to_string(index) + " of this function ran grid " + dims_text(ncu.grid) + " block " +
         dims_text(ncu.block) + ", the captured one grid " + dims_text(row.grid) + " block " + dims_text(row.block) +
         ": not the same launch";
}

/// The ncu launch list and the source page must list the same launches in the same order.
void check_launch_list(const std::vector<NcuLaunchShape>& shapes, const std::vector<std::string>& ncu_names) {
  if (shapes.empty()) return;
  if (shapes.size() != ncu_names.size())
    throw std::invalid_argument("the ncu launch list has " + std::to_string(shapes.size()) +
                                " launches, the source page " + std::to_string(ncu_names.size()));
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i].kernel != ncu_names[i])
      throw std::invalid_argument("the ncu launch list's launch " + std::to_string(i) + " is '" + shapes[i].kernel +
                                  "', the source page's '" + ncu_names[i] + "' (export both from one report)");
}

/// Why a captured launch whose function ncu never profiled has no pair, naming same-named functions ncu has.
std::string no_launch_reason(const LaunchRow& row, const std::vector<std::string>& ncu_names) {
  std::size_t same_base = 0;
  for (const std::string& n : ncu_names) same_base += kernel_base_name(n) == kernel_base_name(row.demangled);
  std::string reason = "no launch of this function in the ncu report";
  if (same_base > 0)
    reason += " (it holds " + std::to_string(same_base) + " launches of other functions named '" +
              kernel_base_name(row.demangled) + "': other instantiations, or names ncu spells otherwise; " +
              "export with ncu --print-kernel-base mangled)";
  return reason;
}

}  // namespace

std::vector<LaunchPair> pair_launches(const std::vector<LaunchRow>& table, const std::vector<std::uint64_t>& wanted,
                                      const std::vector<std::string>& ncu_names,
                                      const std::vector<NcuLaunchShape>& shapes, std::vector<std::string>& notes,
                                      const std::string& ended_early) {
  check_launch_list(shapes, ncu_names);
  std::map<std::uint64_t, const LaunchRow*> by_id;
  for (const LaunchRow& r : table) by_id[r.id] = &r;
  std::vector<std::uint64_t> ids = wanted;
  std::sort(ids.begin(), ids.end());

  std::map<std::string, std::vector<std::size_t>> candidates;  // by mangled name: ncu launches of the function
  std::map<std::string, std::vector<std::uint64_t>> program;   // by mangled name: every launch the program made
  for (const LaunchRow& r : table) program[r.kernel].push_back(r.id);
  std::map<std::string, std::size_t> taken_in_order;           // captured launches paired in order so far
  std::set<std::size_t> used;
  std::set<std::string> ended_early_noted;  // functions whose uncaptured ncu launches a note names
  std::vector<LaunchPair> pairs;
  for (std::uint64_t id : ids) {
    LaunchPair p;
    p.launch = id;
    const auto row_it = by_id.find(id);
    if (row_it == by_id.end()) {
      p.reason = "no row of launches.csv has this id";
      pairs.push_back(std::move(p));
      continue;
    }
    const LaunchRow& row = *row_it->second;
    auto [cand, fresh] = candidates.try_emplace(row.kernel);
    if (fresh)
      for (std::size_t i = 0; i < ncu_names.size(); ++i)
        if (same_function(row, ncu_names[i])) cand->second.push_back(i);
    const std::vector<std::size_t>& mine = cand->second;
    const std::vector<std::uint64_t>& all = program[row.kernel];
    std::optional<std::size_t> pick;
    if (mine.empty()) {
      p.reason = no_launch_reason(row, ncu_names);
    } else if (mine.size() == all.size()) {
      // ncu profiled every launch of the function: the k-th is the k-th.
      pick = mine[static_cast<std::size_t>(std::find(all.begin(), all.end(), id) - all.begin())];
    } else if (mine.size() > all.size()) {
      pick = pair_past_end(row, id, mine, all, !shapes.empty(), ended_early, ended_early_noted, notes, p.reason);
    } else {
      std::size_t& k = taken_in_order[row.kernel];
      if (k < mine.size()) pick = mine[k];
      else
        p.reason = "ncu profiled " + std::to_string(mine.size()) + " launches of this function, fewer than were captured";
      if (k == 0) notes.push_back(in_order_note(row, mine.size(), all.size()));
      ++k;
    }
    if (pick && used.count(*pick) != 0) {
      p.reason = "ncu's launch " + std::to_string(*pick) + " is paired with another captured launch already";
      pick.reset();
    }
    if (pick && !shapes.empty() && (shapes[*pick].grid != row.grid || shapes[*pick].block != row.block)) {
      p.reason = shape_difference(*pick, shapes[*pick], row);
      p.shape_differs = true;
      pick.reset();
    }
    if (pick) used.insert(*pick);
    p.ncu = pick;
    pairs.push_back(std::move(p));
  }
  return pairs;
}

}  // namespace bankcheck::capture
