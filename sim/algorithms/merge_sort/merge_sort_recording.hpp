#pragma once
// The whole pairwise merge sort of merge_sort.hpp on the CPU, kernel by
// kernel as the GPU runs it (the tile kernel on every tile, then a global
// pass per doubling of the sorted runs), every block through the
// BlockRecorder. One loop serves the registry's merge-sort driver and the
// tests that look at each stage's output.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "sim/algorithms/block_recorder.hpp"
#include "sim/algorithms/merge_sort/merge_sort.hpp"

namespace bankcheck {

/// What the recording calls between kernels.
struct MergeSortStageHooks {
  /// Before stage `stage` (0: the tile kernel, then one per pass), with the
  /// phase count of the stage before it (0 before the tile kernel).
  std::function<void(int stage, int previous_phases)> before;
  /// After each stage, with the keys it wrote.
  std::function<void(const std::vector<std::int32_t>& keys)> after;
};

/// Sorts `input` (n = u*E * 2^k keys) and records every block to `out`.
/// @return the sorted keys; `blocks` counts the blocks recorded.
template <int E>
std::vector<std::int32_t> record_merge_sort(MergeSortVariant variant, int w, int u,
                                            const std::vector<std::int32_t>& input, InstructionListener& out,
                                            const MergeSortStageHooks& hooks, std::uint64_t& blocks) {
  const long T = static_cast<long>(u) * E, n = static_cast<long>(input.size());
  MergeSortTile<std::int32_t, E> tile;
  tile.variant = variant;
  tile.set_shape(w, u);
  BlockRecorder recorder(static_cast<std::size_t>(tile.shared_bytes()));
  std::vector<std::int32_t> cur(n), next(n);
  if (hooks.before) hooks.before(0, 0);
  for (long b = 0; b < n / T; ++b) {
    tile.in = input.data() + b * T;
    tile.out = cur.data() + b * T;
    recorder.clear();
    recorder.run(tile, static_cast<unsigned>(u), static_cast<unsigned>(w), out, static_cast<std::uint64_t>(b));
    ++blocks;
  }
  if (hooks.after) hooks.after(cur);
  int previous_phases = tile.phases(), stage = 0;
  std::vector<long> partitions(n / T + 1, 0);
  for (long run = T; run < n; run *= 2) {
    if (hooks.before) hooks.before(++stage, previous_phases);
    for (long b = 0; b < n / T; ++b) partitions[b] = merge_pass_partition(cur.data(), run, T, b);
    MergeSortPass<std::int32_t, E> pass;
    pass.variant = variant;
    pass.set_shape(w, u);
    pass.run = run;
    pass.in = cur.data();
    pass.out = next.data();
    pass.partitions = partitions.data();
    for (long b = 0; b < n / T; ++b) {
      pass.block = b;
      recorder.clear();
      recorder.run(pass, static_cast<unsigned>(u), static_cast<unsigned>(w), out, static_cast<std::uint64_t>(b));
      ++blocks;
    }
    previous_phases = pass.phases();
    std::swap(cur, next);
    if (hooks.after) hooks.after(cur);
  }
  return cur;
}

}  // namespace bankcheck
