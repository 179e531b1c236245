#pragma once
// BlockRecorder: runs one thread block of an algorithm header on the CPU
// through RecordingArray and turns the per-lane access logs into warp
// instructions (docs/algorithms.md, "single-source accessor design").
//
// An algorithm is a header-only type written per thread:
//   struct Algo {
//     static constexpr const char* kName = "toy";
//     static constexpr const char* kSiteNames[] = {"a", "b"};   // site ids index this
//     static constexpr int kPhases = 2;          // or: int phases() const
//     template <class Smem> BANKCHECK_HD void phase(int k, int tid, Smem& smem) const;
//   };
// The GPU runs `for k: { algo.phase(k, threadIdx.x, smem); __syncthreads(); }`.
// The CPU runs each phase for every thread in turn; for race-free code (a
// thread reads in a phase only what earlier phases wrote) every thread sees
// the values it would see on the GPU.
//
// Warp instructions: within a phase and a warp, the k-th dynamic execution
// of site s by each lane belongs to instruction (s, k); lanes without a k-th
// execution of s are inactive in it (SIMT predication and loop exit). The
// instructions are emitted in an order consistent with every lane's own
// order, preferring at each step the lowest lane's next access; when no such
// order exists the lanes cannot share one instruction stream and run()
// throws DivergenceError naming the sites and lanes.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/warp_request.hpp"
#include "sim/shared_accessor.hpp"
#include "sim/trace.hpp"

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

/// Where an instruction sits: for per-round breakdowns.
struct InstructionInfo {
  std::uint64_t block = 0;      ///< block index given to run()
  unsigned warp_index = 0;      ///< warp within the block
  unsigned phase = 0;           ///< phase (barrier-separated step) of the algorithm
  unsigned site = 0;            ///< the algorithm's site id
  std::uint64_t k = 0;          ///< 0-based dynamic execution index of the site in this phase (the round)
  std::string_view name;        ///< "<algorithm>.<site name>"
  unsigned active = 0;          ///< active lanes
};

/// Receives the warp instructions of a run.
class InstructionListener {
 public:
  virtual ~InstructionListener() = default;
  virtual void instruction(const InstructionInfo& info, const WarpRequest& request) = 0;
};

/// Forwards instructions to a TraceSink (the caller calls sink.begin/end).
class SinkListener final : public InstructionListener {
 public:
  explicit SinkListener(TraceSink& sink) : sink_(sink) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    sink_.record(info.name, request);
  }

 private:
  TraceSink& sink_;
};

/// Totals of one run().
struct RecorderSummary {
  std::uint64_t instructions = 0;   ///< warp instructions emitted
  std::uint64_t lane_accesses = 0;  ///< active lane accesses
};

namespace detail {
template <class Algo>
int phase_count(const Algo& algo) {
  if constexpr (requires { algo.phases(); })
    return static_cast<int>(algo.phases());
  else
    return Algo::kPhases;
}
}  // namespace detail

class BlockRecorder {
 public:
  /// @pre shared_bytes is the block's shared memory size; it starts zeroed.
  explicit BlockRecorder(std::size_t shared_bytes) { state_.bytes.assign(shared_bytes, 0); }

  /// The block's shared memory as the CPU sees it (inspect or preload).
  std::span<unsigned char> shared() { return state_.bytes; }
  std::span<const unsigned char> shared() const { return state_.bytes; }
  /// Zero the shared memory (between blocks, if an algorithm relies on it).
  void clear() { std::fill(state_.bytes.begin(), state_.bytes.end(), 0); }

  /// Run every phase of `algo` for threads 0..threads-1 of block `block`,
  /// warps of `warp` lanes (the last warp may be partial: its missing lanes
  /// are inactive), and hand each warp instruction to `out`.
  /// @throws DivergenceError, std::out_of_range (bad access), std::invalid_argument (bad sizes).
  template <class Algo>
  RecorderSummary run(const Algo& algo, unsigned threads, unsigned warp, InstructionListener& out,
                      std::uint64_t block = 0) {
    if (warp == 0) throw std::invalid_argument("warp size must be >= 1");
    if (threads == 0) throw std::invalid_argument("a block needs at least one thread");
    constexpr std::size_t site_count = std::size(Algo::kSiteNames);
    static_assert(site_count > 0 && site_count < 65536, "an algorithm needs 1..65535 sites");
    if (names_.size() != site_count || algorithm_ != Algo::kName) {
      algorithm_ = Algo::kName;
      names_.clear();
      for (const char* s : Algo::kSiteNames) names_.push_back(algorithm_ + "." + s);
    }
    state_.site_count = static_cast<unsigned>(site_count);
    logs_.resize(warp);
    addr_.assign(warp, kInactive);
    counts_.assign(static_cast<std::size_t>(warp) * site_count, 0);
    done_.assign(static_cast<std::size_t>(warp) * site_count, 0);
    pos_.assign(warp, 0);

    RecordingArray smem(&state_, 0);
    RecorderSummary summary;
    const int phases = detail::phase_count(algo);
    const unsigned warps = (threads + warp - 1) / warp;
    for (int p = 0; p < phases; ++p) {
      for (unsigned g = 0; g < warps; ++g) {
        const unsigned first = g * warp;
        const unsigned lanes = std::min(warp, threads - first);
        for (unsigned lane = 0; lane < warp; ++lane) logs_[lane].clear();
        for (unsigned lane = 0; lane < lanes; ++lane) {
          state_.lane_log = &logs_[lane];
          state_.lane_thread = first + lane;
          algo.phase(p, static_cast<int>(first + lane), smem);
        }
        state_.lane_log = nullptr;
        emit(block, g, static_cast<unsigned>(p), warp, site_count, out, summary);
      }
    }
    return summary;
  }

