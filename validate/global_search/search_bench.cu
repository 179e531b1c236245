// Karsin 2015 Section 4.2.2 on the GPU: GMS (each thread binary-searches K in
// global memory), the static B-tree with its top levels cached in shared
// memory, and PBS (HiPC 2015 Algorithm 1) with K in shared memory where it
// fits, on the same keys (1, 3, 5, ...) and queries (uniform in 0..2K+1,
// inputs::Random with the seed, as `bankcheck run gms|btree` makes them).
// The algorithms are the headers the CPU recorder runs
// (sim/algorithms/global_search/, sim/algorithms/pbs/pbs.hpp); every answer
// is checked against std::upper_bound on the host.
//
//   search_bench --K N --queries Q [--per-thread P] [--cached C] [--runs R] [--seed S] [--only gms|btree|pbs]
//
// prints one CSV line per algorithm:
//   algorithm,K,queries,per_thread,cached,shared_bytes,runs,median_ms,min_ms,queries_per_us,answers_ok
// Build (from the repository root): nvcc -arch=sm_90 -O2 -std=c++20 -lineinfo -I. -o search_bench
//   validate/global_search/search_bench.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim/algorithms/block_algorithm.hpp"
#include "sim/algorithms/global_accessor.hpp"
#include "sim/algorithms/global_search/btree.hpp"
#include "sim/algorithms/global_search/gms.hpp"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/inputs/random.hpp"
#include "validate/cuda_check.cuh"

using namespace bankcheck;

namespace {

using Key = int;
constexpr int kThreads = 256;
using Gms = GmsSearch<Key, GlobalArray<Key>, GlobalArray<Key>, GlobalArray<long>>;
using Btree = BtreeSearch<Key, GlobalArray<Key>, GlobalArray<Key>, GlobalArray<Key>, GlobalArray<long>>;
using Pbs = PbsSearch<Key, PbsVariant::pbs>;

/// Block b's algorithm: the template with the block's queries and answers.
struct Blocks {
  long total = 0;
  int per_thread = 1;
  const Key* queries = nullptr;
  long* answers = nullptr;
  __device__ long first(unsigned b) const { return static_cast<long>(b) * kThreads * per_thread; }
  __device__ long valid(unsigned b) const {
    const long left = total - first(b);
    return left < static_cast<long>(kThreads) * per_thread ? left : static_cast<long>(kThreads) * per_thread;
  }
};

template <class Algo>
__device__ void run_phases(const Algo& algo) {
  extern __shared__ unsigned char smem_bytes[];
  SharedArray smem(smem_bytes);
  const int phases = block_phases(algo);
  for (int k = 0; k < phases; ++k) {
    algo.phase(k, static_cast<int>(threadIdx.x), smem);
    __syncthreads();
  }
}

__global__ void gms_kernel(Gms algo, Blocks b) {
  const long first = b.first(blockIdx.x);
  algo.valid = b.valid(blockIdx.x);
  algo.queries = GlobalArray<Key>(const_cast<Key*>(b.queries) + first);
  algo.answers = GlobalArray<long>(b.answers + first);
  run_phases(algo);
}

__global__ void btree_kernel(Btree algo, Blocks b) {
  const long first = b.first(blockIdx.x);
  algo.valid = b.valid(blockIdx.x);
  algo.queries = GlobalArray<Key>(const_cast<Key*>(b.queries) + first);
  algo.answers = GlobalArray<long>(b.answers + first);
  run_phases(algo);
}

__global__ void pbs_kernel(Pbs algo, Blocks b) {
  const long first = b.first(blockIdx.x);
  algo.valid = b.valid(blockIdx.x);
  algo.queries = b.queries + first;
  algo.answers = b.answers + first;
  run_phases(algo);
}

struct Options {
  long K = 1 << 20, queries = 1 << 20;
  int per_thread = 4, cached = -1, runs = 11;
  std::uint64_t seed = 1;
  std::string only;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const long v = std::strtol(argv[i + 1], nullptr, 10);
    if (a == "--K") o.K = v;
    else if (a == "--queries") o.queries = v;
    else if (a == "--per-thread") o.per_thread = static_cast<int>(v);
    else if (a == "--cached") o.cached = static_cast<int>(v);
    else if (a == "--runs") o.runs = static_cast<int>(v);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(v);
    else if (a == "--only") o.only = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      std::exit(2);
    }
  }
  if (o.K < 64 || o.K > (1L << 28) || o.K % 32 != 0 || o.queries < 1 || o.runs < 1 || o.per_thread < 1) {
    std::fprintf(stderr, "K must be a multiple of 32 in 64..2^28, queries, runs and per-thread >= 1\n");
    std::exit(2);
  }
  return o;
}

/// Median and minimum milliseconds of `runs` launches, timed with CUDA events.
template <class Launch>
std::pair<float, float> time_ms(int runs, Launch launch) {
  launch();  // warm-up (and the run whose answers are checked)
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(runs);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (float& m : ms) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&m, start, stop));
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

