// Batched predecessor search on the GPU (HiPC 2015, Section V-A): PBS, PBS-CF
// and PBS-CL from sim/algorithms/pbs/pbs.hpp, 4- and 8-byte keys, keys in shared memory,
// queries and answers in global memory, blocks of 1024 threads, queries
// striped over the threads (coalesced). Every answer is checked against
// std::upper_bound on the CPU.
// Variants: "pbs" (Algorithm 1), "pbs-cf" and "pbs-cl" (stage 1 corrected,
// sim/algorithms/pbs/pbs.hpp: right for every query), and with --printed also
// "pbs-cf-printed" / "pbs-cl-printed" (Algorithm 2 as printed: some answers
// wrong, docs/formula-findings.md item 7; reported, not failed, since the
// GPU must still agree with the CPU run of the same code).
//   kernel.pbs --mode check|predict|profile|time [--out DIR] [--queries Q] [--printed]
// Beside the searches, time and profile modes run HiPC's Table I read/write
// baseline (read_write_kernel): each query read, incremented and written.
// Inputs: "random" queries are keys drawn uniformly (the paper's Section V-A);
// "worst" queries follow Corollary 4.1: with K a multiple of w^2, lane i of a
// warp searches K[i*K/w + C], C fixed per warp (drawn at random), which makes
// every PBS probe after the first log w + 1 land in one bank.
#include <CLI/CLI.hpp>

#include <algorithm>

#include "kernels/experiment.cuh"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/inputs/pbs_adversary.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

constexpr int kWarp = 32;

/// Extra dynamic shared memory per block, unused by the algorithm (experiment
/// knob: does the allocation size alone change the counts?).
std::size_t& pad_shared() {
  static std::size_t bytes = 0;
  return bytes;
}
constexpr int kThreads = 1024;

template <class Key, PbsVariant V>
struct PbsFactory {
  long K;
  long total;       ///< queries in the launch
  int per_thread;   ///< queries per thread
  const Key* keys;
  const Key* queries;
  long* answers;
  BANKCHECK_HD PbsSearch<Key, V> operator()(unsigned block) const {
    PbsSearch<Key, V> s;
    s.w = kWarp;
    s.K = K;
    s.threads = kThreads;
    s.per_thread = per_thread;
    const long first = static_cast<long>(block) * kThreads * per_thread;
    const long left = total - first;
    s.valid = left < static_cast<long>(kThreads) * per_thread ? left : static_cast<long>(kThreads) * per_thread;
    s.keys = keys;
    s.queries = queries + first;
    s.answers = answers + first;
    return s;
  }
};

/// Sorted distinct keys: gaps of 1..4 from a random start (no padding value occurs).
template <class Key>
std::vector<Key> make_keys(long K, inputs::Random& rng) {
  std::vector<Key> keys(K);
  Key v = static_cast<Key>(rng.below(1000)) - 500;
  for (auto& k : keys) {
    v = static_cast<Key>(v + 1 + static_cast<Key>(rng.below(4)));
    k = v;
  }
  return keys;
}

template <class Key>
std::vector<Key> make_queries(const std::vector<Key>& keys, long Q, bool worst, inputs::Random& rng) {
  const long K = static_cast<long>(keys.size());
  std::vector<Key> q(Q);
  if (!worst) {
    for (auto& x : q) x = keys[rng.below(K)];
    return q;
  }
  // Corollary 4.1 (K a multiple of w^2): lane i searches K[i*K/w + C].
  for (long warp = 0; warp * kWarp < Q; ++warp) {
    const std::uint64_t C = rng.below(K / kWarp);
    for (long i = 0; i < kWarp && warp * kWarp + i < Q; ++i)
      q[warp * kWarp + i] = keys[inputs::corollary41_index(static_cast<std::uint64_t>(K), kWarp,
                                                           static_cast<unsigned>(i), C)];
  }
  return q;
}

