// Registry entries gms and btree (Karsin 2015, Section 4.2.2): batched
// predecessor search with K larger than shared memory, K in global memory.
// gms.hpp and btree.hpp are the algorithms; their global arrays are recorded
// through RecordingGlobal (sim/algorithms/global_accessor.hpp) at
// 256-aligned addresses, as cudaMalloc places them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/global_accessor.hpp"
#include "sim/algorithms/global_search/btree.hpp"
#include "sim/algorithms/global_search/gms.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using Key = std::int32_t;
using Keys = RecordingGlobal<Key>;
using Answers = RecordingGlobal<long>;

/// Device addresses of the run's arrays: keys, tree, queries, answers.
constexpr std::uint64_t base_of(unsigned array) { return kGlobalBase + array * kGlobalArrayStride; }

/// The worst case of both searches' global sectors (kWorst below).
constexpr const char* kWorst =
    "spread queries: lane l of a warp searches a key in the l-th of w equal parts of K, so the lanes' search paths "
    "split at every probe and probe i touches min(2^(i-1), w) sectors, the most any input can (every lane's first "
    "probe is the same key)";

/// Keys 1, 3, 5, ..., 2K-1; random queries in 0..2K+1 (before, on and between keys), as pbs's, or the
/// spread queries of kWorst: query i (lane l = i mod w) is key l*K/w + (i / w) mod (K/w).
struct SearchInput {
  std::vector<Key> keys, queries;
  std::vector<long> answers;
  SearchInput(long K, long Q, const InputChoice& in, unsigned w) : keys(K), queries(Q), answers(Q, -2) {
    for (long i = 0; i < K; ++i) keys[i] = static_cast<Key>(2 * i + 1);
    inputs::Random random(in.seed);
    const long part = std::max(1L, K / static_cast<long>(w));
    for (long i = 0; i < Q; ++i)
      queries[i] = in.kind == InputChoice::Kind::worst
                       ? keys[std::min(K - 1, (i % w) * K / w + (i / w) % part)]
                       : static_cast<Key>(random.below(static_cast<std::uint64_t>(2 * K + 2)));
  }
  /// The outcome, every answer checked against std::upper_bound.
  AlgorithmOutcome outcome(unsigned blocks) const {
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "every answer == std::upper_bound(K, q) - K - 1";
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const long want = std::upper_bound(keys.begin(), keys.end(), queries[i]) - keys.begin() - 1;
      if (answers[i] == want) continue;
      if (o.wrong++ == 0)
        o.first_wrong = "query " + std::to_string(i) + " (" + std::to_string(queries[i]) + "): " +
                        std::to_string(answers[i]) + ", expected " + std::to_string(want);
    }
    o.output_ok = o.wrong == 0;
    o.blocks = blocks;
    o.items = queries.size();
    return o;
  }
};

void common_params(AlgorithmSpec& s) {
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"K", 65536, "keys in global memory, 2..2^24 (65536 4-byte keys: 256 KiB, more than an SM's shared memory)"},
              {"u", 256, "threads per block, 1..1024"},
              {"q", 1, "queries per thread, 1..64"},
              {"blocks", 2, "blocks, 1..4096"}};
  s.worst_case = kWorst;
}

/// Binds block b's queries and answers (per_block of each) in global memory.
template <class Search>
void bind_block(Search& algo, BlockRecorder& recorder, SearchInput& data, long first, long per_block) {
  algo.queries = recorder.global(data.queries.data() + first, per_block, base_of(2) + first * sizeof(Key));
  algo.answers = recorder.global(data.answers.data() + first, per_block, base_of(3) + first * sizeof(long));
}

void check_common(const Params& p) {
  using namespace spec_support;
  require_range(p, "w", 1, 1024);
  require_range(p, "K", 2, 1 << 24);
  require_range(p, "u", 1, 1024);
  require_range(p, "q", 1, 64);
  require_range(p, "blocks", 1, 4096);
}

AlgorithmSpec gms_spec() {
  using namespace spec_support;
  AlgorithmSpec s;
  s.name = "gms";
  s.description = "naive global-memory search: each thread binary-searches K in global memory (Karsin 2015, 4.2.2)";
  common_params(s);
  s.validate = check_common;
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "gms");
    const unsigned w = u32(p, "w"), u = u32(p, "u"), q = u32(p, "q"), blocks = u32(p, "blocks");
    const long K = param(p, "K"), per_block = static_cast<long>(u) * q;
    SearchInput data(K, per_block * blocks, in, w);
    for (unsigned b = 0; b < blocks; ++b) {
      BlockRecorder recorder(0);
      const long first = b * per_block;
      GmsSearch<Key, Keys, Keys, Answers> algo;
      algo.K = K;
      algo.threads = static_cast<int>(u);
      algo.per_thread = static_cast<int>(q);
      algo.valid = per_block;
      algo.keys = recorder.global(data.keys.data(), data.keys.size(), base_of(0));
      bind_block(algo, recorder, data, first, per_block);
      recorder.run(algo, u, w, out, b);
    }
    return data.outcome(blocks);
  };
  return s;
}

AlgorithmSpec btree_spec() {
  using namespace spec_support;
  AlgorithmSpec s;
  s.name = "btree";
  s.description = "static B-tree in global memory, top levels cached in shared memory (Karsin 2015, 4.2.2)";
  common_params(s);
  s.params.push_back({"B", 32, "keys per node, a power of two in 2..1024 dividing K, B < K"});
  s.params.push_back({"cached", 1, "top internal levels held in shared memory, 0..levels"});
  s.validate = [](const Params& p) {
    check_common(p);
    require_range(p, "B", 2, 1024);
    const long K = param(p, "K"), B = param(p, "B");
    require(power_of_two(B) && K % B == 0 && K > B,
            "B must be a power of two that divides K and is less than it (got B = " + num(B) + ", K = " + num(K) + ")");
    require_range(p, "cached", 0, btree_levels(K, static_cast<int>(B)));
  };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "btree");
    const unsigned w = u32(p, "w"), u = u32(p, "u"), q = u32(p, "q"), blocks = u32(p, "blocks");
    const long K = param(p, "K"), per_block = static_cast<long>(u) * q;
    SearchInput data(K, per_block * blocks, in, w);
    BtreeSearch<Key, Keys, Keys, Keys, Answers> algo;
    std::vector<Key> tree;
    algo.K = K;
    algo.B = static_cast<int>(param(p, "B"));
    algo.levels = btree_build(data.keys.data(), K, algo.B, tree, algo.offset);
    algo.cached = static_cast<int>(param(p, "cached"));
    algo.threads = static_cast<int>(u);
    algo.per_thread = static_cast<int>(q);
    algo.valid = per_block;
    for (unsigned b = 0; b < blocks; ++b) {
      BlockRecorder recorder(static_cast<std::size_t>(algo.shared_bytes()));
      const long first = b * per_block;
      algo.keys = recorder.global(data.keys.data(), data.keys.size(), base_of(0));
      algo.tree = recorder.global(tree.data(), tree.size(), base_of(1));
      bind_block(algo, recorder, data, first, per_block);
      recorder.run(algo, u, w, out, b);
    }
    return data.outcome(blocks);
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> global_search_specs() { return {gms_spec(), btree_spec()}; }

}  // namespace bankcheck