 private:
  // Merge the lanes' logs of one warp and phase into instructions (s, k).
  void emit(std::uint64_t block, unsigned warp_index, unsigned phase, unsigned warp, std::size_t sites,
            InstructionListener& out, RecorderSummary& summary) {
    std::size_t remaining = 0;
    for (unsigned lane = 0; lane < warp; ++lane) {
      pos_[lane] = 0;
      std::uint32_t* c = &counts_[lane * sites];
      std::fill(c, c + sites, 0);
      std::fill(&done_[lane * sites], &done_[lane * sites] + sites, 0);
      for (const LaneAccess& a : logs_[lane]) ++c[a.site];
      remaining += logs_[lane].size();
    }
    while (remaining > 0) {
      // The lowest lane whose next access is ready: every lane that has the
      // same (site, k) has it as its next access too.
      unsigned chosen = warp;
      for (unsigned lane = 0; lane < warp && chosen == warp; ++lane) {
        if (pos_[lane] == logs_[lane].size()) continue;
        const unsigned s = logs_[lane][pos_[lane]].site;
        if (blocker(lane, s, warp, sites) == warp) chosen = lane;
      }
      if (chosen == warp) diverged(warp, sites);
      const LaneAccess& head = logs_[chosen][pos_[chosen]];
      const unsigned s = head.site;
      const std::uint32_t k = done_[chosen * sites + s];
      InstructionInfo info;
      info.block = block;
      info.warp_index = warp_index;
      info.phase = phase;
      info.site = s;
      info.k = k;
      info.name = names_[s];
      for (unsigned lane = 0; lane < warp; ++lane) {
        addr_[lane] = kInactive;
        if (counts_[lane * sites + s] <= k) continue;  // this lane never runs (s, k)
        const LaneAccess& a = logs_[lane][pos_[lane]];
        if (a.width != head.width || a.op != head.op)
          throw std::logic_error(names_[s] + ": one site used with two widths or ops; give each its own site id");
        addr_[lane] = a.addr;
        ++pos_[lane];
        ++done_[lane * sites + s];
        ++info.active;
      }
      remaining -= info.active;
      summary.lane_accesses += info.active;
      ++summary.instructions;
      out.instruction(info, WarpRequest{head.op, head.width, std::span<const std::uint64_t>(addr_)});
    }
  }

  // A lane that has (s, k) ahead of it but must first run something else;
  // `warp` if none (then lane's next access is ready).
  unsigned blocker(unsigned lane, unsigned s, unsigned warp, std::size_t sites) const {
    const std::uint32_t k = done_[lane * sites + s];
    for (unsigned m = 0; m < warp; ++m) {
      if (counts_[m * sites + s] <= k) continue;
      if (logs_[m][pos_[m]].site != s) return m;
    }
    return warp;
  }

  [[noreturn]] void diverged(unsigned warp, std::size_t sites) const {
    for (unsigned lane = 0; lane < warp; ++lane) {
      if (pos_[lane] == logs_[lane].size()) continue;
      const unsigned s = logs_[lane][pos_[lane]].site;
      const unsigned m = blocker(lane, s, warp, sites);
      const unsigned t = logs_[m][pos_[m]].site;
      throw DivergenceError("divergent warp: lane " + std::to_string(lane) + " runs " + names_[s] +
                                " next, but lane " + std::to_string(m) + " runs " + names_[t] +
                                " before it; no single instruction stream has both orders",
                            lane, m, names_[s], names_[t]);
    }
    throw std::logic_error("BlockRecorder: no ready lane yet no lane pending");
  }

  RecordingState state_;
  std::string algorithm_;
  std::vector<std::string> names_;
  std::vector<std::vector<LaneAccess>> logs_;
  std::vector<std::uint64_t> addr_;
  std::vector<std::uint32_t> counts_, done_;
  std::vector<std::size_t> pos_;
};

}  // namespace bankcheck
