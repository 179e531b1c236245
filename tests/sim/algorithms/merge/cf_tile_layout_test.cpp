// CfTileLayout, the kernel's form of CF-Merge's layout ρ(A ∪ π(B)) (SPAA 2025,
// Sections 3.1-3.3): ρ permutes the used slots of a partial block; where w | E
// a whole tile is padded, and every slot then lies in the bank the paper's
// circular shift (CfLayout) gives it, no two slots on one; and a run
// of E slots (a thread's blocked keys in an in-block round) placed with
// Run::place lands where ρ puts each slot, for every E-aligned run, both
// directions, and w, E with d = 1, wE/d a power of two and not.
#include "sim/algorithms/merge/cf_tile_layout.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/algorithms/merge/cf_merge.hpp"

namespace cf_tile_layout_test {

using namespace bankcheck;

namespace {
/// ρ of a partial block of `total` slots: distinct block slots, all inside slots(total).
template <class Layout>
bool distinct_inside(int total) {
  Layout L;
  L.offset = 0; L.count = total; L.a_count = total / 3; L.total = total;
  std::vector<int> seen(Layout::slots(total), 0);
  for (int p = 0; p < total; ++p) {
    const int s = L.rho(p);
    if (s < 0 || s >= Layout::slots(total)) return false;
    ++seen[s];
  }
  return std::all_of(seen.begin(), seen.end(), [](int c) { return c <= 1; });
}
}  // namespace

TEST_CASE("CfTileLayout: ρ of a partial block is one-to-one into its slots") {
  for (int total : {1, 31, 32, 33, 100, 511, 512, 1000}) {
    CAPTURE(total);
    CHECK(distinct_inside<CfTileLayout<32, 16, false>>(total));  // shifted: slots(total) = total, a permutation
    CHECK(CfTileLayout<32, 16, false>::slots(total) == total);
    CHECK(distinct_inside<CfTileLayout<32, 32, false>>(total));  // padded
    CHECK(distinct_inside<CfTileLayout<16, 16, false>>(total));
  }
}

namespace {
/// Every group of m threads (m = 2 .. threads) at every offset of a whole tile
/// of `threads` x E slots, every E-aligned run in it, ascending and descending:
/// base + place(i) equals ρ(p0 + s*i). Returns the runs that differ.
template <int kW, int kE>
int runs_unlike_rho(int threads) {
  const int total = threads * kE;
  int wrong = 0;
  for (int m = 2; m <= threads; m *= 2)
    for (int start = 0; start < total; start += m * kE) {
      CfTileLayout<kW, kE, true> L;
      L.offset = start; L.count = m * kE; L.a_count = m / 2 * kE; L.total = total;
      for (int lo = 0; lo < L.count; lo += kE)
        for (int s : {1, -1}) {
          const int p0 = s > 0 ? lo : lo + kE - 1;
          const auto run = L.run(p0, s);
          bool same = true;
          for (int i = 0; i < kE; ++i) same = same && run.base + run.place(i) == L.rho(p0 + s * i);
          wrong += same ? 0 : 1;
        }
    }
  return wrong;
}
}  // namespace

TEST_CASE("CfTileLayout::Run: a thread's E-aligned run lands where ρ puts each slot") {
  CHECK(runs_unlike_rho<32, 32>(64) == 0);  // 4-byte keys, E = 32: d = w, padded
  CHECK(runs_unlike_rho<32, 16>(64) == 0);  // 4-byte keys, E = 16: wE/d = 32, two threads a partition
  CHECK(runs_unlike_rho<16, 16>(64) == 0);  // 8-byte keys (half-warps), E = 16: padded
  CHECK(runs_unlike_rho<16, 8>(64) == 0);
  CHECK(runs_unlike_rho<32, 12>(64) == 0);  // wE/d = 96, not a power of two
  CHECK(runs_unlike_rho<32, 24>(64) == 0);  // wE/d = 96, E = 24
  CHECK(runs_unlike_rho<32, 15>(64) == 0);  // d = 1: ρ the identity
  CHECK(runs_unlike_rho<8, 6>(16) == 0);
}

TEST_CASE("CfTileLayout: a padded whole tile puts every slot in the paper's bank (w | E)") {
  // the paper's ρ (CfLayout, runtime w and E) against the padded one: the same bank for every
  // logical slot, distinct block slots inside slots(total); only w | E pads
  auto same_banks = [](auto tile_layout, int w, int E, int threads) {
    CfLayout L;
    L.w = w; L.E = E; L.threads = threads; L.a_count = threads * E / 2;
    const int total = threads * E;
    tile_layout.offset = 0; tile_layout.count = total; tile_layout.a_count = L.a_count; tile_layout.total = total;
    std::vector<int> seen(tile_layout.slots(total), 0);
    bool same = true;
    for (int p = 0; p < total; ++p) {
      const int s = tile_layout.rho(p);
      if (s < 0 || s >= tile_layout.slots(total)) return false;
      ++seen[s];
      same = same && s % w == L.rho(p) % w;
    }
    return same && std::all_of(seen.begin(), seen.end(), [](int c) { return c <= 1; });
  };
  CHECK(CfTileLayout<32, 32, true>::kPadded);
  CHECK(CfTileLayout<32, 32, true>::slots(8192) == 8448);
  CHECK(same_banks(CfTileLayout<32, 32, true>{}, 32, 32, 64));
  CHECK(same_banks(CfTileLayout<16, 16, true>{}, 16, 16, 64));
  CHECK(same_banks(CfTileLayout<32, 64, true>{}, 32, 64, 64));
  CHECK(same_banks(CfTileLayout<16, 32, true>{}, 16, 32, 64));
  // not padded: d < w (the shift is l mod d, not a padding), d = 1
  CHECK_FALSE(CfTileLayout<32, 16, true>::kPadded);
  CHECK_FALSE(CfTileLayout<32, 15, true>::kPadded);
  CHECK(CfTileLayout<32, 16, true>::slots(4096) == 4096);
}

namespace {
/// Every round's slot of CfTileLayout::gather against Algorithm 1 written out
/// (round j reads A_i[t] if t = (j - k) mod E < |A_i|, else B_i[(k - j - 1) mod E],
/// at ρ of its logical slot) and against the bytes of gather(...).scaled(bytes),
/// for every group of a whole tile, every diagonal of a thread, every split a_i
/// the merge path can give there and every |A_i|. Returns the rounds that differ.
template <int kW, int kE>
int gather_rounds_unlike_rho(int threads) {
  auto mod = [](int x, int m) { return ((x % m) + m) % m; };
  const int total = threads * kE;
  int wrong = 0;
  for (int m = 2; m <= threads; m *= 2)
    for (int start = 0; start < total; start += m * kE)
      for (int a_count = 0; a_count <= m * kE; a_count += kE) {  // a pass's A may be any multiple of E
        CfTileLayout<kW, kE, true> L;
        L.offset = start; L.count = m * kE; L.a_count = a_count; L.total = total;
        const int b_count = L.count - a_count;
        for (int diag = 0; diag < L.count; diag += kE)
          for (int a_i = std::max(0, diag - b_count); a_i <= std::min(diag, a_count); ++a_i)
            for (int a_len = 0; a_len <= kE; ++a_len) {
              const int b_i = diag - a_i, b_len = kE - a_len;
              if (a_i + a_len > a_count || b_i + b_len > b_count) continue;
              const auto g = L.gather(a_i, a_len, diag);
              const auto g4 = g.scaled(4);
              const int k = a_i % kE;
              for (int j = 0; j < kE; ++j) {
                const int t = mod(j - k, kE);
                const int logical = t < a_len ? a_i + t : L.b_slot(b_i + mod(k - j - 1, kE));
                const bool same = g.slot(j) == L.rho(logical) && g4.base(j) + 4 * j == 4 * L.rho(logical);
                wrong += same ? 0 : 1;
              }
            }
      }
  return wrong;
}
}  // namespace

TEST_CASE("CfTileLayout::gather: every round's slot is ρ of Algorithm 1's slot (padded whole tiles)") {
  CHECK(gather_rounds_unlike_rho<32, 32>(16) == 0);  // 4-byte keys, E = 32
  CHECK(gather_rounds_unlike_rho<16, 16>(16) == 0);  // 8-byte keys, E = 16
  CHECK(gather_rounds_unlike_rho<16, 32>(8) == 0);   // 8-byte keys, E = 32
  CHECK(gather_rounds_unlike_rho<32, 64>(4) == 0);   // E = 64: a 64-bit mask
  CHECK(gather_rounds_unlike_rho<8, 8>(16) == 0);
  CHECK(gather_rounds_unlike_rho<4, 12>(8) == 0);    // E not a power of two
}

}  // namespace cf_tile_layout_test
