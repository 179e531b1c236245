#pragma once
// WarpGrouper: turns the per-lane access logs of one warp and phase into
// warp instructions (docs/algorithms.md, "single-source accessor design"):
// within a phase and a warp, the k-th dynamic execution of site s by each
// lane belongs to instruction (s, k); lanes without a k-th execution of s are
// inactive in it (SIMT predication and loop exit). The instructions are
// emitted in an order consistent with every lane's own order, preferring at
// each step the lowest lane's next access; when no such order exists the
// lanes cannot share one instruction stream and emit() throws
// DivergenceError naming the sites and lanes.
//
// Three ways to the same instructions, fastest first: lanes whose tag
// sequences are prefixes of the longest one (nested()) are read off column
// by column; a common tail after differing heads (common_suffix(): merge
// path, then CUB's serial merge) is split off and read off the same way;
// only the rest goes through the general greedy merge. The BlockRecorder
// (sim/algorithms/block_recorder.hpp) fills the log and calls emit().
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/warp_request.hpp"
#include "sim/algorithms/instruction_listener.hpp"
#include "sim/algorithms/shared_accessor.hpp"

namespace bankcheck {

/// Lanes of one warp executed two sites in orders no single instruction
/// stream can produce.
class DivergenceError : public std::runtime_error {
 public:
  DivergenceError(std::string message, unsigned lane_a, unsigned lane_b, std::string site_a, std::string site_b)
      : std::runtime_error(std::move(message)),
        lane_a(lane_a), lane_b(lane_b), site_a(std::move(site_a)), site_b(std::move(site_b)) {}
  unsigned lane_a, lane_b;   ///< lane_a's next access is site_a; lane_b must first run site_b
  std::string site_a, site_b;
};

/// Totals of one BlockRecorder::run().
struct RecorderSummary {
  std::uint64_t instructions = 0;   ///< warp instructions emitted
  std::uint64_t lane_accesses = 0;  ///< active lane accesses
};

class WarpGrouper {
 public:
  /// Groups the log of `state`, which must outlive the grouper.
  explicit WarpGrouper(const RecordingState& state) : state_(state) {}

  /// The qualified names "<algorithm>.<site>" the instructions carry.
  /// Rebuilt only when the algorithm changes.
  template <class SiteNames>
  void name_sites(std::string_view algorithm, const SiteNames& sites) {
    if (names_.size() == std::size(sites) && algorithm_ == algorithm) return;
    algorithm_ = std::string(algorithm);
    names_.clear();
    for (const char* s : sites) names_.push_back(algorithm_ + "." + s);
  }

  /// Size the work arrays for warps of `warp` lanes and `sites` sites.
  void reset(unsigned warp, std::size_t sites) {
    begin_.assign(warp + 1, 0);
    addr_.assign(warp, kInactive);
    counts_.assign(static_cast<std::size_t>(warp) * sites, 0);
    done_.assign(static_cast<std::size_t>(warp) * sites, 0);
    pos_.assign(warp, 0);
    end_.assign(warp, 0);
    taken_.assign(warp, 0);
    first_.assign(warp, nullptr);
    heads_.assign(warp, 0);
    rounds_.assign(sites, 0);
  }

  /// Lane `lane`'s log starts at entry `first` of the state's log (lane
  /// `warp` marks the end of the last lane's).
  void lane_begin(unsigned lane, std::size_t first) { begin_[lane] = first; }

