#pragma once
// BlockRecorder: runs one thread block of a BlockAlgorithm
// (sim/algorithms/block_algorithm.hpp) on the CPU through RecordingArray and
// hands the resulting warp instructions to an InstructionListener
// (docs/algorithms.md, "single-source accessor design").
//
// The GPU runs `for k: { algo.phase(k, threadIdx.x, smem); __syncthreads(); }`.
// The CPU runs each phase for every thread in turn, warp by warp, logging
// each lane's shared accesses; for race-free code (a thread reads in a phase
// only what earlier phases wrote) every thread sees the values it would see
// on the GPU. The WarpGrouper (sim/algorithms/warp_grouping.hpp) turns each
// warp's lane logs into instructions.
#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/global_accessor.hpp"
#include "sim/algorithms/instruction_listener.hpp"
#include "sim/algorithms/shared_accessor.hpp"
#include "sim/algorithms/warp_grouping.hpp"

namespace bankcheck {

class BlockRecorder {
 public:
  /// @pre shared_bytes is the block's shared memory size; it starts zeroed.
  explicit BlockRecorder(std::size_t shared_bytes) { state_.bytes.assign(shared_bytes, 0); }
  BlockRecorder(const BlockRecorder&) = delete;  // the grouper refers to this recorder's log
  BlockRecorder& operator=(const BlockRecorder&) = delete;

  /// The block's shared memory as the CPU sees it (inspect or preload).
  std::span<unsigned char> shared() { return state_.bytes; }
  std::span<const unsigned char> shared() const { return state_.bytes; }
  /// A global array whose accesses this recorder logs as gld/gst at `base +
  /// index * sizeof(T)` (sim/algorithms/global_accessor.hpp); valid while the recorder lives.
  template <class T>
  RecordingGlobal<T> global(T* data, std::size_t size, std::uint64_t base) {
    return RecordingGlobal<T>(&state_, data, size, base);
  }

  /// Zero the shared memory (between blocks, if an algorithm relies on it).
  void clear() { std::fill(state_.bytes.begin(), state_.bytes.end(), 0); }

  /// Run every phase of `algo` for threads 0..threads-1 of block `block`,
  /// warps of `warp` lanes (the last warp may be partial: its missing lanes
  /// are inactive), and hand each warp instruction to `out`.
  /// @throws DivergenceError, std::out_of_range (bad access), std::invalid_argument (bad sizes).
  template <BlockAlgorithm Algo>
  RecorderSummary run(const Algo& algo, unsigned threads, unsigned warp, InstructionListener& out,
                      std::uint64_t block = 0) {
    if (warp == 0) throw std::invalid_argument("warp size must be >= 1");
    if (threads == 0) throw std::invalid_argument("a block needs at least one thread");
    constexpr std::size_t site_count = block_site_count<Algo>();
    grouper_.name_sites(Algo::kName, Algo::kSiteNames);
    grouper_.reset(warp, site_count);
    state_.site_count = static_cast<unsigned>(site_count);

    RecordingArray smem(&state_, 0);
    RecorderSummary summary;
    const int phases = block_phases(algo);
    const unsigned warps = (threads + warp - 1) / warp;
    for (int p = 0; p < phases; ++p) {
      for (unsigned g = 0; g < warps; ++g) {
        const unsigned first = g * warp;
        const unsigned lanes = std::min(warp, threads - first);
        // One log per warp, lane after lane.
        state_.reset_log();
        for (unsigned lane = 0; lane < lanes; ++lane) {
          grouper_.lane_begin(lane, state_.used());
          state_.lane_thread = first + lane;
          algo.phase(p, static_cast<int>(first + lane), smem);
        }
        for (unsigned lane = lanes; lane <= warp; ++lane) grouper_.lane_begin(lane, state_.used());
        grouper_.emit(block, g, static_cast<unsigned>(p), warp, site_count, out, summary);
      }
    }
    return summary;
  }

  /// The same with the algorithm's own block size (block_threads(algo)).
  template <BlockAlgorithm Algo>
  RecorderSummary run(const Algo& algo, unsigned warp, InstructionListener& out, std::uint64_t block = 0) {
    return run(algo, block_threads(algo), warp, out, block);
  }

 private:
  RecordingState state_;
  WarpGrouper grouper_{state_};
};

}  // namespace bankcheck
