#pragma once
// kernel.cf_sort_bench --mode tune: candidate policies (docs/cf-merge.md).
// Register bounds chosen so that ptxas reports no spills for the full-tile
// kernels (-Xptxas -v).
#include <cstdint>
#include <string>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_time.cuh"

namespace {

template <int U, int E, int MB, cub::BlockLoadAlgorithm L = cub::BLOCK_LOAD_WARP_TRANSPOSE>
using Cand = Policy<U, E, L, cub::BLOCK_STORE_WARP_TRANSPOSE, MB>;

template <class P>
std::string policy_name() {
  return "cf u=" + std::to_string(P::kThreads) + " E=" + std::to_string(P::kItems) +
         " minblocks=" + std::to_string(P::kMinBlocks) +
         (P::kLoad == cub::BLOCK_LOAD_VECTORIZE ? " load=vectorize" : " load=warp-transpose");
}

template <class Key, bool kPairs, class... Ps>
void tune_candidates(Csv& csv, const Options& o, std::uint64_t n) {
  Buffer<Key> src(n);
  fill_permutation<<<4096, 256>>>(src.get(), n, RandomPermutation(n, 0x7a11ull + n));
  CHECK_CUDA(cudaDeviceSynchronize());
  time_input<Key, kPairs>(csv, o, "random", src, {Algo::cub_merge});
  (time_input<Key, kPairs, Ps>(csv, o, "random", src, {Algo::cf_merge}, policy_name<Ps>()), ...);
}

void tune(Csv& csv, const Options& o) {
  constexpr auto VEC = cub::BLOCK_LOAD_VECTORIZE;
  const bool k4 = o.keys != "8", k8 = o.keys != "4", keys = o.pairs != "1", pairs = o.pairs != "0";
  const std::uint64_t n4 = std::uint64_t{1} << 26, n8 = std::uint64_t{1} << 25;
  if (k4 && keys)
    tune_candidates<std::int32_t, false, Cand<256, 16, 8>, Cand<256, 16, 6>, Cand<256, 16, 4>, Cand<256, 16, 8, VEC>,
                    Cand<512, 16, 4>, Cand<128, 16, 16>, Cand<256, 32, 4>, Cand<256, 32, 2>, Cand<128, 32, 8>, Cand<256, 24, 4>,
                    Cand<256, 15, 6>, Cand<256, 17, 6>>(csv, o,
                                                                                                            n4);
  if (k4 && pairs)
    tune_candidates<std::int32_t, true, Cand<256, 16, 5>, Cand<256, 16, 4>, Cand<512, 16, 2>, Cand<256, 8, 8>,
                    Cand<256, 32, 2>>(csv, o,
                                                                                                             n4);
  if (k8 && keys)
    tune_candidates<std::int64_t, false, Cand<256, 8, 8>, Cand<256, 8, 6>, Cand<512, 8, 4>, Cand<256, 16, 4>,
                    Cand<256, 8, 8, VEC>, Cand<256, 32, 2>>(csv, o, n8);
  if (k8 && pairs)
    tune_candidates<std::int64_t, true, Cand<256, 8, 4>, Cand<256, 8, 3>, Cand<512, 8, 2>, Cand<256, 16, 2>>(csv, o, n8);
}

}  // namespace
