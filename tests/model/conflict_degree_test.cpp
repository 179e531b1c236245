// Tests of model/conflict_degree.hpp: the definition on hand-counted phases
// (docs/bank-model.md's reading: distinct bank words per bank, multicast of
// equal words, Kepler's two rows per word, wide accesses over several
// cells, bank counts that are not powers of two), and sm90::phase_degree
// (model/sm90_warp_cost.hpp, the code the GPU runs too) equal to it on
// every width and phase shape the sm90 rules form. The model's scalar and
// SIMD paths are tested against it in phase_rules_test.cpp and
// simd_degree_test.cpp.
#include "model/conflict_degree.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/sm90_warp_cost.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace conflict_degree_test {

using namespace bankcheck;

namespace {

constexpr std::uint64_t X = kInactive;

/// 32 lanes: lane l at base + stride * l.
std::vector<std::uint64_t> strided(std::uint64_t base, std::uint64_t stride) {
  std::vector<std::uint64_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = base + stride * l;
  return a;
}

}  // namespace

TEST_CASE("the definition on hand-counted phases") {
  struct Case {
    const char* name;
    WordLayout layout;
    unsigned width;
    std::vector<std::uint64_t> addr;
    std::uint32_t degree;  // counted by hand in the comment
  };
  const WordLayout h100{4, 32, 1}, kepler4{4, 32, 2};
  const std::vector<Case> cases = {
      // words 0..31: one per bank
      {"stride 1 word", h100, 4, strided(0, 4), 1},
      // words 0, 2, ..., 62: banks 0, 2, ..., 30 hold two words each
      {"stride 2 words", h100, 4, strided(0, 8), 2},
      // words 0, 32, ..., 992: all in bank 0
      {"stride 32 words", h100, 4, strided(0, 128), 32},
      // word 33 l: bank l, one word each
      {"stride 33 words", h100, 4, strided(0, 132), 1},
      // one word read by every lane: multicast
      {"broadcast", h100, 4, std::vector<std::uint64_t>(32, 64), 1},
      {"no lane active", h100, 4, std::vector<std::uint64_t>(32, X), 0},
      // words 0 and 32 (bank 0, rows 0 and 1), word 1 (bank 1); the idle lane is ignored
      {"two rows of bank 0", h100, 4, {0, 128, X, 4}, 2},
      // bytes 1 and 2 lie in word 0: one word
      {"bytes of one word", h100, 1, {1, 2, 3, X}, 1},
      // Kepler 4-byte mode: words 0 and 32 share bank 0's word 0; word 64 is its word 1
      {"kepler: rows 0 and 1 share a word", kepler4, 4, {0, 128}, 1},
      {"kepler: row 2 is the next word", kepler4, 4, {0, 128, 256}, 2},
      // 8 bytes over 4-byte cells: lane 0 words 0, 1; lane 1 words 32, 33: banks 0 and 1 hold two each
      {"8-byte lanes, rows apart", h100, 8, {0, 128}, 2},
      // lane 0 words 0, 1; lane 1 words 2, 3: four banks, one word each
      {"8-byte lanes, adjacent", h100, 8, {0, 8}, 1},
      // 16 bytes at 0 and 64: words 0-3 and 16-19, eight banks
      {"16-byte lanes", h100, 16, {0, 64}, 1},
      // 16 bytes at 0 and 128: words 0-3 and 32-35, banks 0-3 twice each
      {"16-byte lanes, a row apart", h100, 16, {0, 128}, 2},
      // 3 banks of 1-byte cells: cells 0, 3, 6 all in bank 0
      {"3 banks, stride 3", WordLayout{1, 3, 1}, 1, {0, 3, 6}, 3},
      {"3 banks, stride 1", WordLayout{1, 3, 1}, 1, {0, 1, 2}, 1},
      // 3 banks: cells 0, 2, 4, 6 in banks 0, 2, 1, 0
      {"3 banks, stride 2", WordLayout{1, 3, 1}, 1, {0, 2, 4, 6}, 2},
      // the DMM: one 8-byte element per cell, 32 banks; cells 0 and 32 in bank 0
      {"dmm elements", WordLayout{8, 32, 1}, 8, {0, 256, 8}, 2},
      // one bank: every distinct cell is its own pass
      {"one bank", WordLayout{4, 1, 1}, 4, {0, 4, 8, 4, X}, 3},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.name));
    CHECK(conflict_degree(c.layout, c.width, c.addr) == c.degree);
  }
}

TEST_CASE("distinct_bank_words: the words each bank serves, sorted, each once") {
  // words 0 (bank 0), 32 (bank 0, row 1), 1 (bank 1), 0 again (multicast), an idle lane
  std::vector<BankWord> words = {{9, 9}};  // replaced, not appended to
  const std::vector<std::uint64_t> addr = {128, 0, 4, X, 0};
  distinct_bank_words(WordLayout{4, 32, 1}, 4, addr, words);
  CHECK(words == std::vector<BankWord>{{0, 0}, {0, 1}, {1, 0}});
  std::vector<BankWord> touched;
  for_each_bank_word(WordLayout{4, 32, 1}, 16, 124, [&](const BankWord& w) { touched.push_back(w); });
  CHECK(touched == std::vector<BankWord>{{31, 0}, {0, 1}, {1, 1}, {2, 1}});  // words 31, 32, 33, 34
}

TEST_CASE("sm90::phase_degree equals the definition on every width and phase the sm90 rules form") {
  // The phases of rules 1-3: 128 bytes of lane data (unpaired_phase_lanes),
  // twice that for paired 8- and 16-byte loads, and the half warps a
  // merged 8-byte load is counted by; within each, random lanes idle.
  std::mt19937_64 rng(20261201);
  unsigned compared = 0;
  for (unsigned width : {1u, 2u, 4u, 8u, 16u}) {
    const unsigned unpaired = unpaired_phase_lanes(sm90::kPhaseBytes, width, sm90::kLanes);
    std::vector<unsigned> sizes = {unpaired};
    if (width > 4) sizes.push_back(2 * unpaired);
    if (width == 8) sizes.push_back(16);
    for (unsigned size : sizes)
      for (unsigned first = 0; first < 32; first += size)
        for (int rep = 0; rep < 300; ++rep) {
          std::vector<std::uint64_t> a(32);
          const std::uint64_t window = rep % 3 == 0 ? 8 : rep % 3 == 1 ? 64 : 4096;  // in widths; small ones multicast
          for (auto& x : a) x = (rng() % window) * width;
          if (rep % 5 == 0)
            for (unsigned l = 0; l < 32; ++l) a[l] = (rep / 5 % 40) * width * l;  // strides 0..39 widths
          std::uint32_t lanes = sm90::lane_range(first, size);
          if (rep % 2) lanes &= static_cast<std::uint32_t>(rng());
          std::vector<std::uint64_t> phase;
          for (unsigned l = 0; l < 32; ++l)
            if (lanes & sm90::lane_bit(l)) phase.push_back(a[l]);
          CAPTURE(width);
          CAPTURE(size);
          CAPTURE(first);
          const std::uint32_t want = conflict_degree(WordLayout{sm90::kWordBytes, sm90::kBanks, 1}, width, phase);
          REQUIRE(sm90::phase_degree(a.data(), lanes, width) == want);
          // The GPU's addresses are 32-bit: the same answer.
          std::vector<std::uint32_t> narrow(a.begin(), a.end());
          REQUIRE(sm90::phase_degree(narrow.data(), lanes, width) == want);
          ++compared;
        }
  }
  MESSAGE(compared << " phases compared");
}

}  // namespace conflict_degree_test
