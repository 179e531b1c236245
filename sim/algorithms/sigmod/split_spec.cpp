// Registry entries split and split-thread-major
// (sim/algorithms/sigmod/split_histogram.hpp): SIGMOD 2008's per-thread
// partition histograms in the paper's interleaved layout and thread-major.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/sigmod/split_histogram.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec split_spec(std::string name, HistogramLayout layout) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = "every key in partition 0 (thread-major: lane t hits t*F, GCD(F, w)-way)";
  s.description = layout == HistogramLayout::interleaved
                      ? "SIGMOD 2008 split, thread histograms at p*threads + t (conflict-free)"
                      : "SIGMOD 2008 split, thread histograms at t*F + p (GCD(F, w)-way on equal keys)";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"u", 64, "threads, 1..1024"},
              {"fanout", 16, "partitions F, 1..4096"},
              {"per_thread", 8, "keys per thread, 1..4096"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "u", 1, 1024);
    require_range(p, "fanout", 1, 4096);
    require_range(p, "per_thread", 1, 4096);
    require(param(p, "u") * param(p, "fanout") <= (1 << 22), "u * fanout must be at most 2^22 counters");
  };
  s.drive = [layout](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned u = u32(p, "u"), f = u32(p, "fanout"), per = u32(p, "per_thread"), w = u32(p, "w");
    std::vector<unsigned> keys(std::size_t{u} * per);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == keys.size(), in.path + ": split needs u * per_thread = " + num(keys.size()) + " keys");
      for (std::size_t i = 0; i < keys.size(); ++i) {
        require(v[i] >= 0 && v[i] <= UINT32_MAX, in.path + ": keys must be in 0..2^32-1");
        keys[i] = static_cast<unsigned>(v[i]);
      }
    } else if (in.kind == InputChoice::Kind::worst) {
      std::fill(keys.begin(), keys.end(), 0u);  // one partition: lanes t hit t*F (thread_major)
    } else {
      inputs::Random rng(in.seed);
      for (auto& k : keys) k = static_cast<std::uint32_t>(rng());  // the low 32 bits of each draw
    }
    std::vector<unsigned> hist(std::size_t{u} * f, 0);
    SplitHistogram h{u, f, per, layout, keys.data(), hist.data()};
    record_block(h, w, out);
    std::vector<unsigned> expect(hist.size(), 0);
    for (unsigned t = 0; t < u; ++t)
      for (unsigned i = 0; i < per; ++i) ++expect[std::size_t{keys[std::size_t{t} * per + i] % f} * u + t];
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "L[p*u + t] == #keys of thread t in partition p";
    o.output_ok = expect == hist;
    o.blocks = 1;
    o.items = keys.size();
    if (layout == HistogramLayout::interleaved && u % w == 0)
      o.prediction = conflict_free("L-order histograms (SIGMOD 2008 Algorithm 1): lane t stays in bank t", {});
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> split_specs() {
  return {split_spec("split", HistogramLayout::interleaved), split_spec("split-thread-major", HistogramLayout::thread_major)};
}

}  // namespace bankcheck
