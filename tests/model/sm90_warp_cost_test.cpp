// Tests of model/sm90_warp_cost.hpp, the sm90 rules the CPU and the GPU
// share: on enumerated and random requests of every op and width, it must
// equal a brute-force reading of docs/bank-model.md's rules 1-7 (sets of
// bank words per bank, written here independently), and BankModel::cost,
// SIMD shortcut included, must equal it.
#include "model/sm90_warp_cost.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "model/bank_model.hpp"

using namespace bankcheck;

namespace {

using Lanes = std::vector<std::uint64_t>;  // 32 addresses, kInactive for idle lanes

std::set<std::uint64_t> words_of(std::uint64_t addr, unsigned width) {
  std::set<std::uint64_t> w;
  for (std::uint64_t b = addr; b < addr + width; ++b) w.insert(b / 4);
  return w;
}

/// Rules 1-3: the most distinct words one bank serves among lanes [first, last).
std::uint64_t words_degree(const Lanes& a, unsigned width, unsigned first, unsigned last) {
  std::map<std::uint64_t, std::set<std::uint64_t>> by_bank;
  for (unsigned l = first; l < last; ++l)
    if (a[l] != kInactive)
      for (std::uint64_t w : words_of(a[l], width)) by_bank[w % 32].insert(w);
  std::size_t d = 0;
  for (const auto& [bank, words] : by_bank) d = std::max(d, words.size());
  return d;
}

/// Rule 4: the most active lanes that touch one bank among lanes [first, last).
std::uint64_t lanes_degree(const Lanes& a, unsigned width, unsigned first, unsigned last) {
  std::map<std::uint64_t, std::set<unsigned>> by_bank;
  for (unsigned l = first; l < last; ++l)
    if (a[l] != kInactive)
      for (std::uint64_t w : words_of(a[l], width)) by_bank[w % 32].insert(l);
  std::size_t d = 0;
  for (const auto& [bank, lanes] : by_bank) d = std::max(d, lanes.size());
  return d;
}

bool pairs_with(const Lanes& a, unsigned partner) {
  for (unsigned l = 0; l < 32; ++l)
    if (a[l] != kInactive && a[l ^ partner] != kInactive && a[l] != a[l ^ partner]) return false;
  return true;
}

struct Expected {
  std::uint64_t wavefronts = 0, ideal = 0;
  bool modelled = true;
};

/// Rule 6b read literally, for a copy without sources (lane l reads the
/// 16 bytes at 16*l): whole sectors move and each row is filled from one
/// line, then one wavefront per row written; otherwise not modelled.
Expected sector_copy(const Lanes& dst) {
  std::map<std::uint64_t, std::set<std::uint64_t>> dst_sectors_of_source, source_sectors_of_dst, lines_of_row;
  std::map<std::uint64_t, unsigned> lanes_of_source_sector;
  std::set<std::uint64_t> rows, written;
  Expected e;
  for (unsigned l = 0; l < 32; ++l) {
    if (dst[l] == kInactive) continue;
    const std::uint64_t src = 16 * std::uint64_t{l};
    if (!written.insert(dst[l]).second) return {0, 0, false};  // two lanes, one destination
    dst_sectors_of_source[src / 32].insert(dst[l] / 32);
    source_sectors_of_dst[dst[l] / 32].insert(src / 32);
    lines_of_row[dst[l] / 128].insert(src / 128);
    ++lanes_of_source_sector[src / 32];
    rows.insert(dst[l] / 128);
  }
  for (const auto& [sector, to] : dst_sectors_of_source)
    if (to.size() > 1) return {0, 0, false};
  for (const auto& [sector, from] : source_sectors_of_dst)
    if (from.size() > 1) return {0, 0, false};
  for (const auto& [row, lines] : lines_of_row)
    if (lines.size() > 1) return {0, 0, false};
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint64_t src = 16 * std::uint64_t{l};
    if (dst[l] != kInactive && lanes_of_source_sector[src / 32] == 1 && (src % 32 != 0 || src % 128 != dst[l] % 128))
      return {0, 0, false};
  }
  e.wavefronts = rows.size();
  e.ideal = (16 * written.size() + 127) / 128;  // the fewest 128-byte wavefronts for its bytes (ncu's ideal)
  return e;
}

