// Tiled transpose (sim/algorithms/transpose/transpose.hpp) on the GPU: plain, padded and swizzled
// layouts, 4- and 8-byte elements. The simplest single-source kernel: its
// conflict counts are known in closed form (plain: 32-way column reads), so it
// calibrates the harness before the search and merge kernels.
//   kernel.transpose --mode check|predict|profile|time [--out DIR]
#include <CLI/CLI.hpp>

#include "kernels/experiment.cuh"
#include "sim/algorithms/transpose/transpose.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

template <class T>
struct TransposeFactory {
  unsigned tile;
  TransposeLayout layout;
  const T* in;
  T* out;
  BANKCHECK_HD Transpose<T> operator()(unsigned block) const {
    Transpose<T> t;
    t.tile = tile;
    t.layout = layout;
    const std::size_t n = std::size_t{tile} * tile;
    t.in = in + block * n;
    t.out = out + block * n;
    return t;
  }
};

template <class T>
void run_cases(Experiment& ex, unsigned blocks) {
  const unsigned tile = 32;
  const std::size_t n = std::size_t{tile} * tile * blocks;
  inputs::Random rng(7 + sizeof(T));
  std::vector<T> in(n);
  for (auto& v : in) v = static_cast<T>(rng.next());
  std::vector<T> expected(n);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned r = 0; r < tile; ++r)
      for (unsigned c = 0; c < tile; ++c)
        expected[b * tile * tile + c * tile + r] = in[b * tile * tile + r * tile + c];
  DeviceBuffer<T> d_in(in), d_out(n);
  std::vector<T> h_out(n);
  for (const char* name : {"plain", "padded", "swizzled"}) {
    const TransposeLayout layout = parse_transpose_layout(name);
    TransposeFactory<T> host{tile, layout, in.data(), h_out.data()};
    TransposeFactory<T> dev{tile, layout, d_in.get(), d_out.get()};
    CaseInfo c;
    c.kernel = "transpose";
    c.variant = name;
    c.input = "random";
    c.params = "tile=32;bytes=" + std::to_string(sizeof(T));
    c.blocks = blocks;
    c.threads = tile * tile;
    c.shared = host(0).shared_bytes();
    c.input_hash = hash_of(in);
    auto verify = [&] { return d_out.download() == expected; };
    if (ex.mode() != Mode::predict) d_out.poison();  // every output element must be written
    ex.run(c, host, dev, verify, n);
    if (ex.mode() == Mode::predict && h_out != expected) ex.fail(c, "CPU recorder output is wrong");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Tiled transpose kernel: check, predict, profile, time"};
  ProgramOptions opts;
  BlockCount block_count{0, 8};
  add_program_options(app, opts);
  add_block_count_option(app, block_count);
  CLI11_PARSE(app, argc, argv);
  return run_program(opts, "transpose", [&](Experiment& ex) {
    const unsigned blocks = block_count.in(ex);
    run_cases<std::uint32_t>(ex, blocks);
    run_cases<std::uint64_t>(ex, blocks);
  });
}