  /// Merge the lanes' logs of one warp and phase (lane l's at
  /// [lane_begin(l), lane_begin(l+1)) of the state's log) into instructions
  /// (s, k) and hand them to `out`.
  /// @throws DivergenceError when no single instruction stream has every lane's order.
  void emit(std::uint64_t block, unsigned warp_index, unsigned phase, unsigned warp, std::size_t sites,
            InstructionListener& out, RecorderSummary& summary) {
    if (begin_[warp] == 0) return;
    InstructionInfo info;
    info.block = block;
    info.warp_index = warp_index;
    info.phase = phase;
    if (nested(warp, 0)) {
      emit_nested(info, warp, 0, out, summary);
      return;
    }
    // The lanes' heads (merged the nested way when they allow it, else by the
    // general greedy merge below), then the common tail the converged way:
    // see common_suffix().
    bool heads_nested = false;
    const std::size_t suffix = common_suffix(warp, sites, heads_nested);
    if (suffix > 0 && heads_nested) {
      emit_nested(info, warp, suffix, out, summary);
      emit_converged(info, warp, suffix, out, summary);
      return;
    }
    const std::uint32_t* tags = state_.tags;
    std::size_t remaining = 0;
    for (unsigned lane = 0; lane < warp; ++lane) {
      pos_[lane] = begin_[lane];
      end_[lane] = length(lane) == 0 ? begin_[lane] : begin_[lane + 1] - suffix;
      remaining += end_[lane] - begin_[lane];
      std::uint32_t* c = &counts_[lane * sites];
      std::fill(c, c + sites, 0);
      std::fill(&done_[lane * sites], &done_[lane * sites] + sites, 0);
      for (std::size_t i = begin_[lane]; i < end_[lane]; ++i) ++c[AccessTag::site(tags[i])];
    }
    unsigned lowest = 0;
    while (remaining > 0) {
      // The lowest lane whose next access is ready: every lane that has the
      // same (site, k) has it as its next access too. Usually the lowest
      // pending lane is; otherwise search on (and fail if none is).
      while (pos_[lowest] == end_[lowest]) ++lowest;
      unsigned chosen = lowest;
      unsigned active = gather(chosen, warp, sites);
      if (active == 0) {
        for (chosen = lowest + 1; chosen < warp; ++chosen)
          if (pos_[chosen] != end_[chosen] && (active = gather(chosen, warp, sites)) > 0) break;
        if (chosen == warp) diverged(warp, sites);
      }
      const std::uint32_t head = tags[pos_[chosen]];
      info.site = AccessTag::site(head);
      info.k = done_[chosen * sites + info.site];
      info.name = names_[info.site];
      info.active = active;
      for (unsigned i = 0; i < active; ++i) {
        const unsigned m = taken_[i];
        ++pos_[m];
        ++done_[m * sites + info.site];
      }
      remaining -= active;
      summary.lane_accesses += active;
      ++summary.instructions;
      out.instruction(info, WarpRequest{AccessTag::op(head), AccessTag::width(head),
                                        std::span<const std::uint64_t>(addr_)});
    }
    if (suffix > 0) emit_converged(info, warp, suffix, out, summary);
  }

 private:
  std::size_t length(unsigned lane) const { return begin_[lane + 1] - begin_[lane]; }
  unsigned site_at(std::size_t i) const { return AccessTag::site(state_.tags[i]); }


  unsigned first_nonempty() const {
    unsigned ref = 0;
    while (length(ref) == 0) ++ref;
    return ref;
  }

  // Lanes often diverge only at the start of a phase (searches of different
  // lengths) and then run the same sites in the same order. The longest
  // common tail of the non-empty lanes' logs whose sites occur in no lane
  // before it: the general merge emits every earlier access first (a tail
  // instruction needs every lane at it), and a tail entry's k is its rank
  // within the tail, so the tail can be emitted the converged way.
  // Sets heads_nested to nested(warp, result).
  std::size_t common_suffix(unsigned warp, std::size_t sites, bool& heads_nested) {
    const unsigned ref = first_nonempty();
    const std::uint32_t* tags = state_.tags;
    const std::size_t ref_end = begin_[ref + 1];
    std::size_t tail = length(ref);
    for (unsigned lane = ref + 1; lane < warp && tail > 0; ++lane) {
      if (length(lane) == 0) continue;
      const std::size_t end = begin_[lane + 1];
      std::size_t t = 0;
      const std::size_t most = std::min(tail, length(lane));
      while (t < most && tags[end - 1 - t] == tags[ref_end - 1 - t]) ++t;
      tail = t;
    }
    if (tail == 0) return 0;
    // Sites of the heads: those of the longest head if the heads are nested.
    heads_nested = nested(warp, tail);
    in_prefix_.assign(sites, 0);
    for (unsigned lane = heads_nested ? nested_ref_ : ref; lane < warp; ++lane) {
      if (length(lane) > 0)
        for (std::size_t i = begin_[lane]; i < begin_[lane + 1] - tail; ++i) in_prefix_[AccessTag::site(tags[i])] = 1;
      if (heads_nested) break;
    }
    // Shrink the tail past its last entry whose site also occurs earlier.
    bool shrunk = false;
    for (bool changed = true; changed && tail > 0;) {
      changed = false;
      for (std::size_t i = ref_end - 1; i + 1 > ref_end - tail; --i)
        if (in_prefix_[AccessTag::site(tags[i])]) {
          for (std::size_t j = ref_end - tail; j <= i; ++j) in_prefix_[AccessTag::site(tags[j])] = 1;
          tail = ref_end - 1 - i;
          changed = shrunk = true;
          break;
        }
    }
    if (shrunk) heads_nested = tail > 0 && nested(warp, tail);
    return tail;
  }