/// docs/bank-model.md, read literally.
Expected brute_force(Op op, unsigned width, const Lanes& a, Counter counter) {
  Expected e;
  // cpasync.cg.notp0 (operand !P0): rule 6b while every lane reads, as without sources here.
  if (op == Op::cpasync_cg || op == Op::cpasync_cg_notp0) return width == 16 ? sector_copy(a) : Expected{0, 0, false};
  if (op == Op::cpasync_unmeasured || op == Op::unmeasured) return {0, 0, false};  // a form no probe measured
  if (op == Op::wgmma)  // rule 8 needs the operands' sizes; a record without lanes costs nothing
    return std::all_of(a.begin(), a.end(), [](std::uint64_t x) { return x == kInactive; }) ? Expected{}
                                                                                             : Expected{0, 0, false};
  if (op == Op::cpasync_cg_zfill) {  // rule 6c (predicate operand P0): a 16-byte store of its destinations
    if (width != 16) return {0, 0, false};
    for (std::uint64_t x : a)
      if (x != kInactive && x % 16 != 0) return {0, 0, false};
    for (unsigned first = 0; first < 32; first += 8)  // lanes on one destination changing the count: declined
      if (lanes_degree(a, 16, first, first + 8) != words_degree(a, 16, first, first + 8)) return {0, 0, false};
  }
  if (width == 12) {
    for (std::uint64_t x : a)
      if (x != kInactive && x % 16 != 0) return {0, 0, false};
    width = 16;
  }
  if (op == Op::atom_cast && width != 4 && width != 8) return {0, 0, false};  // rule 4: the CAS loops' widths
  const bool as_store = op != Op::load;
  unsigned group = width <= 4 ? 32 : 128 / width;  // rule 2: 128 bytes of lane data per phase
  if (!as_store && width >= 8 && (pairs_with(a, 1) || pairs_with(a, 2))) group *= 2;  // rule 3
  for (unsigned first = 0; first < 32; first += group) {
    const unsigned last = first + group;
    std::uint64_t d = 0, repeat = 1;
    switch (op) {
      case Op::atom_cas: repeat = 2; [[fallthrough]];
      case Op::atom: d = lanes_degree(a, width, first, last); break;
      case Op::atom_cast:  // rule 4: two per phase with a lane; a 4-byte phase with a conflict unmodelled
        repeat = 2;
        d = words_degree(a, width, first, last);
        if (width == 4 && d > 1) return {0, 0, false};
        d = d > 0 ? 1 : 0;
        break;
      default:
        d = words_degree(a, width, first, last);
        if (op == Op::load && width == 8 && group == 32 && d > 1 && counter == Counter::instruction)
          d = words_degree(a, width, 0, 16) + words_degree(a, width, 16, 32);
    }
    e.wavefronts += repeat * d;
    e.ideal += d > 0 ? repeat : 0;
  }
  return e;
}

std::uint32_t active_mask(const Lanes& a) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l) m |= a[l] != kInactive ? 1u << l : 0u;
  return m;
}

/// Requests of every shape: random windows, strides, broadcasts, pairs, partial warps.
std::vector<Lanes> requests(unsigned width, std::mt19937_64& rng) {
  const unsigned align = access_alignment(width);
  std::vector<Lanes> out;
  auto make = [&](auto&& addr_of) {
    Lanes a(32);
    for (unsigned l = 0; l < 32; ++l) a[l] = addr_of(l);
    out.push_back(a);
  };
  for (std::uint64_t window : {1u, 4u, 33u, 300u, 12288u})
    for (int rep = 0; rep < 30; ++rep) make([&](unsigned) { return 1024 + (rng() % window) * align; });
  for (std::uint64_t stride = 0; stride <= 40; ++stride) make([&](unsigned l) { return 4096 + l * stride * align; });
  for (unsigned partner : {1u, 2u, 3u, 16u})
    for (int rep = 0; rep < 20; ++rep) {
      Lanes a(32);
      for (unsigned l = 0; l < 32; ++l) a[l] = (rng() % (rep % 2 ? 64 : 4096)) * align;
      for (unsigned l = 0; l < 32; ++l) a[l ^ partner] = a[l];
      out.push_back(a);
    }
  for (int rep = 0; rep < 60; ++rep) {
    const std::uint64_t mask = rng();
    make([&](unsigned l) { return (mask >> l) & 1 ? (rng() % (rep % 2 ? 16 : 4096)) * align : kInactive; });
  }
  make([&](unsigned) { return kInactive; });
  make([&](unsigned l) { return l % 2 ? 12 * std::uint64_t{align} : kInactive; });
  if (width == 12) make([&](unsigned l) { return 16 * std::uint64_t{l}; });  // aligned: the 16-byte instruction
  return out;
}

}  // namespace

