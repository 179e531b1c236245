#include "proofs/number_theory.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace bankcheck::nt;

TEST_CASE("mod gives the least non-negative residue") {
  CHECK(mod(-1, 5) == 4);
  CHECK(mod(-10, 5) == 0);
  CHECK(mod(12, 5) == 2);
}

TEST_CASE("complete residue systems (Definition 13), by hand") {
  CHECK(is_complete_residue_system(std::vector<std::int64_t>{0, 5, 10, 15}, 4));   // 0 1 2 3
  CHECK_FALSE(is_complete_residue_system(std::vector<std::int64_t>{0, 6, 12, 18}, 4));  // 0 2 0 2
  CHECK_FALSE(is_complete_residue_system(std::vector<std::int64_t>{0, 1, 2}, 4));       // too few
  const ResidueProfile p = residue_profile(std::vector<std::int64_t>{0, 6, 12, 18}, 4);
  CHECK(p.classes_hit == 2);
  CHECK(p.largest_class == 2);
  CHECK(mod(p.witness_a, 4) == mod(p.witness_b, 4));
  CHECK(p.witness_a != p.witness_b);
}

TEST_CASE("ResidueSet and ResidueStepper agree with the plain definition") {
  ResidueSet set;
  for (std::uint64_t m = 1; m <= 40; ++m)
    for (std::uint64_t step = 0; step <= 45; ++step) {
      set.reset(m);
      std::vector<std::int64_t> values;
      ResidueStepper r(3, step, m);
      bool complete = true;
      for (std::uint64_t k = 0; k < m; ++k, r.next()) {
        CHECK(r.value() == (3 + k * step) % m);
        complete = set.insert_residue(r.value()) && complete;
        values.push_back(static_cast<std::int64_t>(3 + k * step));
      }
      CHECK(complete == is_complete_residue_system(values, m));
      CHECK(complete == (gcd(step, m) == 1));  // Lemma 1 and its converse, by a second route
    }
}

TEST_CASE("collision_text names two witnesses of the largest class") {
  const ResidueProfile p = residue_profile(std::vector<std::int64_t>{1, 5, 9, 2}, 4);
  CHECK(collision_text(p, 4) == "1 and 9 are congruent mod 4 (3 elements share residue 1)");
}

TEST_CASE("inverse_mod: a * inverse = 1 (mod m) exactly when GCD(a, m) = 1, against a search of every x") {
  for (std::uint64_t m = 1; m <= 64; ++m)
    for (std::uint64_t a = 0; a <= 2 * m; ++a) {
      std::optional<std::uint64_t> found;
      for (std::uint64_t x = 0; x < m && !found; ++x)
        if (a * x % m == 1 % m) found = x;
      const auto inv = inverse_mod(a, m);
      CHECK_MESSAGE(inv.has_value() == found.has_value(), "a=" << a << " m=" << m);
      if (inv) CHECK(a * *inv % m == 1 % m);
    }
  // Far beyond 64-bit products of the operands: w, E up to 2^40 and more.
  const std::uint64_t big = (std::uint64_t{1} << 61) - 1;  // a prime
  const auto inv = inverse_mod(1234567891011ull, big);
  REQUIRE(inv.has_value());
  CHECK(static_cast<unsigned __int128>(1234567891011ull) * *inv % big == 1);
  CHECK_FALSE(inverse_mod(6, 1024).has_value());
}
