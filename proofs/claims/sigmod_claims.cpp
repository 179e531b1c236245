// SIGMOD 2008 (He et al., relational joins on GPUs), Section 3, the split
// primitive (Algorithm 1): thread histograms tHist[t][p] are laid out in the
// order of L, "L[(p-1)*#thread + t]" (step 2), "aligning histograms to the GPU
// threading architecture" (Section 1). With #thread a multiple of w, lane t's
// counters all lie in bank t mod w, so counting makes no bank conflict for
// any keys. The claim runs sim/algorithms/sigmod/split_histogram.hpp and
// checks the counts; the thread-major layout is the mutation that fails.
#include <cstdint>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/claims/input_plan.hpp"
#include "proofs/claims/priced_run.hpp"
#include "sim/algorithms/sigmod/split_histogram.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

constexpr unsigned kKeysPerThread = 4;

/// Keys of the 2w threads: every one when few, else all in partition 0, thread
/// t in partition t mod F, and a seeded sample.
std::vector<std::vector<long>> split_inputs(const Point& p, const CheckOptions& o) {
  const unsigned threads = static_cast<unsigned>(2 * p.w), n = threads * kKeysPerThread;
  std::vector<long> zero(n, 0), own(n);
  for (unsigned i = 0; i < n; ++i) own[i] = static_cast<long>((i / kKeysPerThread) % p.E);
  return vectors_or_sample(n, 0, static_cast<long>(p.E) - 1, p, o, {zero, own});
}

BigCount split_all(const Point& p) {
  return boost::multiprecision::pow(BigCount(p.E), static_cast<unsigned>(2 * p.w * kKeysPerThread));
}

}  // namespace

Claim sigmod_split_claim(const char* layout_name) {
  const HistogramLayout layout = parse_histogram_layout(layout_name);
  Claim c;
  c.id = layout == HistogramLayout::interleaved ? "sigmod.split.conflict_free"
                                                : std::string("sigmod.split.") + layout_name + ".conflict_free";
  c.paper = "SIGMOD 2008";
  c.lemma = "Section 3, split (Algorithm 1, steps 1-2)";
  c.statement = std::string("thread histograms laid out ") +
                (layout == HistogramLayout::interleaved ? "in L order (p * #thread + t)"
                                                        : "thread-major (t * F + p) [mutation]") +
                " make counting, zeroing and reading them back conflict-free for every key set (point = (w, F "
                "partitions), 2w threads, 4 keys each; counts checked)";
  c.hypotheses = "#thread a multiple of w";
  c.category = "algorithm";
  c.domain = Domain{1, 32, 1, 16, false};  // F beyond 16 adds nothing: lane t's slots stay in bank t mod w
  c.models = {"dmm", "sm90"};
  c.region = [](const Point&) { return Region::within; };
  c.exhaustive_cases = split_all;
  c.planned_cases = [](const Point& p, const CheckOptions& o) { return planned_inputs(split_all(p), o, 2); };
  c.check = [id = c.id, layout](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const unsigned threads = static_cast<unsigned>(2 * p.w), fanout = static_cast<unsigned>(p.E);
    for (const auto& input : split_inputs(p, o)) {
      ++res.cases;
      const std::vector<unsigned> keys(input.begin(), input.end());
      std::vector<unsigned> hist(std::size_t{threads} * fanout, 0), expect(hist.size(), 0);
      const SplitHistogram algo{threads, fanout, kKeysPerThread, layout, keys.data(), hist.data()};
      for (const Priced& r : price_block(algo, algo.shared_bytes(), threads, static_cast<unsigned>(p.w), model))
        if (r.cost.conflicts() > 0) {
          res.counterexample = counterexample_at(id, p, o,
                                                 "keys " + list_text(keys) + ": site " + SplitHistogram::kSiteNames[r.site] +
                                                     " warp " + to_string(r.warp) + " round " + to_string(r.k) +
                                                     " is " + to_string(r.cost.degree) + "-way");
          return res;
        }
      for (unsigned t = 0; t < threads; ++t)
        for (unsigned i = 0; i < kKeysPerThread; ++i) ++expect[std::size_t{keys[t * kKeysPerThread + i] % fanout} * threads + t];
      if (hist != expect) {
        res.counterexample = counterexample_at(id, p, o, "keys " + list_text(keys) + ": the histograms are wrong");
        return res;
      }
    }
    return res;
  };
  return c;
}

std::vector<Claim> sigmod_claims() { return {sigmod_split_claim("interleaved")}; }

}  // namespace bankcheck::proofs
