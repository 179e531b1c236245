// The GF(2)-affine fit of an instruction's addresses. What is affine and
// what is not is checked against a fact of GF(2) independent of the fit: an
// affine f satisfies f(a) ^ f(b) ^ f(c) = f(a ^ b ^ c) for every three
// samples, so a triple that breaks it proves no affine map exists; and a
// fit that holds must predict every sample it was given.
#include "proofs/affine_address_fit.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <vector>

namespace affine_address_fit_test {

using namespace bankcheck::proofs;

namespace {
using Address = std::function<std::uint64_t(std::uint32_t lane, std::uint32_t warp)>;

AffineAddressFit fit_of(const Address& f, std::uint32_t warps) {
  AffineAddressFit fit;
  for (std::uint32_t w = 0; w < warps; ++w)
    for (std::uint32_t l = 0; l < 32; ++l) fit.add({l, w, 0, 0}, f(l, w));
  return fit;
}

/// Whether some three samples break f(a) ^ f(b) ^ f(c) == f(a ^ b ^ c): then no affine map exists.
bool breaks_affinity(const Address& f, std::uint32_t warps) {
  std::map<std::uint64_t, std::uint64_t> at;  // packed (lane, warp) -> address
  for (std::uint32_t w = 0; w < warps; ++w)
    for (std::uint32_t l = 0; l < 32; ++l) at[l | std::uint64_t{w} << 5] = f(l, w);
  for (const auto& [a, fa] : at)
    for (const auto& [b, fb] : at)
      for (const auto& [c, fc] : at) {
        const auto d = at.find(a ^ b ^ c);
        if (d != at.end() && (fa ^ fb ^ fc) != d->second) return true;
      }
  return false;
}
}  // namespace

TEST_CASE("affine fit: a row-major 32x32 fp32 tile's column read (lane x 128 + warp x 4 from 8192)") {
  const Address column = [](std::uint32_t l, std::uint32_t w) { return 8192u + l * 128u + w * 4u; };
  const AffineAddressFit fit = fit_of(column, 32);
  REQUIRE(fit.fits());
  CHECK(fit.samples() == 1024);
  for (std::uint32_t w = 0; w < 32; ++w)
    for (std::uint32_t l = 0; l < 32; ++l) CHECK(fit.predict({l, w, 0, 0}) == column(l, w));
  for (unsigned k = 0; k < 5; ++k) {
    CHECK(fit.column(1 + k) == (128u << k));  // lane bit k
    CHECK(fit.column(6 + k) == (4u << k));    // warp bit k
  }
  CHECK(!fit.column(11).has_value());  // the iteration never varied: undetermined, not zero
  CHECK(fit.text() == "0x2000 ^ lane[0:0x80 1:0x100 2:0x200 3:0x400 4:0x800] ^ warp[0:0x4 1:0x8 2:0x10 3:0x20 4:0x40]");
  CHECK_FALSE(breaks_affinity(column, 4));
}

TEST_CASE("affine fit: data-dependent (histogram bins) and carrying (padded stride, unaligned base) addresses have none") {
  const Address histogram = [](std::uint32_t l, std::uint32_t w) { return 4u * ((l * 7u + w * 13u) % 64u); };
  const Address padded = [](std::uint32_t l, std::uint32_t w) { return l * 132u + w * 4u; };
  const Address unaligned = [](std::uint32_t l, std::uint32_t w) { return 1024u + l * 128u + w * 4u; };
  for (const Address& f : {histogram, padded, unaligned}) {
    REQUIRE(breaks_affinity(f, 4));  // the independent proof that no affine map exists
    const AffineAddressFit fit = fit_of(f, 4);
    CHECK_FALSE(fit.fits());
    REQUIRE(fit.contradiction().has_value());
    const auto& [x, a] = *fit.contradiction();
    CHECK(a == f(x.lane, x.warp));
  }
}

TEST_CASE("affine fit: inactive-looking gaps (lane 0 never seen) still fit; an inconsistent repeat does not") {
  AffineAddressFit fit;
  for (std::uint32_t l = 1; l < 32; ++l) CHECK(fit.add({l, 0, 0, 0}, 256 + (l ^ 1) * 4));
  CHECK(fit.fits());
  CHECK(fit.predict({0, 0, 0, 0}) == 256 + 4);  // lanes 2 ^ 3 ^ 1 span lane 0: determined
  CHECK_FALSE(fit.add({5, 0, 0, 0}, 256 + 4 * 4 + 1));
  CHECK_FALSE(fit.fits());
}

TEST_CASE("affine fit: variables past their fields are not representable") {
  CHECK(FitVariables{31, 31, (1u << 24) - 1, (1u << 29) - 1}.representable());
  CHECK_FALSE(FitVariables{32, 0, 0, 0}.representable());
  CHECK_FALSE(FitVariables{0, 0, 1u << 24, 0}.representable());
  CHECK(fit_variable_name(1) == "lane.0");
  CHECK(fit_variable_name(6) == "warp.0");
  CHECK(fit_variable_name(11) == "iteration.0");
  CHECK(fit_variable_name(35) == "block.0");
}

}  // namespace affine_address_fit_test
