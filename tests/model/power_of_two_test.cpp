#include "model/power_of_two.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

using namespace bankcheck;

TEST_CASE("powers of two and their logarithms agree with enumerating 2^r") {
  // Oracle: the powers 2^0 .. 2^63 listed by repeated doubling; every n up to
  // 2^16 and each power's neighbours up to 2^63 are checked against them.
  const auto check = [](std::uint64_t n) {
    unsigned floor = 0, ceil = 0;
    bool power = false;
    for (unsigned r = 0; r < 64; ++r) {
      const std::uint64_t p = std::uint64_t{1} << r;
      if (p <= n) floor = r;
      if (p == n) power = true;
      if (p < n) ceil = r + 1;
    }
    CHECK_MESSAGE(is_power_of_two(n) == power, n);
    if (n >= 1) CHECK_MESSAGE(log2_floor(n) == floor, n);
    if (n >= 1 && n <= (std::uint64_t{1} << 63)) CHECK_MESSAGE(log2_ceil(n) == ceil, n);
  };
  for (std::uint64_t n = 0; n <= (1u << 16); ++n) check(n);
  for (unsigned r = 17; r < 64; ++r)
    for (std::uint64_t p = std::uint64_t{1} << r; std::uint64_t n : {p - 1, p, p + 1}) check(n);
  CHECK(!is_power_of_two(0));
  CHECK(log2_ceil(0) == 0);
  CHECK(log2_ceil(1) == 0);
  static_assert(log2_floor(std::uint64_t{1} << 40) == 40 && log2_ceil(33) == 6 && is_power_of_two(64));
}
