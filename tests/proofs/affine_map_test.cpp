#include "proofs/affine_map.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "model/bank_model.hpp"

using namespace bankcheck;
using namespace bankcheck::proofs;

namespace {
// Independent count: the most distinct addresses in one bank.
std::uint64_t brute_degree(const AffineAccess& m, std::int64_t j) {
  std::vector<std::vector<std::int64_t>> bank(m.banks);
  for (std::uint64_t l = 0; l < m.lanes; ++l) {
    const std::int64_t x = m.a * static_cast<std::int64_t>(l) + m.b * j + m.c;
    auto& v = bank[static_cast<std::size_t>(nt::mod(x, static_cast<std::int64_t>(m.banks)))];
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  }
  std::uint64_t best = 0;
  for (const auto& v : bank) best = std::max<std::uint64_t>(best, v.size());
  return best;
}
}  // namespace

TEST_CASE("SPAA Figure 1: w = 12, stride 5 is conflict-free, stride 6 is 6-way") {
  CHECK(affine_degree_square(5, 12) == 1);
  CHECK(affine_degree_square(6, 12) == 6);
  CHECK(affine_degree_square(0, 12) == 1);  // one address, multicast
}

TEST_CASE("closed form = brute force for every a, lanes, banks up to 40") {
  for (std::uint64_t banks = 1; banks <= 40; ++banks)
    for (std::uint64_t lanes = 1; lanes <= 40; lanes += 3)
      for (std::int64_t a = -9; a <= 50; ++a) {
        const AffineAccess m{a, 7, 3, lanes, banks};
        CHECK(affine_degree(m).degree == brute_degree(m, 2));
      }
}

TEST_CASE("closed form = BankModel replay (dmm and sm90) on sampled points") {
  std::mt19937_64 rng(7);
  for (int s = 0; s < 300; ++s) {
    const unsigned w = static_cast<unsigned>(1 + rng() % 64);
    const std::int64_t a = static_cast<std::int64_t>(rng() % 200), b = static_cast<std::int64_t>(rng() % 9);
    const std::int64_t c = static_cast<std::int64_t>(rng() % 100), j = static_cast<std::int64_t>(rng() % 17);
    std::vector<std::uint64_t> bytes(w);
    for (unsigned l = 0; l < w; ++l) bytes[l] = static_cast<std::uint64_t>(a * l + b * j + c) * 4;
    const RequestCost dmm = make_preset("dmm", w).cost(WarpRequest{Op::load, 4, bytes});
    CHECK(dmm.wavefronts == affine_degree({a, b, c, w, w}).degree);
    if (w == 32) {
      const RequestCost sm90 = make_preset("sm90", 32).cost(WarpRequest{Op::load, 4, bytes});
      CHECK(sm90.wavefronts == affine_degree_square(a, 32));
    }
  }
}
