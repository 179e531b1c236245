// Aho-Corasick matching with the text staged in shared memory
// (sim/algorithms/aho_corasick/aho_corasick.hpp): SM-1 (chunks contiguous), SM-2 (chunks interleaved,
// the paper's fix) and our skewed staging, for several chunk sizes C. Each
// thread's match count is checked against a naive search of the same chunk.
//   kernel.aho_corasick --mode check|predict|profile|time [--out DIR]
#include <CLI/CLI.hpp>

#include <cstring>

#include "kernels/experiment.cuh"
#include "sim/algorithms/aho_corasick/aho_corasick.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

constexpr unsigned kThreads = 256;

struct AhoFactory {
  unsigned chunk;
  TextStaging staging;
  const std::uint32_t* text;
  const std::int32_t* next;
  const std::uint32_t* out_begin;
  const std::uint32_t* out_length;
  std::uint32_t longest;
  std::uint32_t* matches;
  BANKCHECK_HD AhoCorasick operator()(unsigned block) const {
    AhoCorasick a;
    a.threads = kThreads;
    a.chunk = chunk;
    a.staging = staging;
    a.text = text + static_cast<std::size_t>(block) * kThreads * (chunk / 4);
    a.next = next;
    a.out_begin = out_begin;
    a.out_length = out_length;
    a.longest = longest;
    a.matches = matches + static_cast<std::size_t>(block) * kThreads;
    return a;
  }
};

const std::vector<std::string> kPatterns = {"ab", "abc", "bca", "dd", "cab", "abcd", "dcba", "aaaa"};

/// Occurrences starting in each thread's chunk that end inside the block (the
/// algorithm's contract), by direct comparison.
std::vector<std::uint32_t> reference(const std::string& text, unsigned chunk, unsigned blocks) {
  std::vector<std::uint32_t> count(static_cast<std::size_t>(blocks) * kThreads, 0);
  const std::size_t block_bytes = std::size_t{kThreads} * chunk;
  parallel_for(count.size(), 0, [&](std::size_t thread) {
    const std::size_t block_end = (thread / kThreads + 1) * block_bytes;
    std::uint32_t c = 0;
    for (std::size_t s = thread * chunk; s < (thread + 1) * chunk; ++s)
      for (const auto& p : kPatterns)
        if (s + p.size() <= block_end && text.compare(s, p.size(), p) == 0) ++c;
    count[thread] = c;
  });
  return count;
}

void run_cases(Experiment& ex, unsigned blocks) {
  const AcAutomaton automaton = build_aho_corasick(kPatterns);
  DeviceBuffer<std::int32_t> d_next(automaton.next);
  DeviceBuffer<std::uint32_t> d_begin(automaton.out_begin), d_length(automaton.out_length);
  for (unsigned chunk : {32u, 64u, 128u}) {
    const std::size_t bytes = std::size_t{blocks} * kThreads * chunk;
    inputs::Random rng(chunk);
    std::string text(bytes, 'a');
    for (auto& ch : text) ch = static_cast<char>('a' + rng.below(4));
    std::vector<std::uint32_t> words(bytes / 4);
    std::memcpy(words.data(), text.data(), bytes);  // little-endian: byte b of a word is text[4w + b]
    const std::vector<std::uint32_t> expected = reference(text, chunk, blocks);
    DeviceBuffer<std::uint32_t> d_text(words), d_matches(expected.size());
    std::vector<std::uint32_t> h_matches(expected.size());
    for (const char* name : {"sm1", "sm2", "skewed"}) {
      const TextStaging staging = parse_text_staging(name);
      AhoFactory host{chunk, staging, words.data(), automaton.next.data(), automaton.out_begin.data(),
                      automaton.out_length.data(), automaton.longest, h_matches.data()};
      AhoFactory dev{chunk, staging, d_text.get(), d_next.get(), d_begin.get(), d_length.get(), automaton.longest,
                     d_matches.get()};
      host(0).validate();
      CaseInfo c;
      c.kernel = "aho_corasick";
      c.variant = name;
      c.input = "random";
      c.params = "C=" + std::to_string(chunk) + ";threads=256";
      c.blocks = blocks;
      c.threads = kThreads;
      c.shared = host(0).shared_bytes();
      c.input_hash = hash_of(words);
      auto verify = [&] { return d_matches.download() == expected; };
      d_matches.poison();
      ex.run(c, host, dev, verify, bytes);
      if (ex.mode() == Mode::predict && h_matches != expected) ex.fail(c, "CPU recorder counts differ from naive search");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Aho-Corasick SM-1 / SM-2 / skewed kernels: check, predict, profile, time"};
  ProgramOptions opts;
  BlockCount block_count{0, 16};
  add_program_options(app, opts);
  add_block_count_option(app, block_count);
  CLI11_PARSE(app, argc, argv);
  return run_program(opts, "aho_corasick", [&](Experiment& ex) {
    const unsigned blocks = block_count.in(ex);
    run_cases(ex, blocks);
  });
}
