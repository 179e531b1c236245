// sim/report/layout_offer.hpp: the line, JSON object and CSV cell of a layout offered beside compare's
// verdicts, for an offer written here by hand (the naive transpose of tests/data/captures/transpose:
// 1056 wavefronts before, 64 after, its README's counts).
#include "sim/report/layout_offer.hpp"

#include <doctest/doctest.h>

using bankcheck::report::LayoutOffer;

namespace {
LayoutOffer transpose_offer() {
  LayoutOffer o;
  o.launch = 0;
  o.kernel = "transpose_naive(float *, const float *)";
  o.base = 1024, o.bytes = 4096;
  o.map = "b ^ ((b >> 5) & 0x7c)";
  o.cute = "Swizzle<5,2,5> on byte offsets";
  o.before = 1056, o.after = 64, o.ideal = 64;
  o.evidence = "lane bits of each distinct record";
  o.conflicting = {"_Z15transpose_naivePfPKf+0x130"};
  return o;
}
}  // namespace

TEST_CASE("layout offer: one line, a JSON object and a CSV cell, with the wavefronts saved") {
  const LayoutOffer o = transpose_offer();
  CHECK(o.saved() == 992);
  CHECK(bankcheck::report::offer_text(o) ==
        "launch 0 transpose_naive(float *, const float *): buffer at 1024 (4096 bytes): map b ^ ((b >> 5) & 0x7c) "
        "(Swizzle<5,2,5> on byte offsets) gives 1056 -> 64 wavefronts (ideal 64), 992 saved; conflicting: "
        "_Z15transpose_naivePfPKf+0x130 (bankcheck suggest: the fits and every instruction)");
  const auto j = bankcheck::report::offer_json(o);
  CHECK(j["saved"] == 992);
  CHECK(j["base"] == 1024);
  CHECK(j["map"] == "b ^ ((b >> 5) & 0x7c)");
  CHECK(j["conflicting"].size() == 1);
  CHECK(j["evidence"] == "lane bits of each distinct record");
  CHECK(bankcheck::report::offer_cell(o) == "b ^ ((b >> 5) & 0x7c): buffer at 1024, 1056 -> 64 wavefronts");
}
