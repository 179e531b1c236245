// One pairwise merge per block, CUB style (sim/algorithms/merge/pairwise_merge.hpp): the tile
// A|B is staged in shared memory, each thread finds its split by merge path
// and merges E items serially from shared memory -- the step of CUB's
// DeviceMergeSort where SPAA 2025's bank conflicts happen. Parameters of
// SPAA Section 5: E = 15 / u = 512 and E = 17 / u = 256, plus E = 16 / u = 256
// (not coprime with w = 32). Inputs: "random" (A a uniformly random half of
// the tile's ranks) and "worst" (the labeling sim/inputs/merge_sort_adversary.hpp
// gives the first global pass of a sort of 2 tiles: SPAA Section 4's
// construction). Output checked: every block's merged tile is 0..uE-1 shifted.
//   kernel.pairwise_merge --mode check|predict|profile|time [--out DIR]
// Variant "cf-merge-gather": CF-Merge's layout, merge-path splits and
// conflict-free gather (sim/algorithms/merge/cf_merge.hpp) on the same tiles; the in-register
// merge that follows it touches no shared memory and is not run.
#include <CLI/CLI.hpp>

#include <numeric>

#include "kernels/experiment.cuh"
#include "sim/inputs/merge_sort_adversary.hpp"
#include "sim/algorithms/merge/cf_merge.hpp"
#include "sim/algorithms/merge/pairwise_merge.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

struct MergeFactory {
  int E, threads;
  const long* a_counts;      ///< per block |A|
  const std::int32_t* tiles; ///< per block u*E keys: A sorted then B sorted
  std::int32_t* out;
  BANKCHECK_HD PairwiseMerge<std::int32_t> operator()(unsigned block) const {
    PairwiseMerge<std::int32_t> m;
    m.E = E;
    m.threads = threads;
    const long n = static_cast<long>(threads) * E;
    m.a_count = a_counts[block];
    m.tile = tiles + block * n;
    m.out = out + block * n;
    return m;
  }
};

/// CF-Merge's gather (sim/algorithms/merge/cf_merge.hpp) on the same tiles: splits by merge
/// path through the CF layout, then the conflict-free gather into registers.
struct CfFactory {
  int E, threads;
  const long* a_counts;
  const std::int32_t* tiles;
  long* split_buf;  ///< per block threads + 1
  std::int32_t* out;
  BANKCHECK_HD CfMerge<std::int32_t> operator()(unsigned block) const {
    CfMerge<std::int32_t> m;
    m.layout.w = 32;
    m.layout.E = E;
    m.layout.threads = threads;
    m.layout.a_count = a_counts[block];
    const long n = static_cast<long>(threads) * E;
    m.tile = tiles + block * n;
    m.split_buf = split_buf + block * (threads + 1);
    m.out = out + block * n;
    return m;
  }
};

/// Labeling (1 = output from B) of one tile's merged outputs.
std::vector<std::uint8_t> worst_labels(unsigned u, unsigned E) {
  inputs::MergeSortShape shape;
  shape.threads = u;
  shape.items = E;
  shape.warp = 32;
  shape.keys = 2ull * u * E;
  inputs::MergeSortAdversary adversary(shape);
  for (const auto& pass : adversary.passes())
    if (pass.global) return pass.from_b;
  throw std::runtime_error("adversary has no global pass");
}

/// Tile whose merge follows `from_b`: output k has key k + base.
void tile_from_labels(const std::vector<std::uint8_t>& from_b, std::int32_t base, std::int32_t* tile, long& a_count) {
  std::vector<std::int32_t> a, b;
  for (std::size_t k = 0; k < from_b.size(); ++k) (from_b[k] ? b : a).push_back(static_cast<std::int32_t>(k) + base);
  std::copy(a.begin(), a.end(), tile);
  std::copy(b.begin(), b.end(), tile + a.size());
  a_count = static_cast<long>(a.size());
}

/// Each block's tile of n = uE keys and its |A|: the worst-case labels, or a random half from B.
void make_tiles(unsigned u, unsigned E, bool worst, unsigned blocks, std::vector<std::int32_t>& tiles,
                std::vector<long>& a_counts) {
  const long n = static_cast<long>(u) * E;
  inputs::Random rng(u * 1000 + E * 10 + worst);
  const std::vector<std::uint8_t> worst_b = worst ? worst_labels(u, E) : std::vector<std::uint8_t>{};
  for (unsigned blk = 0; blk < blocks; ++blk) {
    std::vector<std::uint8_t> from_b;
    if (worst) {
      from_b = worst_b;
    } else {
      from_b.assign(n, 0);
      std::fill(from_b.begin() + n / 2, from_b.end(), 1);
      for (long i = n - 1; i > 0; --i) std::swap(from_b[i], from_b[rng.below(i + 1)]);
    }
    tile_from_labels(from_b, static_cast<std::int32_t>(blk * n), tiles.data() + blk * n, a_counts[blk]);
  }
}

