// The SIGMOD 2008 join primitives (He et al., "Relational joins on graphics
// processors") on the GPU, each from its single-source header:
//   bitonic  sort of one tile (sim/algorithms/sigmod/bitonic_sort.hpp), 4- and 8-byte keys
//   split    thread histograms, interleaved and thread-major (sim/algorithms/sigmod/split_histogram.hpp)
//   scan     Blelloch exclusive scan, plain and padded (sim/algorithms/sigmod/prefix_scan.hpp), 4/8 bytes
//   css      CSS-tree search, plain and padded nodes (sim/algorithms/sigmod/css_tree.hpp), 4/8 bytes
// Every block works on its own tile of a fixed-seed input; every output is
// checked against an independent CPU reference (std::sort, a sequential
// count, a sequential sum, std::lower_bound). Split and CSS addresses depend
// on the data, so they also run the registry's worst-case inputs.
//   kernel.sigmod --mode check|predict|profile|time [--out DIR] [--blocks B]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>

#include "kernels/experiment.cuh"
#include "sim/algorithms/sigmod/bitonic_sort.hpp"
#include "sim/algorithms/sigmod/css_tree.hpp"
#include "sim/algorithms/sigmod/prefix_scan.hpp"
#include "sim/algorithms/sigmod/split_histogram.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

// Block b's algorithm: the block-0 algorithm with its global pointers moved to tile b.
template <class T>
BANKCHECK_HD BitonicSort<T> at_block(BitonicSort<T> a, unsigned b) {
  a.in += std::size_t{b} * a.n;
  a.out += std::size_t{b} * a.n;
  return a;
}
template <class T>
BANKCHECK_HD PrefixScan<T> at_block(PrefixScan<T> a, unsigned b) {
  a.in += std::size_t{b} * a.n;
  a.out += std::size_t{b} * a.n;
  return a;
}
BANKCHECK_HD SplitHistogram at_block(SplitHistogram a, unsigned b) {
  a.keys += std::size_t{b} * a.threads * a.keys_per_thread;
  a.hist += std::size_t{b} * a.threads * a.fanout;
  return a;
}
template <class T>
BANKCHECK_HD CssTreeSearch<T> at_block(CssTreeSearch<T> a, unsigned b) {
  a.tree += b * a.keys();
  a.queries += std::size_t{b} * a.threads;
  a.rank += std::size_t{b} * a.threads;
  return a;
}

template <class Algo>
struct BlockFactory {
  Algo base;  ///< pointers at block 0's tile
  BANKCHECK_HD Algo operator()(unsigned block) const { return at_block(base, block); }
};

/// Prints the first difference, so a FAIL line says where.
template <class T>
bool same_output(const std::vector<T>& got, const std::vector<T>& want, const char* who) {
  if (got == want) return true;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::printf("  %s output[%zu] = %llu, reference %llu\n", who, i, (unsigned long long)got[i],
                  (unsigned long long)want[i]);
      break;
    }
  return false;
}

/// One case: `host` and `dev` are the same block-0 algorithm over host and
/// device arrays; the output (h_out / d_out) must equal `expected`.
template <class Algo, class Out>
void run_case(Experiment& ex, CaseInfo c, const Algo& host, const Algo& dev, std::vector<Out>& h_out,
              DeviceBuffer<Out>& d_out, const std::vector<Out>& expected, std::uint64_t items) {
  host.validate();
  c.shared = host.shared_bytes();
  // Fresh poison per case: the recorder and the GPU must write every element.
  std::fill(h_out.begin(), h_out.end(), static_cast<Out>(0xA5A5A5A5A5A5A5A5ull));
  d_out.poison();
  auto verify = [&] { return same_output(d_out.download(), expected, "GPU"); };
  ex.run(c, BlockFactory<Algo>{host}, BlockFactory<Algo>{dev}, verify, items);
  if (ex.mode() == Mode::predict && !same_output(h_out, expected, "CPU recorder"))
    ex.fail(c, "CPU recorder output differs from the reference");
}

template <class T>
std::string bytes_param() {
  return ";bytes=" + std::to_string(sizeof(T));
}