template <class Key>
std::vector<long> reference(const std::vector<Key>& keys, const std::vector<Key>& queries) {
  std::vector<long> a(queries.size());
  parallel_for(queries.size(), 0, [&](std::size_t i) {
    a[i] = static_cast<long>(std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin()) - 1;
  });
  return a;
}

const char* variant_name(PbsVariant v) {
  switch (v) {
    case PbsVariant::pbs: return "pbs";
    case PbsVariant::cf: return "pbs-cf-printed";
    case PbsVariant::cl: return "pbs-cl-printed";
    case PbsVariant::cf_corrected: return "pbs-cf";
    case PbsVariant::cl_corrected: return "pbs-cl";
  }
  return "?";
}

/// Also run HiPC's printed PBS-CF/CL (--printed).
bool& with_printed() {
  static bool on = false;
  return on;
}

/// The algorithm's own answers, computed on the CPU without recording (thread
/// tid of a block searches the queries tid, tid + threads, ...).
template <class Key, PbsVariant V>
std::vector<long> algorithm_answers(const PbsFactory<Key, V>& host, long Q) {
  PbsSearch<Key, V> s = host(0);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(s.shared_bytes()));
  SharedArray smem(bytes.data());
  for (int t = 0; t < kThreads; ++t) s.phase(0, t, smem);
  std::vector<long> a(Q);
  parallel_for(static_cast<std::size_t>(Q), 0, [&](std::size_t i) {
    a[i] = s.search(static_cast<int>(i % kThreads), host.queries[i], smem);
  });
  return a;
}

/// The parameters every PBS case row names (searches and baseline alike).
template <class Key>
std::string query_params(long K, long Q) {
  return "K=" + std::to_string(K) + ";bytes=" + std::to_string(sizeof(Key)) + ";Q=" + std::to_string(Q);
}

template <class Key, PbsVariant V>
void run_variant(Experiment& ex, const std::vector<Key>& keys, const std::vector<Key>& queries,
                 const std::vector<long>& expected, DeviceBuffer<Key>& d_keys, DeviceBuffer<Key>& d_queries,
                 DeviceBuffer<long>& d_answers, unsigned blocks, int per_thread, const char* input) {
  const long K = static_cast<long>(keys.size()), Q = static_cast<long>(queries.size());
  std::vector<long> h_answers(Q, -7);
  PbsFactory<Key, V> host{K, Q, per_thread, keys.data(), queries.data(), h_answers.data()};
  PbsFactory<Key, V> dev{K, Q, per_thread, d_keys.get(), d_queries.get(), d_answers.get()};
  CaseInfo c;
  c.kernel = "pbs";
  c.variant = variant_name(V);
  c.input = input;
  c.params = query_params<Key>(K, Q);
  c.blocks = blocks;
  c.threads = kThreads;
  c.shared = static_cast<std::size_t>(host(0).shared_bytes()) + pad_shared();
  if (pad_shared() > 0) c.params += ";pad=" + std::to_string(pad_shared());
  if (shared_carveout() >= 0) c.params += ";carveout=" + std::to_string(shared_carveout());
  c.input_hash = fnv1a(queries.data(), queries.size() * sizeof(Key), hash_of(keys));
  // Two separate checks: the GPU must give the answers the same code gives on
  // the CPU (single source), and those must be the true predecessors.
  const std::vector<long> cpu = algorithm_answers(host, Q);
  long wrong = 0, first_wrong = -1;
  for (long i = 0; i < Q; ++i)
    if (cpu[i] != expected[i] && wrong++ == 0) first_wrong = i;
  const bool printed = V == PbsVariant::cf || V == PbsVariant::cl;
  if (wrong > 0 && printed) {
    std::printf("note %s %s %s: the printed algorithm answers %ld of %ld queries wrong (expected: "
                "docs/formula-findings.md item 7); the GPU is still checked against the same code on the CPU\n",
                c.variant.c_str(), c.input.c_str(), c.params.c_str(), wrong, Q);
  } else if (wrong > 0 && ex.mode() != Mode::time) {
    ex.fail(c, "sim/algorithms/pbs/pbs.hpp itself (CPU) answers " + std::to_string(wrong) + " of " + std::to_string(Q) +
                   " queries wrong; first: query " + std::to_string(first_wrong) + " (K[" +
                   std::to_string(expected[first_wrong]) + "]), thread " + std::to_string(first_wrong % kThreads) +
                   ": got " + std::to_string(cpu[first_wrong]) + ", upper_bound gives " +
                   std::to_string(expected[first_wrong]));
  }
  auto verify = [&] {
    const std::vector<long> got = d_answers.download();
    if (got == cpu) return true;
    for (long i = 0; i < Q; ++i)
      if (got[i] != cpu[i]) {
        std::printf("  first GPU/CPU difference: query %ld = %lld: GPU %ld, same code on the CPU %ld\n", i,
                    static_cast<long long>(queries[i]), got[i], cpu[i]);
        break;
      }
    return false;
  };
  d_answers.poison();
  ex.run(c, host, dev, verify, static_cast<std::uint64_t>(Q));
  if (ex.mode() == Mode::predict && h_answers != cpu) ex.fail(c, "recorded CPU run answers differ from the plain CPU run");
}

