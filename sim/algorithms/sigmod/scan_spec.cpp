// Registry entries scan and scan-padded (sim/algorithms/sigmod/prefix_scan.hpp):
// the Blelloch exclusive scan of SIGMOD 2008's primitives, unpadded and with
// GPU Gems 3's padding; the output is checked against std::exclusive_scan.
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/sigmod/prefix_scan.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec scan_spec(std::string name, bool padded) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = padded ? "Blelloch exclusive scan, slots padded by i / w (GPU Gems 3 ch. 39)"
                         : "Blelloch exclusive scan (up-sweep/down-sweep), unpadded";
  s.params = {{"w", 32, "warp size = banks, 1..1024"}, {"n", 64, "elements, a power of two in 2..4096 (n/2 threads)"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "n", 2, 4096);
    require(power_of_two(param(p, "n")), "n must be a power of two (got " + num(param(p, "n")) + ")");
  };
  s.drive = [padded](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned n = u32(p, "n"), w = u32(p, "w");
    std::vector<int> a(n), b(n, -1);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == n, in.path + ": scan needs exactly n = " + num(n) + " integers (got " + num(v.size()) + ")");
      for (unsigned i = 0; i < n; ++i) {
        require(v[i] >= -1000000 && v[i] <= 1000000, in.path + ": values must be in -10^6..10^6");
        a[i] = static_cast<int>(v[i]);
      }
    } else {
      inputs::Random rng(in.seed);
      for (auto& v : a) v = static_cast<int>(rng.below(100));
    }
    PrefixScan<int> sc{n, padded ? w : 0u, a.data(), b.data()};
    record_block(sc, w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out == std::exclusive_scan(in)";
    std::vector<int> e(n);
    std::exclusive_scan(a.begin(), a.end(), e.begin(), 0);
    o.output_ok = e == b;
    o.blocks = 1;
    o.items = n;
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> scan_specs() {
  return {scan_spec("scan", false), scan_spec("scan-padded", true)};
}

}  // namespace bankcheck
