// Tests of model/simd_degree.hpp: every SIMD path this CPU can run must give
// the conflict degree as model/conflict_degree.hpp defines it (tested on
// hand-counted phases in conflict_degree_test.cpp), on random, strided,
// multicast, partial and Kepler-style (two rows per bank word) requests, and
// sm90's shared scalar rules (model/sm90_warp_cost.hpp) where the geometry
// is sm90's; and must decline, rather than guess, where its assumptions do
// not hold.
#include "model/simd_degree.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "model/conflict_degree.hpp"
#include "model/sm90_warp_cost.hpp"
#include "tests/skip.hpp"
#include "model/warp_request.hpp"

using namespace bankcheck;

namespace {

/// The map's geometry as conflict_degree takes it: 2^cell_shift-byte cells,
/// bank_mask + 1 banks, word_row_bits naming the rows that share a word.
WordLayout word_layout(const CellKeyMap& map) {
  const int bank_bits = std::popcount(map.bank_mask);
  return WordLayout{std::uint64_t{1} << map.cell_shift, std::uint64_t{map.bank_mask} + 1,
                    (std::uint64_t{map.word_row_bits} >> bank_bits) + 1};
}

/// Requests of every shape the model meets, drawn from a fixed seed.
std::vector<std::vector<std::uint64_t>> requests(unsigned lanes, unsigned cell_shift, std::mt19937_64& rng) {
  std::vector<std::vector<std::uint64_t>> out;
  const std::uint64_t unit = std::uint64_t{1} << cell_shift;
  auto make = [&](auto&& addr_of) {
    std::vector<std::uint64_t> a(lanes);
    for (unsigned l = 0; l < lanes; ++l) a[l] = addr_of(l);
    out.push_back(a);
  };
  for (std::uint64_t window : {2u, 8u, 40u, 300u, 12288u, 1u << 20})  // cells; small windows multicast a lot
    for (int rep = 0; rep < 40; ++rep) make([&](unsigned) { return (rng() % window) * unit; });
  for (std::uint64_t stride = 0; stride <= 66; ++stride) make([&](unsigned l) { return 64 * unit + l * stride * unit; });
  for (int rep = 0; rep < 60; ++rep) {  // partial warps, with and without multicast
    const std::uint64_t mask = rng(), window = rep % 2 ? 16 : 4096;
    make([&](unsigned l) { return (mask >> l) & 1 ? (rng() % window) * unit : kInactive; });
  }
  // Evenly spaced cells that are not what they seem: descending, and
  // strides whose multiples wrap modulo 2^32 back onto an earlier cell.
  for (std::uint64_t stride : {1u, 3u, 32u, 33u, 96u})
    make([&](unsigned l) { return (100000 - l * stride) * unit; });
  for (unsigned bits : {27u, 28u, 29u, 31u})
    make([&](unsigned l) { return ((std::uint64_t{l} << bits) & 0xFFFFFFFFu) * unit; });
  // Random cells with copies planted: multicast inside the fullest banks.
  for (int rep = 0; rep < 80; ++rep) {
    std::vector<std::uint64_t> a(lanes);
    for (auto& x : a) x = (rng() % (rep % 2 ? 64 : 12288)) * unit;
    for (int copies = 0; copies < 1 + rep % 4; ++copies) a[rng() % lanes] = a[rng() % lanes];
    out.push_back(a);
  }
  make([&](unsigned) { return kInactive; });
  make([&](unsigned l) { return l == lanes - 1 ? 5 * unit : kInactive; });
  make([&](unsigned l) { return l % 2 ? 7 * unit : kInactive; });
  return out;
}

}  // namespace

