#include "sim/inputs/merge_adversary.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace bankcheck::inputs {

Section4Parameters section4_parameters(unsigned warp, unsigned items) {
  if (warp < 2)
    throw std::invalid_argument("warp size w must be at least 2 for a worst-case merge (got " +
                                std::to_string(warp) + "); nearest valid value: 2");
  if (items <= 1 || items > warp) {
    const unsigned nearest = items <= 1 ? 2 : warp;
    throw std::invalid_argument("items per thread E must satisfy 1 < E <= w = " + std::to_string(warp) +
                                " (SPAA'25 Section 4); got E = " + std::to_string(items) +
                                "; nearest valid value: " + std::to_string(nearest));
  }
  Section4Parameters p;
  p.warp = warp;
  p.items = items;
  p.d = std::gcd(warp, items);
  p.q = warp / items;
  p.r = warp % items;
  return p;
}

std::vector<MergeSplit> section4_s(const Section4Parameters& p) {
  const unsigned e_d = p.items / p.d, r_d = p.r / p.d;
  std::vector<MergeSplit> s;
  for (unsigned i = 1; i + 1 <= e_d; ++i) {
    const unsigned si = (i * r_d) % e_d;
    const unsigned x = (e_d - si) * p.d, y = si * p.d;
    s.push_back(i % 2 == 0 ? MergeSplit{x, y} : MergeSplit{y, x});
  }
  return s;
}

std::vector<MergeSplit> section4_t(const Section4Parameters& p) {
  const unsigned E = p.items, e_d = E / p.d, r_d = p.r / p.d;
  const MergeSplit scan_a{E, 0}, scan_b{0, E};
  std::vector<MergeSplit> t;
  if (p.r == 0) {  // d = E: S is empty, every thread scans E items of one column
    t.assign(p.q, scan_a);
    return t;
  }
  const std::vector<MergeSplit> s = section4_s(p);  // s[i-1] is (a_i, b_i)
  auto x = [&](unsigned i) { return (e_d - (i * r_d) % e_d) * p.d; };
  auto y = [&](unsigned i) { return ((i * r_d) % e_d) * p.d; };
  // (1) (a_1, b_1) = (r, E - r), then q scans of A.
  t.push_back(s[0]);
  t.insert(t.end(), p.q, scan_a);
  // (2) for i = 1 .. E/d - 2: (a_{i+1}, b_{i+1}), then q (or q - 1) scans of A (i even) or B (i odd).
  for (unsigned i = 1; i + 2 <= e_d; ++i) {
    t.push_back(s[i]);
    const unsigned count = x(i) + y(i + 1) == p.r ? p.q : p.q - 1;  // Lemma 7: the sum is r or E + r
    t.insert(t.end(), count, i % 2 == 0 ? scan_a : scan_b);
  }
  // (3) q scans of A if E/d - 1 is even, of B otherwise.
  t.insert(t.end(), p.q, (e_d - 1) % 2 == 0 ? scan_a : scan_b);
  return t;
}

std::vector<MergeSplit> worst_warp_splits(const Section4Parameters& p, bool a_major) {
  const std::vector<MergeSplit> t = section4_t(p);
  std::vector<MergeSplit> out;
  out.reserve(p.warp);
  for (unsigned k = 0; k < p.d; ++k) {
    const bool this_a_major = (k % 2 == 0) == a_major;
    for (const MergeSplit& s : t) out.push_back(this_a_major ? s : MergeSplit{s.from_b, s.from_a});
  }
  return out;
}

std::vector<std::uint8_t> labels_from_splits(std::span<const MergeSplit> splits, unsigned columns) {
  std::vector<std::uint8_t> out;
  std::uint64_t ca = 0, cb = 0;
  for (const MergeSplit& s : splits) {
    const bool a_ends = s.from_a > 0 && (ca + s.from_a) % columns == 0;
    const bool b_ends = s.from_b > 0 && (cb + s.from_b) % columns == 0;
    const bool a_last = a_ends && !b_ends;
    out.insert(out.end(), a_last ? s.from_b : s.from_a, a_last ? 1 : 0);
    out.insert(out.end(), a_last ? s.from_a : s.from_b, a_last ? 0 : 1);
    ca += s.from_a;
    cb += s.from_b;
  }
  return out;
}

std::vector<MergeSplit> splits_from_labels(std::span<const std::uint8_t> from_b, unsigned items) {
  if (items == 0 || from_b.size() % items != 0)
    throw std::invalid_argument("labeling length " + std::to_string(from_b.size()) +
                                " is not a multiple of the items per thread " + std::to_string(items));
  std::vector<MergeSplit> out(from_b.size() / items);
  for (std::size_t k = 0; k < from_b.size(); ++k) (from_b[k] ? out[k / items].from_b : out[k / items].from_a)++;
  return out;
}

MergeLists merge_lists_from_labels(std::span<const std::uint8_t> from_b) {
  MergeLists lists;
  for (std::size_t k = 0; k < from_b.size(); ++k)
    (from_b[k] ? lists.b : lists.a).push_back(static_cast<std::int64_t>(k));
  return lists;
}

MergeWarpCost merge_warp_cost(const BankModel& model, const WarpMergeLayout& layout, unsigned key_bytes,
                              MergeReads reads) {
  const unsigned w = model.geometry().warp, E = layout.items;
  if (E == 0 || layout.from_b.size() != std::size_t{w} * E)
    throw std::invalid_argument("merge_warp_cost: labeling must hold warp * items = " + std::to_string(w * E) +
                                " entries, got " + std::to_string(layout.from_b.size()));
  // Element index each thread reads next from A and from B.
  std::vector<std::uint64_t> next_a(w), next_b(w);
  std::uint64_t ca = 0, cb = 0;
  for (unsigned t = 0; t < w; ++t) {
    next_a[t] = layout.a_base + ca;
    next_b[t] = layout.b_base + cb;
    for (unsigned j = 0; j < E; ++j) (layout.from_b[t * E + j] ? cb : ca)++;
  }
  MergeWarpCost out;
  std::vector<std::uint64_t> addr(w);
  auto issue = [&] {
    const RequestCost c = model.cost(WarpRequest{Op::load, key_bytes, addr});
    out.wavefronts.push_back(c.wavefronts);
    out.total_wavefronts += c.wavefronts;
    out.total_conflicts += c.conflicts();
  };
  if (reads == MergeReads::cub_serial_merge) {  // key1 = keys[keys1_beg]; key2 = keys[keys2_beg]
    for (unsigned t = 0; t < w; ++t) addr[t] = next_a[t] * key_bytes;
    issue();
    for (unsigned t = 0; t < w; ++t) addr[t] = next_b[t] * key_bytes;
    issue();
  }
  for (unsigned j = 0; j < E; ++j) {
    for (unsigned t = 0; t < w; ++t) {
      std::uint64_t& next = layout.from_b[t * E + j] ? next_b[t] : next_a[t];
      // paper: read the item consumed at this step; CUB: consume, then read the one after it.
      addr[t] = (reads == MergeReads::paper_steps ? next : next + 1) * key_bytes;
      ++next;
    }
    issue();
  }
  return out;
}

}  // namespace bankcheck::inputs