/// The B-tree of the keys (B = 32), as many top levels cached in shared memory as fit `optin` bytes (or --cached).
Btree build_tree(const std::vector<Key>& keys, const Options& o, int optin, std::vector<Key>& tree) {
  Btree tree_algo;
  tree_algo.K = o.K;
  tree_algo.B = 32;
  tree_algo.levels = btree_build(keys.data(), o.K, 32, tree, tree_algo.offset);
  tree_algo.cached = o.cached >= 0 ? std::min(o.cached, tree_algo.levels) : 0;
  if (o.cached < 0)
    while (tree_algo.cached < tree_algo.levels && tree_algo.offset[tree_algo.cached + 1] * 4L <= optin)
      ++tree_algo.cached;
  return tree_algo;
}

/// One algorithm's CSV row: its timing and whether every answer is the predecessor; clears the answers.
bool report_run(const Options& o, const std::vector<long>& want, long* d_answers, const char* name, int cached,
                long shared, std::pair<float, float> t) {
  std::vector<long> got(o.queries);
  CHECK(cudaMemcpy(got.data(), d_answers, got.size() * sizeof(long), cudaMemcpyDeviceToHost));
  const bool ok = got == want;
  std::printf("%s,%ld,%ld,%d,%d,%ld,%d,%.4f,%.4f,%.1f,%s\n", name, o.K, o.queries, o.per_thread, cached, shared,
              o.runs, t.first, t.second, static_cast<double>(o.queries) / (t.first * 1000.0), ok ? "yes" : "NO");
  CHECK(cudaMemset(d_answers, 0xff, got.size() * sizeof(long)));
  return ok;
}

/// A device copy of `v`.
template <class T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

/// Keys 1, 3, 5, ... and random queries in [0, 2K + 2); returns each query's predecessor index.
std::vector<long> make_inputs(const Options& o, std::vector<Key>& keys, std::vector<Key>& queries) {
  for (long i = 0; i < o.K; ++i) keys[i] = static_cast<Key>(2 * i + 1);
  inputs::Random random(o.seed);
  for (Key& q : queries) q = static_cast<Key>(random.below(static_cast<std::uint64_t>(2 * o.K + 2)));
  std::vector<long> want(o.queries);
  for (long i = 0; i < o.queries; ++i) want[i] = std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin() - 1;
  return want;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::vector<Key> keys(o.K), queries(o.queries);
  const std::vector<long> want = make_inputs(o, keys, queries);

  int optin = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  std::vector<Key> tree;
  Btree tree_algo = build_tree(keys, o, optin, tree);

  Key *d_keys = upload(keys), *d_tree = upload(tree), *d_queries = upload(queries);
  long* d_answers;
  CHECK(cudaMalloc(&d_answers, queries.size() * sizeof(long)));
  const Blocks b{o.queries, o.per_thread, d_queries, d_answers};
  const unsigned blocks = static_cast<unsigned>((o.queries + kThreads * o.per_thread - 1) / (kThreads * o.per_thread));

  const auto report = [&](const char* name, int cached, long shared, std::pair<float, float> t) {
    return report_run(o, want, d_answers, name, cached, shared, t);
  };
  bool all_ok = true;
  std::printf("algorithm,K,queries,per_thread,cached,shared_bytes,runs,median_ms,min_ms,queries_per_us,answers_ok\n");
  if (o.only.empty() || o.only == "gms") {
    Gms g;
    g.K = o.K;
    g.threads = kThreads;
    g.per_thread = o.per_thread;
    g.keys = GlobalArray<Key>(d_keys);
    all_ok &= report("gms", 0, 0, time_ms(o.runs, [&] { gms_kernel<<<blocks, kThreads>>>(g, b); }));
  }
  if (o.only.empty() || o.only == "btree") {
    tree_algo.threads = kThreads;
    tree_algo.per_thread = o.per_thread;
    tree_algo.keys = GlobalArray<Key>(d_keys);
    tree_algo.tree = GlobalArray<Key>(d_tree);
    const long shared = tree_algo.shared_bytes();
    CHECK(cudaFuncSetAttribute(btree_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
    all_ok &= report("btree", tree_algo.cached, shared,
                     time_ms(o.runs, [&] { btree_kernel<<<blocks, kThreads, shared>>>(tree_algo, b); }));
  }
  Pbs p;
  p.w = 32;
  p.K = o.K;
  p.threads = kThreads;
  p.per_thread = o.per_thread;
  p.keys = d_keys;
  const long pbs_shared = p.shared_bytes();
  const bool pbs = o.only.empty() || o.only == "pbs";
  if (pbs && pbs_shared <= optin) {
    CHECK(cudaFuncSetAttribute(pbs_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pbs_shared)));
    all_ok &= report("pbs", 0, pbs_shared, time_ms(o.runs, [&] { pbs_kernel<<<blocks, kThreads, pbs_shared>>>(p, b); }));
  } else if (pbs) {
    std::printf("pbs,%ld,%ld,%d,0,%ld,0,,,,K does not fit in shared memory (%d bytes)\n", o.K, o.queries, o.per_thread,
                pbs_shared, optin);
  }
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_tree));
  CHECK(cudaFree(d_queries));
  CHECK(cudaFree(d_answers));
  return all_ok ? 0 : 1;
}
