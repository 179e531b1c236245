// Registry entry strided (sim/algorithms/strided/strided_access.hpp): SPAA
// 2025 Figure 1's toy, thread t reading element t*stride, with Lemma 1's
// count as the prediction.
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/algorithms/strided/strided_access.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec strided_spec() {
  AlgorithmSpec s;
  s.name = "strided";
  s.worst_case = kDataOblivious;
  s.description = "thread t reads element t*stride (SPAA 2025 Figure 1; conflict-free iff GCD(stride, w) = 1)";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"stride", 1, "elements between neighbouring threads, 1..65536"},
              {"u", 32, "threads, 1..1024"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "stride", 1, 65536);
    require_range(p, "u", 1, 1024);
  };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "strided");
    StridedAccess a{u32(p, "u"), u32(p, "stride")};
    std::vector<int> got(a.threads, -1);
    a.out = got.data();
    BlockRecorder recorder(a.shared_bytes());
    auto sh = recorder.shared();
    for (std::size_t i = 0; i < a.elements(); ++i) {  // element i holds i
      const int v = static_cast<int>(i);
      std::memcpy(sh.data() + i * sizeof(int), &v, sizeof v);
    }
    recorder.run(a, a.threads, u32(p, "w"), out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "thread t read element t*stride";
    o.output_ok = true;
    for (unsigned t = 0; t < a.threads; ++t) o.output_ok &= got[t] == static_cast<int>(t * a.stride);
    o.blocks = 1;
    o.items = a.threads;
    const unsigned w = u32(p, "w");
    if (a.threads % w == 0) {
      // SPAA 2025 Lemma 1 and its converse: lanes t*s fall in w/g banks, g = GCD(s, w) each.
      Prediction pr;
      pr.formula = "GCD(stride, w) wavefronts per warp (SPAA 2025 Lemma 1)";
      pr.quantity = "wavefronts";
      pr.value = static_cast<std::uint64_t>(std::gcd(a.stride, w)) * (a.threads / w);
      pr.model = "dmm";
      o.prediction = pr;
    }
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> strided_specs() {
  return {strided_spec()};
}

}  // namespace bankcheck