  // Head of a lane: its entries before the common tail of `tail` entries.
  std::size_t head_length(unsigned lane, std::size_t tail) const {
    return length(lane) == 0 ? 0 : length(lane) - tail;
  }

  // Every lane's head (tag sequence: sites, widths, ops) is a prefix of the
  // longest one: lanes that agree and differ only in how long they run (loop
  // exit, predication at the end), the common case. Then instruction i is
  // entry i of every lane whose head is longer than i, with the same (s, k)
  // in every lane; the greedy merge would emit exactly these, in this order.
  bool nested(unsigned warp, std::size_t tail) {
    unsigned ref = 0;
    for (unsigned lane = 1; lane < warp; ++lane)
      if (head_length(lane, tail) > head_length(ref, tail)) ref = lane;
    const std::uint32_t* r = state_.tags + begin_[ref];
    for (unsigned lane = 0; lane < warp; ++lane) {
      const std::size_t len = head_length(lane, tail);
      if (lane != ref && len > 0 && std::memcmp(state_.tags + begin_[lane], r, len * sizeof(std::uint32_t)) != 0)
        return false;
    }
    nested_ref_ = ref;
    return true;
  }

  // @pre nested(warp, tail) just returned true.
  void emit_nested(InstructionInfo& info, unsigned warp, std::size_t tail, InstructionListener& out,
                   RecorderSummary& summary) {
    const std::size_t n = head_length(nested_ref_, tail);
    const std::uint32_t* tags = state_.tags + begin_[nested_ref_];
    std::fill(rounds_.begin(), rounds_.end(), 0);
    unsigned lanes = 0;  // lanes with a non-empty head, and their heads
    for (unsigned lane = 0; lane < warp; ++lane)
      if (const std::size_t len = head_length(lane, tail); len > 0) {
        taken_[lanes] = lane;
        first_[lanes] = state_.addrs + begin_[lane];
        heads_[lanes++] = len;
      }
    std::fill(addr_.begin(), addr_.end(), kInactive);
    for (std::size_t i = 0; i < n; ++i) {
      unsigned active = 0;
      for (unsigned j = 0; j < lanes; ++j) {
        const bool runs = heads_[j] > i;
        addr_[taken_[j]] = runs ? first_[j][i] : kInactive;
        active += runs;
      }
      const std::uint32_t head = tags[i];
      info.site = AccessTag::site(head);
      info.k = rounds_[info.site]++;
      info.name = names_[info.site];
      info.active = active;
      summary.lane_accesses += active;
      ++summary.instructions;
      out.instruction(info, WarpRequest{AccessTag::op(head), AccessTag::width(head),
                                        std::span<const std::uint64_t>(addr_)});
    }
  }

