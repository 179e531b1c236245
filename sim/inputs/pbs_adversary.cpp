#include "sim/inputs/pbs_adversary.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "model/power_of_two.hpp"

namespace bankcheck::inputs {

unsigned pbs_rounds(std::uint64_t keys) {
  return log2_ceil(keys) + 1;  // ceil(log2 K) loop rounds + final check
}

std::vector<std::uint64_t> pbs_probes(std::uint64_t keys, std::uint64_t query) {
  if (keys == 0) throw std::invalid_argument("PBS needs at least one key (K >= 1)");
  std::vector<std::uint64_t> out;
  std::uint64_t index = keys / 2, delta = (keys + 3) / 4;
  const unsigned loops = pbs_rounds(keys) - 1;
  for (unsigned k = 0; k < loops; ++k) {  // Algorithm 1, HiPC'15
    out.push_back(index);
    if (query >= index)
      index = std::min(index + delta, keys - 1);
    else
      index = index >= delta ? index - delta : 0;
    delta = (delta + 1) / 2;
  }
  out.push_back(index);  // final "if q < K[index]" check
  return out;
}

namespace {

std::uint64_t bank_of(const BankModel& model, std::uint64_t index, unsigned key_bytes) {
  const BankGeometry& g = model.geometry();
  const std::uint64_t cell = g.bank_bytes == 0 ? index : index * key_bytes / g.bank_bytes;
  return cell % g.banks;
}

}  // namespace

PbsQuerySet corollary41_queries(std::uint64_t keys, unsigned warp, std::uint64_t count, std::uint64_t c) {
  const std::uint64_t w2 = std::uint64_t{warp} * warp;
  if (warp == 0) throw std::invalid_argument("warp size must be at least 1");
  if (keys < w2 || keys % w2 != 0) {
    const std::uint64_t down = keys / w2 * w2, up = down + w2;
    const std::uint64_t nearest = down == 0 || keys - down > up - keys ? up : down;
    throw std::invalid_argument("Corollary 4.1 needs K a multiple of w^2 = " + std::to_string(w2) +
                                " with K >= w^2; got K = " + std::to_string(keys) +
                                "; nearest valid value: " + std::to_string(nearest) +
                                " (or use the Lemma 4.2 construction, any K >= 2w^2)");
  }
  const std::uint64_t stride = keys / warp;
  if (c >= stride)
    throw std::invalid_argument("Corollary 4.1 needs 0 <= C < K/w = " + std::to_string(stride) + "; got C = " +
                                std::to_string(c) + "; nearest valid value: " + std::to_string(stride - 1));
  PbsQuerySet set;
  set.construction = "corollary-4.1";
  set.first_full_round = log2_ceil(warp) + 1;
  set.queries.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) set.queries[i] = corollary41_index(keys, warp, static_cast<unsigned>(i % warp), c);
  return set;
}

PbsQuerySet lemma42_queries(const BankModel& model, std::uint64_t keys, unsigned key_bytes, std::uint64_t count) {
  const unsigned w = model.geometry().warp;
  const std::uint64_t need = 2 * std::uint64_t{w} * w;
  if (keys < need)
    throw std::invalid_argument("Lemma 4.2 needs K >= 2w^2 = " + std::to_string(need) + "; got K = " +
                                std::to_string(keys) + "; nearest valid value: " + std::to_string(need));
  const unsigned r = 2 * log2_ceil(w) + 1;  // 1-based round of the pigeonhole
  // Queries reaching each address of round r: an interval per address.
  struct Node {
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  };
  std::map<std::uint64_t, Node> nodes;
  for (std::uint64_t q = 0; q < keys; ++q) {
    const std::uint64_t a = pbs_probes(keys, q)[r - 1];
    Node& n = nodes[a];
    n.lo = std::min(n.lo, q);
    n.hi = std::max(n.hi, q);
  }
  // Pigeonhole: a bank holding at least w of these addresses.
  std::map<std::uint64_t, std::vector<std::uint64_t>> by_bank;
  for (const auto& [a, n] : nodes) by_bank[bank_of(model, a, key_bytes)].push_back(a);
  auto fullest = std::max_element(by_bank.begin(), by_bank.end(),
                                  [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
  std::vector<std::uint64_t> chosen = fullest->second;
  // Prefer addresses away from the ends, where the clamps of Algorithm 1 bend the path.
  if (chosen.size() > w) {
    const std::size_t skip = (chosen.size() - w) / 2;
    chosen = std::vector<std::uint64_t>(chosen.begin() + skip, chosen.begin() + skip + w);
  }
  // Every lane sits at the same offset c inside its subtree: pick the c that costs most.
  std::int64_t c_lo = INT64_MIN, c_hi = INT64_MAX;
  for (std::uint64_t a : chosen) {
    c_lo = std::max<std::int64_t>(c_lo, static_cast<std::int64_t>(nodes[a].lo) - static_cast<std::int64_t>(a));
    c_hi = std::min<std::int64_t>(c_hi, static_cast<std::int64_t>(nodes[a].hi) - static_cast<std::int64_t>(a));
  }
  if (c_lo > c_hi) c_lo = c_hi = 0;  // subtrees too small to share an offset: start each lane at its address
  std::vector<std::uint64_t> best_lanes;
  std::uint64_t best = 0;
  for (std::int64_t c = c_lo; c <= c_hi; ++c) {
    std::vector<std::uint64_t> lanes(w);
    for (unsigned i = 0; i < w; ++i) lanes[i] = chosen[i % chosen.size()] + c;
    const std::uint64_t cost = pbs_cost(model, keys, key_bytes, lanes).total_wavefronts;
    if (best_lanes.empty() || cost > best) {
      best = cost;
      best_lanes = lanes;
    }
  }
  PbsQuerySet set;
  set.construction = "lemma-4.2";
  set.first_full_round = r;
  set.queries.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) set.queries[i] = best_lanes[i % w];
  return set;
}

PbsCost pbs_cost(const BankModel& model, std::uint64_t keys, unsigned key_bytes,
                 const std::vector<std::uint64_t>& queries) {
  const unsigned w = model.geometry().warp, rounds = pbs_rounds(keys);
  PbsCost out;
  out.wavefronts_per_round.assign(rounds, 0);
  std::vector<std::uint64_t> addr(w);
  for (std::size_t first = 0; first < queries.size(); first += w) {
    std::vector<std::vector<std::uint64_t>> probes;
    for (unsigned l = 0; l < w; ++l)
      probes.push_back(first + l < queries.size() ? pbs_probes(keys, queries[first + l]) : std::vector<std::uint64_t>{});
    for (unsigned k = 0; k < rounds; ++k) {
      for (unsigned l = 0; l < w; ++l) addr[l] = probes[l].empty() ? kInactive : probes[l][k] * key_bytes;
      const RequestCost c = model.cost(WarpRequest{Op::load, key_bytes, addr});
      out.wavefronts_per_round[k] += c.wavefronts;
      out.total_wavefronts += c.wavefronts;
      out.total_conflicts += c.conflicts();
    }
  }
  return out;
}

}  // namespace bankcheck::inputs