// ---------------------------------------------------------------- bitonic

template <class T>
void run_bitonic(Experiment& ex, unsigned blocks) {
  const unsigned n = 256;  // the registry's default tile
  inputs::Random rng(11 + sizeof(T));
  std::vector<T> in(std::size_t{n} * blocks);
  for (auto& v : in) v = static_cast<T>(rng.next());
  std::vector<T> expected = in;
  for (unsigned b = 0; b < blocks; ++b)
    std::sort(expected.begin() + std::size_t{b} * n, expected.begin() + std::size_t{b + 1} * n);
  DeviceBuffer<T> d_in(in), d_out(in.size());
  std::vector<T> h_out(in.size());
  const BitonicSort<T> host{n, in.data(), h_out.data()}, dev{n, d_in.get(), d_out.get()};
  const CaseInfo c{.kernel = "bitonic", .variant = "plain", .input = "random",
                   .params = "n=" + std::to_string(n) + bytes_param<T>(), .blocks = blocks, .threads = host.threads(),
                   .input_hash = hash_of(in)};
  run_case(ex, c, host, dev, h_out, d_out, expected, in.size());
}

// ---------------------------------------------------------------- scan

template <class T>
void run_scan(Experiment& ex, unsigned blocks) {
  const unsigned n = 1024;  // 512 threads
  inputs::Random rng(23 + sizeof(T));
  std::vector<T> in(std::size_t{n} * blocks);
  for (auto& v : in) v = static_cast<T>(rng.next());  // unsigned: sums wrap alike on both sides
  std::vector<T> expected(in.size());
  for (unsigned b = 0; b < blocks; ++b) {
    T sum = 0;
    for (std::size_t i = std::size_t{b} * n; i < std::size_t{b + 1} * n; ++i) {
      expected[i] = sum;
      sum += in[i];
    }
  }
  DeviceBuffer<T> d_in(in), d_out(in.size());
  std::vector<T> h_out(in.size());
  for (const bool padded : {false, true}) {
    const unsigned pad = padded ? 32u : 0u;  // one slot per 32 banks (GPU Gems 3, ch. 39)
    const PrefixScan<T> host{n, pad, in.data(), h_out.data()}, dev{n, pad, d_in.get(), d_out.get()};
    const CaseInfo c{.kernel = "scan", .variant = padded ? "padded" : "plain", .input = "random",
                     .params = "n=" + std::to_string(n) + bytes_param<T>(), .blocks = blocks,
                     .threads = host.threads(), .input_hash = hash_of(in)};
    run_case(ex, c, host, dev, h_out, d_out, expected, in.size());
  }
}

// ---------------------------------------------------------------- split

void run_split(Experiment& ex, unsigned blocks) {
  const unsigned u = 64, fanout = 16, per = 8;  // the registry's defaults
  for (const bool worst : {false, true}) {
    inputs::Random rng(37 + worst);
    std::vector<unsigned> keys(std::size_t{u} * per * blocks);
    // worst: every key in partition 0, so thread-major lanes t all hit t*F (GCD(F, w)-way)
    for (auto& k : keys)
      k = worst ? fanout * static_cast<unsigned>(rng.below(std::numeric_limits<unsigned>::max() / fanout))
                : static_cast<unsigned>(rng.next());
    // L order per block: hist[p * u + t] = keys of thread t in partition p.
    std::vector<unsigned> expected(std::size_t{u} * fanout * blocks, 0);
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < u; ++t)
        for (unsigned i = 0; i < per; ++i) {
          const unsigned p = keys[(std::size_t{b} * u + t) * per + i] % fanout;
          ++expected[std::size_t{b} * u * fanout + std::size_t{p} * u + t];
        }
    DeviceBuffer<unsigned> d_keys(keys), d_hist(expected.size());
    std::vector<unsigned> h_hist(expected.size());
    for (const char* name : {"interleaved", "thread_major"}) {
      const HistogramLayout layout = parse_histogram_layout(name);
      const SplitHistogram host{u, fanout, per, layout, keys.data(), h_hist.data()},
          dev{u, fanout, per, layout, d_keys.get(), d_hist.get()};
      const CaseInfo c{.kernel = "split", .variant = name, .input = worst ? "worst" : "random",
                       .params = "u=" + std::to_string(u) + ";F=" + std::to_string(fanout) +
                                 ";per_thread=" + std::to_string(per),
                       .blocks = blocks, .threads = u, .input_hash = hash_of(keys)};
      run_case(ex, c, host, dev, h_hist, d_hist, expected, keys.size());
    }
  }
}