TEST_CASE("sm90 rules equal the brute-force reading of docs/bank-model.md for every op and width") {
  std::mt19937_64 rng(20261124);
  const BankModel model = make_preset("sm90");
  unsigned compared = 0;
  for (unsigned op_number = 0; op_number < kOpCount; ++op_number) {
    const Op op = static_cast<Op>(op_number);
    if (is_global(op)) continue;  // global loads and stores go to the sector model (model/global_access.hpp)
    for (unsigned width : {1u, 2u, 4u, 8u, 12u, 16u}) {
      if (!is_valid_access(op, width)) continue;
      CAPTURE(op_name(op));
      CAPTURE(width);
      for (const Lanes& a : requests(width, rng)) {
        for (Counter counter : {Counter::instruction, Counter::kernel}) {
          const Expected want = brute_force(op, width, a, counter);
          const sm90::WarpCost got = sm90::warp_cost(op, width, a.data(), active_mask(a), counter);
          REQUIRE(got.modelled == want.modelled);
          REQUIRE(got.wavefronts == want.wavefronts);
          REQUIRE(got.ideal == want.ideal);
          // The CPU model, with its SIMD shortcut, gives the shared code's answer.
          const WarpRequest r{op, width, a};
          const RequestCost cpu = counter == Counter::instruction ? model.cost(r) : model.kernel_counter_cost(r);
          REQUIRE(cpu.modelled == got.modelled);
          REQUIRE(cpu.wavefronts == got.wavefronts);
          REQUIRE(cpu.ideal == got.ideal);
          REQUIRE(cpu.degree == got.degree);
          ++compared;
        }
      }
    }
  }
  MESSAGE(compared << " requests compared");
}

TEST_CASE("sm90 rules by hand: the worked examples of docs/bank-model.md") {
  Lanes column(32), broadcast(32, 64), pairs(32), half_conflict(32, kInactive);
  for (unsigned l = 0; l < 32; ++l) column[l] = 128 * l;             // every lane in bank 0: 32-way
  for (unsigned l = 0; l < 32; ++l) pairs[l] = 8 * (l / 2);          // lanes 2k, 2k+1 share an 8-byte value
  for (unsigned l = 0; l < 16; ++l) half_conflict[l] = 256 * (l % 2);  // two words of bank 0 in lanes 0-15
  const std::uint32_t all = ~0u;
  CHECK(sm90::warp_cost(Op::load, 4, column.data(), all).wavefronts == 32);
  CHECK(sm90::warp_cost(Op::store, 8, broadcast.data(), all).wavefronts == 2);  // half warps, even broadcast
  CHECK(sm90::warp_cost(Op::load, 8, broadcast.data(), all).wavefronts == 1);   // pairs up: one phase
  CHECK(sm90::warp_cost(Op::load, 16, broadcast.data(), all).wavefronts == 2);
  CHECK(sm90::warp_cost(Op::load, 8, pairs.data(), all).wavefronts == 1);
  CHECK(sm90::warp_cost(Op::atom, 4, broadcast.data(), all).wavefronts == 32);  // no multicast for atomics
  CHECK(sm90::warp_cost(Op::atom_cas, 4, broadcast.data(), all).wavefronts == 64);
  CHECK(sm90::warp_cost(Op::atom_popc, 4, broadcast.data(), all).wavefronts == 1);
  CHECK(sm90::warp_cost(Op::store, 4, half_conflict.data(), 0xFFFFu).wavefronts == 2);
  CHECK_FALSE(sm90::warp_cost(Op::cpasync_cg, 16, column.data(), all).modelled);  // sectors split over rows (6b)
  CHECK_FALSE(sm90::warp_cost(Op::load, 12, pairs.data(), all).modelled);          // 8-byte aligned only
  CHECK(sm90::warp_cost(Op::load, 4, column.data(), 0u).wavefronts == 0);
  CHECK(sm90::rule(Op::ldsm, 16) == AccessRule::as_store);
  CHECK(sm90::rule(Op::load, 3) == AccessRule::unmodelled);
}

