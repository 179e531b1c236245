// Global-memory cost of a warp request, against counts worked out by hand
// from the definitions (32-byte sectors, 128-byte lines, Karsin's aligned
// pages of w elements) and against a brute-force byte walk on random warps.
#include "model/global_access.hpp"

#include <doctest/doctest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <vector>

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace global_access_test {

using namespace bankcheck;

namespace {

GlobalCost cost_of(unsigned width, const std::vector<std::uint64_t>& addr, GlobalGeometry g = {}) {
  return global_cost(g, WarpRequest{Op::load, width, addr});
}

std::vector<std::uint64_t> strided(std::uint64_t base, std::uint64_t stride_bytes, unsigned lanes = 32) {
  std::vector<std::uint64_t> a(lanes);
  for (unsigned l = 0; l < lanes; ++l) a[l] = base + l * stride_bytes;
  return a;
}

}  // namespace

TEST_CASE("hand-counted warps") {
  struct Case {
    const char* what;
    unsigned width;
    std::vector<std::uint64_t> addr;
    std::uint64_t sectors, ideal, lines, pages;
  };
  const Case cases[] = {
      // 32 lanes x 4 bytes from 0: bytes 0..127 = 4 sectors, 1 line, 1 page of 32 words
      {"aligned words", 4, strided(0, 4), 4, 4, 1, 1},
      // shifted by one word: bytes 4..131 = sectors 0..4, lines 0..1, pages 0..1 (Karsin: "two pages")
      {"misaligned words", 4, strided(4, 4), 5, 4, 2, 2},
      // stride 2 words: bytes 0..251 in 8-byte steps, every sector 0..7 touched, 2 lines, pages 0..1
      {"stride 2", 4, strided(0, 8), 8, 4, 2, 2},
      // stride 32 words: one word per line, 32 sectors, 32 lines, 32 pages
      {"stride 32", 4, strided(0, 128), 32, 4, 32, 32},
      // broadcast: one word, 1 sector, ideal 1
      {"broadcast", 4, std::vector<std::uint64_t>(32, 64), 1, 1, 1, 1},
      // 16-byte lanes contiguous: 512 bytes = 16 sectors, 4 lines, 1 page (32 x 16 bytes)
      {"16-byte contiguous", 16, strided(0, 16), 16, 16, 4, 1},
      // 8-byte lanes at 8-byte offset: bytes 8..263 = sectors 0..8, lines 0..2, pages 0..1
      {"8-byte misaligned", 8, strided(8, 8), 9, 8, 3, 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const GlobalCost g = cost_of(c.width, c.addr);
    CHECK(g.sectors == c.sectors);
    CHECK(g.ideal_sectors == c.ideal);
    CHECK(g.lines == c.lines);
    CHECK(g.pages == c.pages);
    CHECK(g.excess_sectors() == c.sectors - c.ideal);
  }
}

TEST_CASE("inactive lanes cost nothing; a warp with none costs zero") {
  std::vector<std::uint64_t> a(32, kInactive);
  CHECK(cost_of(4, a).sectors == 0);
  CHECK(cost_of(4, a).pages == 0);
  a[5] = 4096;
  const GlobalCost one = cost_of(4, a);
  CHECK(one.sectors == 1);
  CHECK(one.ideal_sectors == 1);
}

TEST_CASE("random warps equal a brute-force walk over their bytes") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const unsigned width = 1u << (rng() % 5);
    const unsigned span = 1u << (6 + rng() % 10);
    std::vector<std::uint64_t> a(32);
    std::set<std::uint64_t> sectors, lines, pages, bytes;
    for (auto& x : a) {
      if (rng() % 5 == 0) {
        x = kInactive;
        continue;
      }
      x = (rng() % span) / width * width;
      for (std::uint64_t b = x; b < x + width; ++b) {
        bytes.insert(b);
        sectors.insert(b / 32);
        lines.insert(b / 128);
        pages.insert(b / (32ull * width));
      }
    }
    const GlobalCost g = cost_of(width, a);
    CHECK(g.sectors == sectors.size());
    CHECK(g.lines == lines.size());
    CHECK(g.pages == pages.size());
    CHECK(g.ideal_sectors == (bytes.size() + 31) / 32);
  }
}

TEST_CASE("geometry outside the precondition is refused") {
  CHECK_THROWS_AS(global_cost({0, 128, 32}, WarpRequest{Op::load, 4, strided(0, 4)}), std::invalid_argument);
  CHECK_THROWS_AS(global_cost({32, 100, 32}, WarpRequest{Op::load, 4, strided(0, 4)}), std::invalid_argument);
}

}  // namespace global_access_test