// ---------------------------------------------------------------- CSS tree

template <class T>
void run_css(Experiment& ex, unsigned blocks) {
  const unsigned m = 32, levels = 2, u = 32;  // the registry's defaults
  CssTreeSearch<T> shape;
  shape.keys_per_node = m;
  shape.levels = levels;
  shape.threads = u;
  const std::size_t nkeys = shape.keys(), child_keys = nkeys / (m + 1);  // keys under one root child
  for (const bool worst : {false, true}) {
    inputs::Random rng(53 + 2 * sizeof(T) + worst);
    // Per block: distinct sorted keys (random gaps), its tree, u queries.
    std::vector<T> tree, queries(std::size_t{u} * blocks);
    std::vector<std::uint32_t> expected(queries.size());
    const T gap = std::numeric_limits<T>::max() / (2 * (nkeys + 1));
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<T> sorted(nkeys);
      T key = 0;
      for (auto& k : sorted) k = key += 1 + static_cast<T>(rng.below(gap));
      const std::vector<T> t = build_css_tree(sorted, m, levels);
      tree.insert(tree.end(), t.begin(), t.end());
      for (unsigned i = 0; i < u; ++i) {
        T& q = queries[std::size_t{b} * u + i];
        if (worst)  // lane i descends into root child i mod (m+1): m-way probes when m = w, unpadded
          q = sorted[(i % (m + 1)) * (child_keys + 1)];
        else  // half exact keys, half anywhere in the key range
          q = rng.below(2) ? sorted[rng.below(nkeys)] : static_cast<T>(rng.below(std::uint64_t{key} + 2));
        expected[std::size_t{b} * u + i] =
            static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), q) - sorted.begin());
      }
    }
    DeviceBuffer<T> d_tree(tree), d_queries(queries);
    DeviceBuffer<std::uint32_t> d_rank(expected.size());
    std::vector<std::uint32_t> h_rank(expected.size());
    for (const bool pad : {false, true}) {
      const CssTreeSearch<T> host{m, levels, pad, u, tree.data(), queries.data(), h_rank.data()},
          dev{m, levels, pad, u, d_tree.get(), d_queries.get(), d_rank.get()};
      const CaseInfo c{.kernel = "css", .variant = pad ? "padded" : "plain", .input = worst ? "worst" : "random",
                       .params = "m=" + std::to_string(m) + ";levels=" + std::to_string(levels) +
                                 ";u=" + std::to_string(u) + bytes_param<T>(),
                       .blocks = blocks, .threads = u,
                       .input_hash = fnv1a(queries.data(), queries.size() * sizeof(T), hash_of(tree))};
      run_case(ex, c, host, dev, h_rank, d_rank, expected, queries.size());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"SIGMOD 2008 primitives (bitonic sort, split, scan, CSS tree): check, predict, profile, time"};
  ProgramOptions opts;
  BlockCount block_count{0, 8};
  add_program_options(app, opts);
  add_block_count_option(app, block_count);
  CLI11_PARSE(app, argc, argv);
  return run_program(opts, "sigmod", [&](Experiment& ex) {
    const unsigned blocks = block_count.in(ex);
    run_bitonic<std::uint32_t>(ex, blocks);
    run_bitonic<std::uint64_t>(ex, blocks);
    run_split(ex, blocks);
    run_scan<std::uint32_t>(ex, blocks);
    run_scan<std::uint64_t>(ex, blocks);
    run_css<std::uint32_t>(ex, blocks);
    run_css<std::uint64_t>(ex, blocks);
  });
}
