// Registry entries transpose, transpose-padded and transpose-swizzled
// (sim/algorithms/transpose/transpose.hpp): one tile x tile block writing a
// tile row by row and reading it column by column.
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/algorithms/transpose/transpose.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec transpose_spec(std::string name, TransposeLayout layout, std::string description) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = std::move(description);
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"tile", 32, "tile side (tile*tile threads), 1..32; a power of two for the swizzled layout"}};
  s.validate = [layout](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "tile", 1, 32);
    Transpose<int>{u32(p, "tile"), layout}.validate();
  };
  s.drive = [layout](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "transpose");
    const unsigned tile = u32(p, "tile"), w = u32(p, "w");
    std::vector<int> a(tile * tile), b(tile * tile, -1);
    inputs::Random rng(in.seed);
    for (auto& v : a) v = static_cast<int>(rng.below(1000));
    Transpose<int> t{tile, layout, a.data(), b.data()};
    record_block(t, w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out[c][r] == in[r][c]";
    o.output_ok = true;
    for (unsigned r = 0; r < tile; ++r)
      for (unsigned c = 0; c < tile; ++c) o.output_ok &= b[c * tile + r] == a[r * tile + c];
    o.blocks = 1;
    o.items = tile * tile;
    if (tile == w) {
      if (layout == TransposeLayout::plain) {
        Prediction pr;
        pr.formula = "plain tile, tile = w: each column read is w-way, w(w-1) conflicts per tile";
        pr.quantity = "conflicts";
        pr.sites = {"transpose.read_column"};
        pr.value = std::uint64_t{w} * (w - 1);
        pr.model = "dmm";
        o.prediction = pr;
      } else {
        o.prediction = conflict_free("padded / XOR-swizzled tile, tile = w: conflict-free", {});
      }
    }
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> transpose_specs() {
  return {transpose_spec("transpose", TransposeLayout::plain, "tiled transpose, tile[r][c] at r*tile + c"),
          transpose_spec("transpose-padded", TransposeLayout::padded,
                         "tiled transpose, rows padded to tile + 1 (conflict-free column reads)"),
          transpose_spec("transpose-swizzled", TransposeLayout::swizzled,
                         "tiled transpose, tile[r][c] at r*tile + (c xor r)")};
}

}  // namespace bankcheck