TEST_CASE("every available SIMD path equals the definition where it applies") {
  std::mt19937_64 rng(20261122);
  unsigned compared = 0, compared_with_sm90 = 0;
  std::string paths;
  for (SimdPath path : available_simd_paths()) {
    if (path == SimdPath::none) continue;
    paths += std::string(simd_path_name(path)) + " ";
    for (unsigned bank_bits = 0; bank_bits <= 6; ++bank_bits)
      for (unsigned row_bits : {0u, 1u})  // Kepler's 4-byte mode: two rows share a bank word
        for (unsigned cell_shift : {0u, 2u, 3u})
          for (unsigned lanes : {1u, 7u, 16u, 31u, 32u}) {
            const CellKeyMap map{cell_shift, (1u << bank_bits) - 1, ((1u << row_bits) - 1) << bank_bits};
            const bool applies = path == SimdPath::avx512 || bank_bits <= 5;
            for (const auto& addr : requests(lanes, cell_shift, rng)) {
              const std::uint32_t got = simd_degree(addr.data(), lanes, map, path);
              CAPTURE(simd_path_name(path));
              CAPTURE(bank_bits);
              CAPTURE(row_bits);
              CAPTURE(cell_shift);
              CAPTURE(lanes);
              if (!applies) {
                CHECK(got == kNoSimdDegree);
                continue;
              }
              REQUIRE(got != kNoSimdDegree);  // in its domain a path must answer, not decline
              REQUIRE(got == conflict_degree(word_layout(map), 1, addr));  // one cell per lane: any width up to it
              if (cell_shift == 2 && bank_bits == 5 && row_bits == 0 && lanes == 32) {
                // sm90's geometry: the shortcut must agree with the rules the GPU runs too.
                std::uint32_t active = 0;
                for (unsigned l = 0; l < 32; ++l) active |= addr[l] != kInactive ? 1u << l : 0u;
                REQUIRE(got == sm90::phase_degree(addr.data(), active, 4));
                ++compared_with_sm90;
              }
              ++compared;
            }
          }
  }
  if (paths.empty()) {
    bankcheck::test::skip("no SIMD path to compare: this CPU lacks AVX2");
    return;
  }
  MESSAGE("SIMD paths tested on this CPU: " << paths << "; " << compared << " requests compared with the definition, "
                                            << compared_with_sm90 << " of them with model/sm90_warp_cost.hpp");
  // Every path of this CPU answered on every geometry in its domain, so both counts are known in advance:
  // a path that compared nothing (say, an empty request list) must not pass.
  CHECK(compared > 0);
  CHECK(compared_with_sm90 > 0);
  if (!simd_path_available(SimdPath::avx512)) MESSAGE("AVX-512 path not run: this CPU lacks AVX-512");
}

TEST_CASE("SIMD paths decline cells beyond 32 bits and absent paths, so the scalar path answers") {
  const std::vector<std::uint64_t> far(32, std::uint64_t{1} << 40);
  for (SimdPath path : {SimdPath::none, SimdPath::avx2, SimdPath::avx512})
    CHECK(simd_degree(far.data(), 32, CellKeyMap{}, path) == kNoSimdDegree);
  const std::vector<std::uint64_t> row(32, 0);
  CHECK(simd_degree(row.data(), 32, CellKeyMap{}, SimdPath::none) == kNoSimdDegree);
  for (SimdPath path : {SimdPath::avx2, SimdPath::avx512})
    if (!simd_path_available(path)) CHECK(simd_degree(row.data(), 32, CellKeyMap{}, path) == kNoSimdDegree);
  CHECK(simd_degree(row.data(), 33, CellKeyMap{}, best_simd_path()) == kNoSimdDegree);
}

TEST_CASE("the path replay runs is one this CPU has, chosen once") {
  const SimdPath chosen = best_simd_path();
  const std::vector<SimdPath> paths = available_simd_paths();
  CHECK(std::find(paths.begin(), paths.end(), chosen) != paths.end());
  CHECK(best_simd_path() == chosen);  // timed once per process, not per call
  // Where a SIMD path exists, one is chosen (BANKCHECK_SIMD=none aside).
  if (std::getenv("BANKCHECK_SIMD") == nullptr && paths.size() > 1) CHECK(chosen != SimdPath::none);
}