void run_case(Experiment& ex, unsigned u, unsigned E, bool worst, unsigned blocks) {
  const long n = static_cast<long>(u) * E;
  std::vector<std::int32_t> tiles(n * blocks);
  std::vector<long> a_counts(blocks);
  make_tiles(u, E, worst, blocks, tiles, a_counts);
  std::vector<std::int32_t> expected(n * blocks);
  std::iota(expected.begin(), expected.end(), 0);
  DeviceBuffer<std::int32_t> d_tiles(tiles), d_out(n * blocks);
  DeviceBuffer<long> d_counts(a_counts);
  std::vector<std::int32_t> h_out(n * blocks, -1);
  MergeFactory host{static_cast<int>(E), static_cast<int>(u), a_counts.data(), tiles.data(), h_out.data()};
  MergeFactory dev{static_cast<int>(E), static_cast<int>(u), d_counts.get(), d_tiles.get(), d_out.get()};
  CaseInfo c;
  c.kernel = "pairwise_merge";
  c.variant = "cub-serial";
  c.input = worst ? "worst" : "random";
  c.params = "u=" + std::to_string(u) + ";E=" + std::to_string(E) + ";blocks=" + std::to_string(blocks);
  c.blocks = blocks;
  c.threads = u;
  c.shared = static_cast<std::size_t>(host(0).shared_bytes());
  c.input_hash = hash_of(tiles);
  auto verify = [&] { return equal_or_report(d_out.download(), expected); };
  d_out.poison();
  ex.run(c, host, dev, verify, static_cast<std::uint64_t>(n) * blocks);
  if (ex.mode() == Mode::predict && h_out != expected) ex.fail(c, "CPU recorder's merge output is wrong");

  // CF-Merge: thread t gathers exactly the items of merged positions tE..tE+E-1
  // (in round order), so each thread's E items, sorted, must be those ranks.
  std::vector<long> h_splits(static_cast<std::size_t>(blocks) * (u + 1));
  DeviceBuffer<long> d_splits(h_splits.size());
  std::fill(h_out.begin(), h_out.end(), -1);
  CfFactory cf_host{static_cast<int>(E), static_cast<int>(u), a_counts.data(), tiles.data(), h_splits.data(), h_out.data()};
  CfFactory cf_dev{static_cast<int>(E), static_cast<int>(u), d_counts.get(), d_tiles.get(), d_splits.get(), d_out.get()};
  auto gathered_ok = [&](std::vector<std::int32_t> got) {
    for (std::size_t t = 0; t < got.size(); t += E) {
      std::sort(got.begin() + t, got.begin() + t + E);
      for (std::size_t i = t; i < t + E; ++i)
        if (got[i] != expected[i]) {
          std::printf("  thread chunk at %zu: gathered item %d where rank %d belongs\n", t, got[i], expected[i]);
          return false;
        }
    }
    return true;
  };
  CaseInfo cf = c;
  cf.variant = "cf-merge-gather";
  cf.shared = static_cast<std::size_t>(cf_host(0).shared_bytes());
  d_out.poison();
  ex.run(cf, cf_host, cf_dev, [&] { return gathered_ok(d_out.download()); }, static_cast<std::uint64_t>(n) * blocks);
  if (ex.mode() == Mode::predict && !gathered_ok(h_out)) ex.fail(cf, "CPU recorder's gather is wrong");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Pairwise merge (one merge per block, CUB style): check, predict, profile, time"};
  ProgramOptions opts;
  unsigned blocks = 0;
  add_program_options(app, opts);
  app.add_option("--blocks", blocks, "blocks (merges) per launch (default 16, 4096 for time)")->check(CLI::Range(1u, 1u << 16));
  CLI11_PARSE(app, argc, argv);
  return run_program(opts, "pairwise_merge", [&](Experiment& ex) {
    if (blocks == 0) blocks = ex.mode() == Mode::time ? 4096 : 16;
    struct Shape { unsigned u, E; };
    for (Shape s : {Shape{512, 15}, Shape{256, 17}, Shape{256, 16}})
      for (bool worst : {false, true}) run_case(ex, s.u, s.E, worst, blocks);
  });
}
