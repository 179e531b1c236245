#pragma once
// kernel.cf_sort_bench --mode profile: one sort (no warm-up) for Nsight Compute.
#include <cstdint>
#include <cstdio>

#include "kernels/cf_sort_bench_common.cuh"
#include "kernels/cf_sort_bench_inputs.cuh"
#include "kernels/cf_sort_bench_sorter.cuh"

namespace {

template <class Key>
int profile(const Options& o) {
  using Cub = CubTiling<Key>;
  using Cf = CfDefault<Key, false>;
  const unsigned u = o.input == "worst-cf" ? Cf::kThreads : Cub::kThreads;
  const unsigned E = o.input == "worst-cf" ? Cf::kItems : o.input == "worst-cub" ? Cub::kItems : Cf::kItems;
  const std::uint64_t n = std::uint64_t{E} << o.log;
  Buffer<Key> src(n);
  if (o.input == "random") fill_permutation<<<4096, 256>>>(src.get(), n, RandomPermutation(n, 0x5eed0000ull + n));
  else src.upload(adversary_input<Key>(n, u, E, banks<Key>(), 0.2));
  CHECK_CUDA(cudaDeviceSynchronize());
  Sorter<Key, false> s(o.algo == "cf" ? Algo::cf_merge : Algo::cub_merge, static_cast<std::int64_t>(n), src.get(),
                       nullptr);
  s.run(src.get(), nullptr, 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  Buffer<unsigned long long> wrong(1);
  CHECK_CUDA(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
  count_wrong<Key, ValueOf<Key>><<<1024, 256>>>(src.get(), nullptr, src.get(), n, wrong.get(), nullptr, nullptr);
  const unsigned long long bad = wrong.download(1)[0];
  std::printf("profile %s %d-byte keys %s n=%llu: %s\n", o.algo.c_str(), static_cast<int>(sizeof(Key)),
              o.input.c_str(), static_cast<unsigned long long>(n), bad ? "WRONG" : "sorted");
  return bad ? 1 : 0;
}

}  // namespace