  // The last n entries of every non-empty lane, which have equal tags, as
  // n instructions; k counts from 0 (no earlier entry has these sites).
  void emit_converged(InstructionInfo& info, unsigned warp, std::size_t n, InstructionListener& out,
                      RecorderSummary& summary) {
    const unsigned ref = first_nonempty();
    unsigned active = 0;
    for (unsigned lane = 0; lane < warp; ++lane)
      if (length(lane) > 0) {
        taken_[active] = lane;
        first_[active++] = state_.addrs + begin_[lane + 1] - n;
      }
    std::fill(addr_.begin(), addr_.end(), kInactive);
    std::fill(rounds_.begin(), rounds_.end(), 0);
    const std::uint32_t* tags = state_.tags + begin_[ref + 1] - n;
    info.active = active;
    for (std::size_t i = 0; i < n; ++i) {
      for (unsigned j = 0; j < active; ++j) addr_[taken_[j]] = first_[j][i];
      const std::uint32_t head = tags[i];
      info.site = AccessTag::site(head);
      info.k = rounds_[info.site]++;
      info.name = names_[info.site];
      out.instruction(info, WarpRequest{AccessTag::op(head), AccessTag::width(head),
                                        std::span<const std::uint64_t>(addr_)});
    }
    summary.lane_accesses += std::uint64_t{active} * n;
    summary.instructions += n;
  }

  // Try to form the instruction (s, k) of `lane`'s next access: every lane
  // that runs (s, k) at all must have it next. Fills addr_ and taken_ and
  // returns the active lanes, or 0 if some lane must run something else first.
  unsigned gather(unsigned lane, unsigned warp, std::size_t sites) {
    const std::uint32_t head = state_.tags[pos_[lane]];
    const unsigned s = AccessTag::site(head);
    const std::uint32_t k = done_[lane * sites + s];
    unsigned active = 0;
    for (unsigned m = 0; m < warp; ++m) {
      addr_[m] = kInactive;
      if (counts_[m * sites + s] <= k) continue;  // this lane never runs (s, k)
      if (pos_[m] == end_[m]) return 0;
      const std::uint32_t tag = state_.tags[pos_[m]];
      if (AccessTag::site(tag) != s) return 0;
      if (tag != head) mixed_site(s);
      addr_[m] = state_.addrs[pos_[m]];
      taken_[active++] = m;
    }
    return active;
  }

  [[noreturn]] void mixed_site(unsigned s) const {
    throw std::logic_error(names_[s] + ": one site used with two widths or ops; give each its own site id");
  }

  // A lane that has (s, k) ahead of it but must first run something else;
  // `warp` if none (then lane's next access is ready).
  unsigned blocker(unsigned lane, unsigned s, unsigned warp, std::size_t sites) const {
    const std::uint32_t k = done_[lane * sites + s];
    for (unsigned m = 0; m < warp; ++m) {
      if (counts_[m * sites + s] <= k) continue;
      if (site_at(pos_[m]) != s) return m;
    }
    return warp;
  }

  [[noreturn]] void diverged(unsigned warp, std::size_t sites) const {
    for (unsigned lane = 0; lane < warp; ++lane) {
      if (pos_[lane] == end_[lane]) continue;
      const unsigned s = site_at(pos_[lane]);
      const unsigned m = blocker(lane, s, warp, sites);
      const unsigned t = site_at(pos_[m]);
      throw DivergenceError("divergent warp: lane " + std::to_string(lane) + " runs " + names_[s] +
                                " next, but lane " + std::to_string(m) + " runs " + names_[t] +
                                " before it; no single instruction stream has both orders",
                            lane, m, names_[s], names_[t]);
    }
    throw std::logic_error("BlockRecorder: no ready lane yet no lane pending");
  }

  const RecordingState& state_;
  std::string algorithm_;
  std::vector<std::string> names_;
  std::vector<std::size_t> begin_;      // lane l's log: [begin_[l], begin_[l+1]) of state_'s log
  std::vector<std::uint64_t> addr_;
  std::vector<std::uint32_t> counts_, done_;
  std::vector<std::size_t> pos_;        // next entry of each lane
  std::vector<std::size_t> end_;        // general path: end of each lane's entries before the common tail
  std::vector<char> in_prefix_;         // per site: occurs before the common tail
  unsigned nested_ref_ = 0;             // the lane with the longest head (nested())
  std::vector<std::size_t> heads_;      // emit_nested: head length of each lane in taken_
  std::vector<unsigned> taken_;         // lanes of the instruction being formed
  std::vector<const std::uint64_t*> first_;  // converged path: each active lane's first address
  std::vector<std::uint64_t> rounds_;   // per site: instructions emitted (converged path)
};

}  // namespace bankcheck
