#include "sim/algorithms/aho_corasick/aho_corasick.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace aho_corasick_test {

using namespace bankcheck;

namespace {
struct Run {
  std::uint64_t matches = 0;
  test::TallyListener tally;
};

std::uint64_t naive_count(const std::string& text, const std::vector<std::string>& patterns) {
  std::uint64_t n = 0;
  for (const auto& p : patterns)
    for (std::size_t i = 0; i + p.size() <= text.size(); ++i) n += text.compare(i, p.size(), p) == 0;
  return n;
}

Run run(const std::string& text, const std::vector<std::string>& patterns, unsigned threads, unsigned chunk,
        TextStaging staging, const BankModel& model) {
  REQUIRE(text.size() == std::size_t{threads} * chunk);
  const AcAutomaton ac = build_aho_corasick(patterns);
  std::vector<std::uint32_t> words(text.size() / 4);
  std::memcpy(words.data(), text.data(), text.size());  // little-endian hosts: byte b of word = text[4w + b]
  std::vector<std::uint32_t> matches(threads, 777);
  AhoCorasick a{threads, chunk, staging, aho_skew_for(model.geometry().banks, chunk), words.data(), ac.next.data(),
                ac.out_begin.data(), ac.out_length.data(), ac.longest, matches.data()};
  a.validate();
  auto tally = test::tally(a, threads, model, a.shared_bytes());
  std::uint64_t total = 0;
  for (auto m : matches) total += m;
  return {total, tally};
}

std::string random_text(std::size_t n, std::mt19937& rng, std::string_view alphabet) {
  std::string s(n, ' ');
  for (auto& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}
}  // namespace

TEST_CASE("aho: match counts equal a naive CPU search, for every staging") {
  std::mt19937 rng(11);
  for (unsigned patterns_count : {1u, 5u, 40u}) {
    std::vector<std::string> patterns;
    for (unsigned i = 0; i < patterns_count; ++i) patterns.push_back(random_text(1 + rng() % 7, rng, "acgt"));
    for (unsigned chunk : {4u, 12u, 64u}) {
      const std::string text = random_text(32 * chunk, rng, "acgt");
      const auto expect = naive_count(text, patterns);
      for (auto staging : {TextStaging::sm1, TextStaging::sm2, TextStaging::skewed}) {
        CAPTURE(patterns_count);
        CAPTURE(chunk);
        CAPTURE(static_cast<int>(staging));
        CHECK(run(text, patterns, 32, chunk, staging, make_preset("dmm", 16)).matches == expect);
      }
    }
  }
}

TEST_CASE("aho: the paper's setting, 16 banks, 16-word chunks: SM-1 scan 16-way, SM-2 scan conflict-free") {
  // GTX 285: 16 banks of 4 bytes, 64-byte chunks (Fig. 2: 1024 bytes, 16 threads). Here 32
  // threads (2 warps of 16), longest pattern 4 bytes: each thread reads its 16 words plus
  // 1 word of the next chunk (17 scan instructions per warp; the last thread skips the 17th).
  const auto model = make_preset("dmm", 16);
  std::mt19937 rng(2);
  const std::string text = random_text(32 * 64, rng, "ab");
  const std::vector<std::string> patterns{"abab", "ba", "aaa"};
  auto sm1 = run(text, patterns, 32, 64, TextStaging::sm1, model);
  const auto& scan1 = sm1.tally.sites.at("aho.scan");
  CHECK(scan1.instructions == 34);
  // Lane t's j-th word is at 16t + j: every lane in bank j -> 16-way (15 conflicts), except
  // warp 1's 17th instruction with 15 active lanes (14 conflicts).
  CHECK(scan1.conflicts() == 33 * 15 + 14);
  CHECK(sm1.tally.sites.at("aho.stage").conflicts() == 0);  // contiguous stores

  auto sm2 = run(text, patterns, 32, 64, TextStaging::sm2, model);
  CHECK(sm2.tally.sites.at("aho.scan").conflicts() == 0);
  // Staging: a warp stores the 16 words of one chunk c at 32j + c -> all in bank c mod 16.
  const auto& stage2 = sm2.tally.sites.at("aho.stage");
  CHECK(stage2.instructions == 32);
  CHECK(stage2.conflicts() == 32 * 15);

  auto skewed = run(text, patterns, 32, 64, TextStaging::skewed, model);
  CHECK(skewed.tally.total.conflicts() == 0);
  CHECK(skewed.matches == sm1.matches);
}

TEST_CASE("aho: SM-1 is GCD(C/4, w)-way in general") {
  std::mt19937 rng(4);
  for (unsigned w : {8u, 16u, 32u})
    for (unsigned chunk : {4u, 8u, 24u, 48u}) {
      CAPTURE(w);
      CAPTURE(chunk);
      const unsigned per = chunk / 4, threads = 2 * w;
      unsigned g = per, b = w;
      while (b) {
        const unsigned r = g % b;
        g = b;
        b = r;
      }
      const std::string text = random_text(threads * chunk, rng, "xy");
      // Longest pattern 1 byte: no read past the chunk, every instruction has all lanes.
      auto r = run(text, {"x"}, threads, chunk, TextStaging::sm1, make_preset("dmm", w));
      const auto& scan = r.tally.sites.at("aho.scan");
      CHECK(scan.instructions == 2 * per);
      CHECK(scan.worst_degree == g);
      CHECK(scan.conflicts() == std::uint64_t{2} * per * (g - 1));
    }
}

TEST_CASE("aho: parameters are checked") {
  AhoCorasick a;
  a.chunk = 6;
  CHECK_THROWS_WITH_AS(a.validate(), doctest::Contains("multiple of 4"), std::invalid_argument);
  CHECK_THROWS_AS(build_aho_corasick({}), std::invalid_argument);
  CHECK_THROWS_AS(build_aho_corasick({"ab", ""}), std::invalid_argument);
  CHECK_THROWS_AS(parse_text_staging("sm3"), std::invalid_argument);
}

TEST_CASE("aho: under the sm90 preset (32 banks of 4 bytes) the 4-byte scan behaves as in the DMM") {
  // 64 threads, 64-byte chunks: lane t's word j at 16t + j -> banks (16t + j) mod 32 take
  // 2 values, 16 lanes each: 16-way. SM-2: lane t at 64j + t -> bank t mod 32: conflict-free.
  const auto sm90 = make_preset("sm90", 32);
  std::mt19937 rng(9);
  const std::string text = random_text(64 * 64, rng, "ab");
  auto sm1 = run(text, {"ab"}, 64, 64, TextStaging::sm1, sm90);
  CHECK(sm1.tally.sites.at("aho.scan").worst_degree == 16);
  auto sm2 = run(text, {"ab"}, 64, 64, TextStaging::sm2, sm90);
  CHECK(sm2.tally.sites.at("aho.scan").conflicts() == 0);
}

TEST_CASE("aho: the skewed staging is conflict-free in both phases when C/4 divides w or w divides C/4") {
  std::mt19937 rng(12);
  for (unsigned w : {8u, 16u, 32u})
    for (unsigned per : {1u, 2u, 4u, 8u, 16u, 32u, 64u}) {
      if (w % per != 0 && per % w != 0) continue;
      CAPTURE(w);
      CAPTURE(per);
      const unsigned threads = 2 * w, chunk = 4 * per;
      const std::string text = random_text(threads * chunk, rng, "ab");
      auto r = run(text, {"ab", "bba", "a"}, threads, chunk, TextStaging::skewed, make_preset("dmm", w));
      CHECK(r.tally.total.conflicts() == 0);
      CHECK(r.matches == naive_count(text, {"ab", "bba", "a"}));
    }
}

}  // namespace aho_corasick_test
