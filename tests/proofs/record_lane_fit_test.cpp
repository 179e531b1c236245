// proofs/record_lane_fit.hpp: each distinct record's offsets fitted in the lane bits alone. The expected
// columns are the offset differences of lanes 1, 2, 4, 8, 16 from lane 0, written here by hand.
#include "proofs/record_lane_fit.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using bankcheck::proofs::RecordLaneFit;

namespace {
constexpr std::uint64_t kIdle = ~std::uint64_t{0};

std::vector<std::uint64_t> lanes(std::uint64_t (*offset)(std::uint64_t)) {
  std::vector<std::uint64_t> out(32);
  for (std::uint64_t l = 0; l < 32; ++l) out[l] = offset(l);
  return out;
}
}  // namespace

TEST_CASE("record lane fit: a column of a 32x32 fp32 tile in two records, each with its own constant") {
  RecordLaneFit fit;
  CHECK(fit.add(lanes([](std::uint64_t l) { return l * 128 + 4; }), kIdle, 7));
  CHECK(fit.add(lanes([](std::uint64_t l) { return l * 128 + 8; }), kIdle, 1));
  CHECK(fit.fits());
  CHECK(fit.records() == 2);
  for (unsigned k = 0; k < 5; ++k) CHECK(fit.column(k) == (std::uint64_t{128} << k));
  CHECK_FALSE(fit.column(5).has_value());
  CHECK(fit.columns_agree());
  CHECK(fit.text().rfind("lane[0:0x80 1:0x100 2:0x200 3:0x400 4:0x800] in each of 2 distinct records", 0) == 0);
}

TEST_CASE("record lane fit: records whose lane columns differ still fit, and the text says so") {
  RecordLaneFit fit;
  CHECK(fit.add(lanes([](std::uint64_t l) { return l * 4; }), kIdle, 1));
  CHECK(fit.add(lanes([](std::uint64_t l) { return l * 128; }), kIdle, 1));
  CHECK(fit.fits());
  CHECK_FALSE(fit.columns_agree());
  CHECK(fit.column(0) == 4u);  // the first record that determines it
  CHECK(fit.text().find("their lane columns differ") != std::string::npos);
}

TEST_CASE("record lane fit: idle lanes are no equations; a carry is no affine fit, and the fit stays lost") {
  RecordLaneFit two;
  std::vector<std::uint64_t> offsets(32, kIdle);
  offsets[0] = 36, offsets[1] = 1000;  // two points: always affine
  CHECK(two.add(offsets, kIdle, 3));
  CHECK(two.column(0) == (36u ^ 1000u));
  CHECK_FALSE(two.column(1).has_value());
  CHECK(two.text().rfind("lane[0:0x3cc] in each of 1 distinct record,", 0) == 0);

  // lane x 12: lanes 1 and 2 give columns 12 and 24, so lane 3 would be 12 ^ 24 = 20, not 36.
  RecordLaneFit carry;
  CHECK(carry.add(lanes([](std::uint64_t l) { return l * 4; }), kIdle, 1));
  CHECK_FALSE(carry.add(lanes([](std::uint64_t l) { return l * 12; }), kIdle, 5));
  CHECK_FALSE(carry.fits());
  CHECK(carry.why_not() ==
        "no affine fit: lane 3 of distinct record 2 (5 executions) touches offset 36, which no GF(2)-affine map of the "
        "record's other lanes gives");
  CHECK(carry.text() == carry.why_not());
  CHECK_FALSE(carry.add(lanes([](std::uint64_t l) { return l * 4; }), kIdle, 1));
}
