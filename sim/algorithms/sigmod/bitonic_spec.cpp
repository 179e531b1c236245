// Registry entry bitonic (sim/algorithms/sigmod/bitonic_sort.hpp): SIGMOD
// 2008's bitonic sort of n keys in shared memory, checked against std::sort.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/sigmod/bitonic_sort.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec bitonic_spec() {
  AlgorithmSpec s;
  s.name = "bitonic";
  s.worst_case = kDataOblivious;
  s.description = "bitonic sort in shared memory (SIGMOD 2008 Sec. 3.2); 2-way in stages with j < w";
  s.params = {{"w", 32, "warp size = banks, 1..1024"}, {"n", 256, "keys, a power of two in 2..4096 (n/2 threads)"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "n", 2, 4096);
    require(power_of_two(param(p, "n")), "n must be a power of two (got " + num(param(p, "n")) + ")");
  };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned n = u32(p, "n"), w = u32(p, "w");
    std::vector<int> a(n), b(n, -1);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == n, in.path + ": bitonic needs exactly n = " + num(n) + " integers (got " + num(v.size()) + ")");
      for (unsigned i = 0; i < n; ++i) {
        require(v[i] >= INT32_MIN && v[i] <= INT32_MAX, in.path + ": values must fit 32 bits");
        a[i] = static_cast<int>(v[i]);
      }
    } else {
      inputs::Random rng(in.seed);
      for (auto& v : a) v = static_cast<int>(rng.below(100000));
    }
    BitonicSort<int> bs{n, a.data(), b.data()};
    record_block(bs, w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out == std::sort(in)";
    std::sort(a.begin(), a.end());
    o.output_ok = a == b;
    o.blocks = 1;
    o.items = n;
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> bitonic_specs() {
  return {bitonic_spec()};
}

}  // namespace bankcheck
