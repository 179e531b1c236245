#include "proofs/adversary/constructions.hpp"
#include "model/analytic.hpp"

#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "proofs/adversary/construction_params.hpp"
#include "sim/inputs/merge_adversary.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/inputs/pbs_adversary.hpp"

namespace bankcheck::proofs {
namespace {

using namespace bankcheck::inputs;

unsigned u32(const Params& p, const char* name) { return static_cast<unsigned>(p.at(name)); }

void require_output(const ConstructionRequest& r) {
  if (r.output.empty()) throw std::invalid_argument("-o FILE is required (where the input is written)");
}

ConstructionReport write_pbs(const ConstructionRequest& r, const Params& p) {
  const unsigned w = u32(p, "w"), key_bytes = u32(p, "key_bytes");
  const auto keys = static_cast<std::uint64_t>(p.at("K")), count = static_cast<std::uint64_t>(p.at("queries"));
  const BankModel model = make_preset("dmm", w);
  PbsQuerySet set;
  if (r.pbs_construction == "corollary")
    set = corollary41_queries(keys, w, count, static_cast<std::uint64_t>(p.at("C")));
  else if (r.pbs_construction == "lemma")
    set = lemma42_queries(model, keys, key_bytes, count);
  else
    throw std::invalid_argument("--construction must be corollary or lemma (got '" + r.pbs_construction + "')");
  check_key_fits(key_bytes, 1, 2 * static_cast<std::int64_t>(keys) - 1);
  // Values of the keys (1, 3, 5, ..., 2K-1) that `bankcheck run pbs` searches.
  std::vector<std::int64_t> values(set.queries.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 2 * static_cast<std::int64_t>(set.queries[i]) + 1;
  KeyFileWriter out(r.output, r.format, key_bytes);
  out.append(values);
  out.commit();
  const PbsCost c = pbs_cost(model, keys, key_bytes, set.queries);
  std::ostringstream s;
  s << "pbs " << set.construction << ": K = " << keys << ", w = " << w << ", " << count
    << " queries (values of K = 1, 3, ..., 2K-1) -> " << r.output << " (" << key_format_name(r.format) << ")\n"
    << "model dmm (w banks); w-way from round " << set.first_full_round << " by the proof\n"
    << "round  wavefronts (all warps)\n";
  for (std::size_t k = 0; k < c.wavefronts_per_round.size(); ++k)
    s << std::setw(5) << k + 1 << "  " << c.wavefronts_per_round[k] << "\n";
  s << "total wavefronts " << c.total_wavefronts << ", conflicts " << c.total_conflicts << "\n";
  return {s.str(), values.size()};
}

ConstructionReport write_merge(const ConstructionRequest& r, const Params& p) {
  const unsigned w = u32(p, "w"), E = u32(p, "E"), key_bytes = u32(p, "key_bytes");
  const Section4Parameters s4 = section4_parameters(w, E);
  const std::uint64_t per_warp = std::uint64_t{w} * E, pair = 2 * per_warp;
  const std::uint64_t n = p.at("n") == 0 ? pair : static_cast<std::uint64_t>(p.at("n"));
  if (n % pair != 0) {
    const std::uint64_t down = n / pair * pair, up = down + pair;
    throw std::invalid_argument("merge: n must be a multiple of 2wE = " + std::to_string(pair) +
                                " (pairs of warps, A-major then B-major, so |A| = |B|); got " + std::to_string(n) +
                                "; nearest valid value: " + std::to_string(down == 0 || n - down > up - n ? up : down));
  }
  check_key_fits(key_bytes, 0, static_cast<std::int64_t>(n) - 1);
  std::vector<std::uint8_t> labels;
  for (std::uint64_t v = 0; v < n / per_warp; ++v) {
    const auto l = labels_from_splits(worst_warp_splits(s4, v % 2 == 0), w);
    labels.insert(labels.end(), l.begin(), l.end());
  }
  const MergeLists lists = merge_lists_from_labels(labels);
  KeyFileWriter out(r.output, r.format, key_bytes);
  out.append(lists.a);
  out.append(lists.b);
  out.commit();
  const BankModel model = make_preset("dmm", w);
  std::uint64_t paper = 0, cub = 0, a0 = 0, b0 = 0;
  for (std::uint64_t v = 0; v < n / per_warp; ++v) {
    const std::span<const std::uint8_t> l(labels.data() + v * per_warp, per_warp);
    const WarpMergeLayout layout{l, E, a0, lists.a.size() + b0};
    paper += merge_warp_cost(model, layout, key_bytes, MergeReads::paper_steps).total_wavefronts;
    cub += merge_warp_cost(model, layout, key_bytes, MergeReads::cub_serial_merge).total_wavefronts;
    for (auto x : l) (x ? b0 : a0)++;
  }
  const std::uint64_t warps = n / per_warp;
  const auto theorem8 = analytic::merge_worst_conflicts_per_warp(s4.warp, s4.items);
  std::ostringstream s;
  s << "merge (SPAA'25 Section 4): w = " << w << ", E = " << E << ", d = " << s4.d << ", q = " << s4.q
    << ", r = " << s4.r << "; |A| = " << lists.a.size() << ", |B| = " << lists.b.size() << " sorted keys, A then B -> "
    << r.output << " (" << key_format_name(r.format) << ")\n"
    << "model dmm, " << warps << " warps:\n"
    << "  paper-step wavefronts " << paper << " (Theorem 8: " << theorem8 * warps << ", " << theorem8
    << " per warp)\n"
    << "  CUB SerialMerge-read wavefronts " << cub << "\n";
  return {s.str(), n};
}

ConstructionReport write_merge_sort(const ConstructionRequest& r, const Params& p) {
  const unsigned w = u32(p, "w"), u = u32(p, "u"), E = u32(p, "E"), key_bytes = u32(p, "key_bytes");
  MergeSortShape shape{u, E, w, 0};
  shape.keys = p.at("n") == 0 ? 4 * shape.tile() : static_cast<std::uint64_t>(p.at("n"));
  check_merge_sort_shape(shape);
  check_key_fits(key_bytes, 0, static_cast<std::int64_t>(shape.keys) - 1);  // before the plan's searches
  const double seconds = r.time_limit > 0 ? r.time_limit : 1e300;
  const MergeSortAdversary adv(shape, SearchBudget{seconds, r.seed, r.pass_iterations},
                               p.at("wide") ? MergeSortAdversary::WidePasses::warp_search
                                            : MergeSortAdversary::WidePasses::section4);
  write_permutation(adv, r.output, r.format, key_bytes, r.progress);
  std::ostringstream s;
  s << "merge sort u = " << u << ", E = " << E << ", w = " << w << ", n = " << shape.keys
    << " (a permutation of 0..n-1) -> " << r.output << " (" << key_format_name(r.format) << ")\n"
    << "pass searches: " << r.pass_iterations << " target sequences each, seed " << r.seed
    << (r.time_limit > 0 ? ", cut at --time-limit " + std::to_string(r.time_limit) +
                               " s per pass (the result may depend on the machine's speed)"
                         : "")
    << "\nmodel dmm, w banks; wavefronts of the serial-merge reads, all warps of the pass\n"
    << std::left << std::setw(28) << "pass" << std::setw(22) << "labeling" << std::right << std::setw(14)
    << "paper-steps" << std::setw(14) << "bound" << std::setw(9) << "ratio" << std::setw(14) << "CUB-reads"
    << std::setw(14) << "SerialMerge" << "\n";
  const auto costs = adv.pass_costs();
  for (std::size_t k = 0; k < costs.size(); ++k) {
    const auto& c = costs[k];
    s << std::left << std::setw(28) << adv.passes()[k].name << std::setw(22) << adv.passes()[k].source << std::right
      << std::setw(14) << c.paper_wavefronts << std::setw(14) << c.bound << std::setw(9) << std::fixed
      << std::setprecision(3) << static_cast<double>(c.paper_wavefronts) / static_cast<double>(c.bound)
      << std::defaultfloat << std::setw(14) << c.cub_wavefronts << std::setw(14) << c.serial_merge_wavefronts << "\n";
  }
  s << "bound: Theorem 8 per warp (section-4 passes); E^2 per warp, every step E-way (other passes: each bank holds E "
       "cells of a warp's wE elements)\n"
       "CUB-reads: init A, init B, a refill after each item; SerialMerge: without the last refill, what `bankcheck "
       "run merge-sort --input FILE` replays\n";
  return {s.str(), shape.keys};
}

}  // namespace

std::uint64_t write_permutation(const MergeSortAdversary& adv, const std::string& path, KeyFormat format,
                                unsigned key_bytes, const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  const MergeSortShape& shape = adv.shape();
  check_key_fits(key_bytes, 0, static_cast<std::int64_t>(shape.keys) - 1);
  KeyFileWriter out(path, format, key_bytes);
  const std::size_t T = shape.tile(), tiles_per_chunk = std::max<std::size_t>(1, (std::size_t{1} << 18) / T);
  auto report = [&] {
    if (progress) progress(out.keys_written(), shape.keys);
  };
  if (key_bytes == 4) {
    std::vector<std::int32_t> buffer(tiles_per_chunk * T);
    std::size_t filled = 0;
    auto flush = [&] {
      out.append(std::span<const std::int32_t>(buffer.data(), filled * T));
      filled = 0;
      report();
    };
    adv.write_tiles<std::int32_t>([&](std::uint64_t) { return buffer.data() + filled * T; },
                                  [&](std::uint64_t) {
                                    if (++filled == tiles_per_chunk) flush();
                                  });
    if (filled > 0) flush();
  } else {
    adv.generate_tiles<std::int64_t>([&](std::uint64_t, std::span<const std::int64_t> keys) {
      out.append(keys);
      report();
    });
  }
  out.commit();
  return out.keys_written();
}

ConstructionReport write_construction(const ConstructionRequest& r) {
  const ConstructionSpec* spec = find_construction(r.name);
  if (!spec || r.name == "merge-warp") {
    std::string names;
    for (const ConstructionSpec& s : constructions())
      if (s.name != "merge-warp") names += (names.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument("no construction for '" + r.name + "' (constructions: " + names +
                                "); use --search to look for a worst case of any registered algorithm");
  }
  const Params p = resolve_construction_params(*spec, r.params);
  require_output(r);
  if (r.name == "pbs") return write_pbs(r, p);
  if (r.name == "merge") return write_merge(r, p);
  return write_merge_sort(r, p);
}

}  // namespace bankcheck::proofs
