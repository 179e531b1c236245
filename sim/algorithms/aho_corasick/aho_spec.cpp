// Registry entries aho-sm1, aho-sm2 and aho-skewed
// (sim/algorithms/aho_corasick/aho_corasick.hpp): Aho-Corasick over a random
// DNA text with the paper's SM-1 and SM-2 stagings and our skewed one; the
// match count is checked against a naive search.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/algorithms/aho_corasick/aho_corasick.hpp"
#include "sim/algorithms/algorithm_registry.hpp"
#include "sim/algorithms/spec_support.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck {
namespace {

using namespace spec_support;

AlgorithmSpec aho_spec(std::string name, TextStaging staging, std::string description) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = std::move(description);
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"u", 32, "threads, 1..1024"},
              {"chunk", 64, "text bytes per thread, a multiple of 4 in 4..4096"},
              {"patterns", 16, "patterns (random substrings of the text), 1..10000"},
              {"pattern_len", 6, "longest pattern, 1..64 bytes"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "u", 1, 1024);
    require_range(p, "chunk", 4, 4096);
    require(param(p, "chunk") % 4 == 0, "chunk must be a multiple of 4 (got " + num(param(p, "chunk")) + ")");
    require_range(p, "patterns", 1, 10000);
    require_range(p, "pattern_len", 1, 64);
  };
  s.drive = [staging](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "aho");
    const unsigned u = u32(p, "u"), chunk = u32(p, "chunk"), w = u32(p, "w");
    inputs::Random rng(in.seed);
    std::string text(std::size_t{u} * chunk, 'a');
    for (auto& ch : text) ch = "acgt"[rng.below(4)];
    std::vector<std::string> patterns;
    const unsigned longest = std::min<unsigned>(u32(p, "pattern_len"), static_cast<unsigned>(text.size()));
    for (unsigned i = 0; i < u32(p, "patterns"); ++i) {
      const std::size_t len = 1 + rng.below(longest);
      patterns.push_back(text.substr(rng.below(text.size() - len + 1), len));
    }
    const AcAutomaton ac = build_aho_corasick(patterns);
    std::vector<std::uint32_t> words(text.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i)
      for (unsigned b = 0; b < 4; ++b)
        words[i] |= std::uint32_t{static_cast<unsigned char>(text[4 * i + b])} << (8 * b);
    std::vector<std::uint32_t> matches(u, 0);
    AhoCorasick a{u, chunk, staging, aho_skew_for(w, chunk), words.data(), ac.next.data(), ac.out_begin.data(),
                  ac.out_length.data(), ac.longest, matches.data()};
    record_block(a, w, out);
    std::uint64_t expect = 0, got = 0;
    for (const auto& pat : patterns)
      for (std::size_t i = 0; i + pat.size() <= text.size(); ++i) expect += text.compare(i, pat.size(), pat) == 0;
    for (auto m : matches) got += m;
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "total matches == naive search of every pattern (" + std::to_string(expect) + ")";
    o.output_ok = got == expect;
    o.blocks = 1;
    o.items = text.size();
    const unsigned per = chunk / 4;
    if (staging == TextStaging::sm2 && u % w == 0)
      o.prediction = conflict_free("each thread scans its own bank (SM-2, Sec. 2, Figs. 3-4)", {"aho.scan"});
    if (staging == TextStaging::skewed && u % w == 0 && (w % per == 0 || per % w == 0))
      o.prediction = conflict_free("skewed staging: every warp instruction covers distinct banks", {});
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> aho_specs() {
  return {aho_spec("aho-sm1", TextStaging::sm1, "Aho-Corasick, SM-1: each thread's chunk contiguous"),
          aho_spec("aho-sm2", TextStaging::sm2, "Aho-Corasick, SM-2: each thread's words in one bank"),
          aho_spec("aho-skewed", TextStaging::skewed,
                   "Aho-Corasick, SM-2 with a skew of w/(chunk/4): conflict-free staging and scan (ours)")};
}

}  // namespace bankcheck
