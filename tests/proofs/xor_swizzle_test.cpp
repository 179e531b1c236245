#include "proofs/xor_swizzle.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "model/bank_model.hpp"

using namespace bankcheck;
using namespace bankcheck::proofs;

TEST_CASE("GF(2) rank by hand") {
  Gf2Matrix m(3, 3);
  m << 1, 1, 0, 0, 1, 1, 1, 0, 1;  // row 3 = row 1 + row 2 over GF(2)
  CHECK(gf2_rank(m) == 2);
  CHECK(gf2_rank(Gf2Matrix::Identity(5, 5)) == 5);
  CHECK(gf2_rank(Gf2Matrix::Zero(4, 2)) == 0);
}

TEST_CASE("a map that is not GF(2)-affine is refused") {
  CHECK_THROWS_AS(fit_gf2_affine([](std::uint64_t l) { return l * 3; }, 3, 8), std::invalid_argument);
}

TEST_CASE("rank formula = BankModel on tile columns, plain and swizzled") {
  for (unsigned wb = 0; wb <= 5; ++wb)
    for (unsigned Wb = 0; Wb <= 7; ++Wb) {
      const std::uint64_t w = 1u << wb, W = 1u << Wb;
      const BankModel model = make_preset("dmm", static_cast<unsigned>(w));
      for (int swz = 0; swz < 2; ++swz)
        for (std::uint64_t col = 0; col < W; col += 1 + W / 8) {
          auto addr = [&](std::uint64_t l) { return l * W + (swz ? col ^ (l % W) : col); };
          const XorDegree d = xor_degree(fit_gf2_affine(addr, wb, wb + Wb + 1), wb);
          std::vector<std::uint64_t> bytes(w);
          for (std::uint64_t l = 0; l < w; ++l) bytes[l] = addr(l) * 4;
          CHECK(model.cost(WarpRequest{Op::load, 4, bytes}).wavefronts == d.degree);
          // By hand: plain columns stack min(w, W... ) lanes per bank: w / max(1, w / W)
          if (!swz) CHECK(d.degree == (W >= w ? w : W));
          if (swz && W >= w) CHECK(d.degree == 1);
        }
    }
}
