#include "capture/host/launch_pairing.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "capture/host/kernel_name.hpp"

namespace bankcheck::capture {

bool same_function(const LaunchRow& row, const std::string& ncu_name) {
  if (ncu_name == row.kernel) return true;
  if (is_mangled_name(ncu_name)) return false;
  return demangled_identity(ncu_name) == demangled_identity(row.demangled);
}

std::vector<LaunchPair> pair_launches(const std::vector<LaunchRow>& table, const std::vector<std::uint64_t>& wanted,
                                      const std::vector<std::string>& ncu_names,
                                      const std::vector<NcuLaunchShape>& shapes, std::vector<std::string>& notes) {
  if (!shapes.empty()) {
    if (shapes.size() != ncu_names.size())
      throw std::invalid_argument("the ncu launch list has " + std::to_string(shapes.size()) +
                                  " launches, the source page " + std::to_string(ncu_names.size()));
    for (std::size_t i = 0; i < shapes.size(); ++i)
      if (shapes[i].kernel != ncu_names[i])
        throw std::invalid_argument("the ncu launch list's launch " + std::to_string(i) + " is '" + shapes[i].kernel +
                                    "', the source page's '" + ncu_names[i] + "' (export both from one report)");
  }
  std::map<std::uint64_t, const LaunchRow*> by_id;
  for (const LaunchRow& r : table) by_id[r.id] = &r;
  std::vector<std::uint64_t> ids = wanted;
  std::sort(ids.begin(), ids.end());

  std::map<std::string, std::vector<std::size_t>> candidates;  // by mangled name: ncu launches of the function
  std::map<std::string, std::vector<std::uint64_t>> program;   // by mangled name: every launch the program made
  for (const LaunchRow& r : table) program[r.kernel].push_back(r.id);
  std::map<std::string, std::size_t> taken_in_order;           // captured launches paired in order so far
  std::set<std::size_t> used;
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
      std::size_t same_base = 0;
      for (const std::string& n : ncu_names) same_base += kernel_base_name(n) == kernel_base_name(row.demangled);
      p.reason = "no launch of this function in the ncu report";
      if (same_base > 0)
        p.reason += " (it holds " + std::to_string(same_base) + " launches of other functions named '" +
                    kernel_base_name(row.demangled) + "': other instantiations, or names ncu spells otherwise; " +
                    "export with ncu --print-kernel-base mangled)";
    } else if (mine.size() == all.size()) {
      // ncu profiled every launch of the function: the k-th is the k-th.
      pick = mine[static_cast<std::size_t>(std::find(all.begin(), all.end(), id) - all.begin())];
    } else if (mine.size() > all.size()) {
      // More blocks than the program made launches: ncu printed some twice
      // (its replays) or the report holds another run. Which block is which
      // launch is unknown, and pairing in order has paired different launches
      // (H100, 2026-11-27: "no" rows at ATOMS of CUB's radix sort), so none is paired.
      p.reason = "the ncu report holds " + std::to_string(mine.size()) + " blocks of this function, the program made " +
                 std::to_string(all.size()) + " launches: which block is which launch is unknown (give --ncu-launches)";
    } else {
      std::size_t& k = taken_in_order[row.kernel];
      if (k < mine.size()) pick = mine[k];
      else
        p.reason = "ncu profiled " + std::to_string(mine.size()) + " launches of this function, fewer than were captured";
      if (k == 0)
        notes.push_back("launches of " + kernel_base_name(row.demangled) + ": ncu profiled " +
                        std::to_string(mine.size()) + " of the program's " + std::to_string(all.size()) +
                        "; the captured ones are paired with them in order, which holds when capture and ncu "
                        "select the same launches (docs/capture.md)");
      ++k;
    }
    if (pick && used.count(*pick) != 0) {
      p.reason = "ncu's launch " + std::to_string(*pick) + " is paired with another captured launch already";
      pick.reset();
    }
    if (pick && !shapes.empty() && (shapes[*pick].grid != row.grid || shapes[*pick].block != row.block)) {
      p.reason = "ncu's launch " + std::to_string(*pick) + " of this function ran grid " + dims_text(shapes[*pick].grid) +
                 " block " + dims_text(shapes[*pick].block) + ", the captured one grid " + dims_text(row.grid) +
                 " block " + dims_text(row.block) + ": not the same launch";
      pick.reset();
    }
    if (pick) used.insert(*pick);
    p.ncu = pick;
    pairs.push_back(std::move(p));
  }
  return pairs;
}

}  // namespace bankcheck::capture