/// HiPC 2015 Table I's global-memory baseline: every query read,
/// incremented and written back, with the searches' launch shape (blocks of
/// kThreads, per_thread queries per thread, striped), so its time is the
/// floor set by moving the queries and answers.
template <class Key>
__global__ void read_write_kernel(const Key* queries, Key* out, long total, int per_thread) {
  const long first = static_cast<long>(blockIdx.x) * kThreads * per_thread;
  for (int j = 0; j < per_thread; ++j) {
    const long i = first + static_cast<long>(j) * kThreads + threadIdx.x;
    if (i < total) out[i] = queries[i] + 1;
  }
}

/// The baseline beside the searches: timed in time mode; launched once in
/// profile mode (not a phased kernel, so outside the manifest and the
/// model comparison) for the Table I ncu run (docs/validation.md).
template <class Key>
void run_read_write(Experiment& ex, const std::vector<Key>& queries, const DeviceBuffer<Key>& d_queries, long K,
                    unsigned blocks, int per_thread, const char* input) {
  if (ex.mode() != Mode::time && ex.mode() != Mode::profile) return;
  const long Q = static_cast<long>(queries.size());
  DeviceBuffer<Key> d_out(static_cast<std::size_t>(Q));
  CaseInfo c;
  c.kernel = "pbs";
  c.variant = "read-write";
  c.input = input;
  c.params = query_params<Key>(K, Q);
  c.blocks = blocks;
  c.threads = kThreads;
  c.input_hash = hash_of(queries);
  auto launch = [&] { read_write_kernel<Key><<<blocks, kThreads>>>(d_queries.get(), d_out.get(), Q, per_thread); };
  auto verify = [&] {
    const std::vector<Key> out = d_out.download();
    for (long i = 0; i < Q; ++i)
      if (out[i] != static_cast<Key>(queries[i] + 1)) return false;
    return true;
  };
  d_out.poison();
  if (ex.mode() == Mode::time) {
    ex.time_external(c, launch, verify, static_cast<std::uint64_t>(Q));
  } else {
    launch();
    BANKCHECK_LAUNCHED();
    if (!verify()) ex.fail(c, "read/write baseline: wrong output");
  }
}