TEST_CASE("wgmma's operands: one wavefront per 128 bytes read by the warpgroup (rule 8)") {
  // Expected counts measured on the H100 (validate/results/h100-2026-11-26b/hopper/wgmma.csv): HGMMA.64x8x16
  // with both operands in shared memory 18 per warpgroup, with A from registers 2; 64x256x16 80.
  auto cost = [](std::uint64_t a_size, std::uint64_t b_size, bool a_shared) {
    std::uint64_t addr[32], sizes[32];
    std::fill(addr, addr + 32, kInactive);
    std::fill(sizes, sizes + 32, kInactive);
    std::uint32_t active = 0;
    if (a_shared) {
      addr[0] = 1024;
      sizes[0] = a_size;
      active |= 1u;
    }
    addr[1] = 5120;
    sizes[1] = b_size;
    active |= 2u;
    return sm90::warp_cost(Op::wgmma, 16, addr, active, Counter::instruction, sizes);
  };
  CHECK(cost(2048, 256, true).wavefronts == 18);
  CHECK(cost(2048, 256, true).ideal == 18);
  CHECK(cost(0, 256, false).wavefronts == 2);
  CHECK(cost(2048, 8192, true).wavefronts == 80);
  CHECK_FALSE(cost(2048, 0, true).modelled);  // the sanitizer's sizes 0 for QGMMA.64x8x32
  std::uint64_t none[32];
  std::fill(none, none + 32, kInactive);
  const auto follower = sm90::warp_cost(Op::wgmma, 16, none, 0u, Counter::instruction, none);
  CHECK(follower.modelled);
  CHECK(follower.wavefronts == 0);
  CHECK_FALSE(sm90::warp_cost(Op::wgmma, 16, none, 2u, Counter::instruction, static_cast<const std::uint64_t*>(nullptr)).modelled);
}

TEST_CASE("atom.cast: two wavefronts per phase with an active lane, whatever the addresses (rule 4)") {
  // Expected from docs/bank-model.md read literally: 32 lanes on one word: one phase, twice: 2 (the CAS
  // loops of validate/library/atomics64.cu measured 2 per execution for float); 8-byte lanes on 16
  // distinct consecutive doublewords: two half-warp phases, twice: 4; 8-byte lanes all in one bank pair
  // (16-way in a store) still 4, the H200's count for every execution of fid64's one-bank loops; 4-byte
  // lanes in one bank (a conflict never measured for the 4-byte form): not modelled.
  std::uint64_t one[32], pairs[32], bank8[32], bank4[32];
  for (unsigned l = 0; l < 32; ++l) {
    one[l] = 1024;
    pairs[l] = 1024 + 8 * (l / 2);
    bank8[l] = 1024 + 128 * l;
    bank4[l] = 1024 + 128 * l;
  }
  const auto a = sm90::warp_cost(Op::atom_cast, 4, one, 0xFFFFFFFFu);
  CHECK(a.wavefronts == 2);
  CHECK(a.ideal == 2);
  const auto b = sm90::warp_cost(Op::atom_cast, 8, pairs, 0xFFFFFFFFu);
  CHECK(b.wavefronts == 4);
  CHECK(b.ideal == 4);
  CHECK(sm90::warp_cost(Op::atom_cast, 8, bank8, 0xFFFFFFFFu).wavefronts == 4);
  CHECK(sm90::warp_cost(Op::atom_cast, 8, bank8, 0x0000FFFFu).wavefronts == 2);
  CHECK_FALSE(sm90::warp_cost(Op::atom_cast, 4, bank4, 0xFFFFFFFFu).modelled);
  CHECK(sm90::warp_cost(Op::atom_cas, 4, one, 0xFFFFFFFFu).wavefronts == 64);  // ATOMS.CAS: each lane its pass, twice
}
