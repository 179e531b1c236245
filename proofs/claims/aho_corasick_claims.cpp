// Aho-Corasick in shared memory (KIPS), Section 2, Figures 3-4: with the
// SM-2 staging every lane scans its own bank, so the match phase makes no bank
// conflict for any chunk size. The claim runs
// sim/algorithms/aho_corasick/aho_corasick.hpp and checks the match counts.
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "proofs/claims/claim_groups.hpp"
#include "proofs/claims/input_plan.hpp"
#include "proofs/claims/priced_run.hpp"
#include "sim/algorithms/aho_corasick/aho_corasick.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

Claim ac_claim_for(const char* staging_name) {
  const TextStaging staging = parse_text_staging(staging_name);
  Claim c;
  c.id = std::string("ac.") + staging_name + ".scan_conflict_free";
  c.paper = "Aho-Corasick SM (KIPS)";
  c.lemma = "Section 2, Figures 3-4";
  c.statement = std::string("with the ") + staging_name +
                " staging every lane scans its own bank: the match phase makes no bank conflict, for every chunk size "
                "(point = (w, chunk in 4-byte words), 2w threads; match counts checked)";
  c.hypotheses = "chunk a multiple of 4 bytes up to 4096; threads a multiple of w, at most 1024";
  c.category = "algorithm";
  c.domain = Domain{1, 32, 1, 64, false};
  c.models = {"dmm", "sm90"};
  // The algorithm's domain (AhoCorasick::validate): a chunk of at most 4096
  // bytes (E <= 1024 words) and a block of at most 1024 threads (2w <= 1024).
  c.region = [](const Point& p) { return p.E <= 1024 && p.w <= 512 ? Region::within : Region::outside; };
  c.exhaustive_cases = [](const Point&) { return BigCount(1); };
  c.check = [id = c.id, staging](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const std::vector<std::string> patterns = {"he", "she", "his", "hers", "abab"};
    const AcAutomaton automaton = build_aho_corasick(patterns);
    AhoCorasick algo;
    algo.threads = static_cast<unsigned>(2 * p.w);
    algo.chunk = static_cast<unsigned>(4 * p.E);
    algo.staging = staging;
    algo.validate();
    std::mt19937_64 rng = point_rng(p, o);
    const char alphabet[] = "abehirs";
    std::string text(algo.words() * 4, 'a');
    for (char& ch : text) ch = alphabet[rng() % 7];
    std::vector<std::uint32_t> words(algo.words());
    std::memcpy(words.data(), text.data(), text.size());
    std::vector<std::uint32_t> matches(algo.threads, 0);
    algo.text = words.data();
    algo.next = automaton.next.data();
    algo.out_begin = automaton.out_begin.data();
    algo.out_length = automaton.out_length.data();
    algo.longest = automaton.longest;
    algo.matches = matches.data();
    for (const Priced& r : price_block(algo, algo.shared_bytes(), algo.threads, static_cast<unsigned>(p.w), model)) {
      if (r.phase != 1) continue;
      ++res.cases;
      if (r.cost.conflicts() > 0) {
        res.counterexample = counterexample_at(
            id, p, o, "warp " + to_string(r.warp) + " scan round " + to_string(r.k) + " is " + to_string(r.cost.degree) + "-way");
        return res;
      }
    }
    uint64_t naive = 0;
    for (const auto& pat : patterns)
      for (std::size_t at = text.find(pat); at != std::string::npos; at = text.find(pat, at + 1)) ++naive;
    const uint64_t counted = std::accumulate(matches.begin(), matches.end(), uint64_t{0});
    if (counted != naive)
      res.counterexample = counterexample_at(id, p, o,
                                             "the threads count " + to_string(counted) + " matches, the text has " + to_string(naive));
    return res;
  };
  return c;
}

}  // namespace

Claim ac_scan_conflict_free_claim(const char* staging) { return ac_claim_for(staging); }

std::vector<Claim> aho_corasick_claims() { return {ac_scan_conflict_free_claim("sm2")}; }

}  // namespace bankcheck::proofs