template <class Key>
void run_key_size(Experiment& ex, const std::vector<long>& Ks, long Q, unsigned max_blocks, bool worst_too) {
  for (long K : Ks) {
    for (int worst = 0; worst <= (worst_too ? 1 : 0); ++worst) {
      inputs::Random rng(1000003ull * K + 17 * sizeof(Key) + worst);
      const std::vector<Key> keys = make_keys<Key>(K, rng);
      const std::vector<Key> queries = make_queries(keys, Q, worst != 0, rng);
      const std::vector<long> expected = reference(keys, queries);
      DeviceBuffer<Key> d_keys(keys), d_queries(queries);
      DeviceBuffer<long> d_answers(Q);
      // Few enough blocks to keep every SM busy, each doing per_thread queries per thread.
      const unsigned blocks = static_cast<unsigned>(std::min<long>(max_blocks, (Q + kThreads - 1) / kThreads));
      const int per_thread = static_cast<int>((Q + static_cast<long>(blocks) * kThreads - 1) / (static_cast<long>(blocks) * kThreads));
      const unsigned used = static_cast<unsigned>((Q + static_cast<long>(per_thread) * kThreads - 1) / (static_cast<long>(per_thread) * kThreads));
      const char* input = worst ? "worst" : "random";
      run_variant<Key, PbsVariant::pbs>(ex, keys, queries, expected, d_keys, d_queries, d_answers, used, per_thread, input);
      run_variant<Key, PbsVariant::cf_corrected>(ex, keys, queries, expected, d_keys, d_queries, d_answers, used, per_thread, input);
      run_variant<Key, PbsVariant::cl_corrected>(ex, keys, queries, expected, d_keys, d_queries, d_answers, used, per_thread, input);
      if (with_printed()) {
        run_variant<Key, PbsVariant::cf>(ex, keys, queries, expected, d_keys, d_queries, d_answers, used, per_thread, input);
        run_variant<Key, PbsVariant::cl>(ex, keys, queries, expected, d_keys, d_queries, d_answers, used, per_thread, input);
      }
      run_read_write(ex, queries, d_queries, K, used, per_thread, input);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Batched predecessor search kernels (HiPC 2015): check, predict, profile, time"};
  ProgramOptions opts;
  long queries = 0;
  unsigned blocks = 264;
  int log_k_min = 10, log_k_max_4 = 15, log_k_max_8 = 14, key_bytes = 0, carveout = -1;
  std::size_t pad = 0;
  add_program_options(app, opts);
  app.add_option("--queries", queries, "queries per launch (default 2^14 for check, 2^16 for predict/profile, 2^25 for time)")
      ->check(CLI::Range(1L, 1L << 30));
  app.add_option("--blocks", blocks, "most blocks per launch (1024 threads each)")->check(CLI::Range(1u, 1u << 20));
  app.add_option("--log-k-min", log_k_min, "smallest log2 K (K a multiple of w^2 needs >= 10)")->check(CLI::Range(10, 16));
  app.add_option("--log-k-max-4", log_k_max_4, "largest log2 K for 4-byte keys (shared memory: <= 15)")->check(CLI::Range(10, 15));
  app.add_option("--log-k-max-8", log_k_max_8, "largest log2 K for 8-byte keys (shared memory: <= 14)")->check(CLI::Range(10, 14));
  app.add_option("--bytes", key_bytes, "key size: 4 or 8 (default both)")->check(CLI::IsMember({4, 8}));
  app.add_option("--pad-shared", pad, "extra unused dynamic shared memory per block, bytes")
      ->check(CLI::Range(std::size_t{0}, std::size_t{200000}));
  app.add_option("--carveout", carveout, "preferred shared-memory carveout, percent of L1 (default: driver's choice)")
      ->check(CLI::Range(0, 100));
  app.add_flag("--printed", with_printed(), "also run PBS-CF/CL exactly as printed in HiPC 2015 (variants *-printed)");
  CLI11_PARSE(app, argc, argv);
  pad_shared() = pad;
  shared_carveout() = carveout;
  return run_program(opts, "pbs", [&](Experiment& ex) {
    if (queries == 0)
      queries = ex.mode() == Mode::time ? (1L << 25) : ex.mode() == Mode::check ? (1L << 14) : (1L << 16);
    auto range = [](int lo, int hi) {
      std::vector<long> ks;
      for (int i = lo; i <= hi; ++i) ks.push_back(1L << i);
      return ks;
    };
    if (key_bytes != 8) run_key_size<std::int32_t>(ex, range(log_k_min, log_k_max_4), queries, blocks, true);
    if (key_bytes != 4) run_key_size<std::int64_t>(ex, range(log_k_min, log_k_max_8), queries, blocks, true);
  });
}
