// model/hd.hpp: a definition of BANKCHECK_HD made before the header is kept
// (the guard), and BANKCHECK_HD_INLINE adds `inline` to it. Marking the
// functions below `constexpr` through the macros makes the static_asserts
// compile only if the macros expand to what is defined here.
#define BANKCHECK_HD constexpr
#include "model/hd.hpp"
#include "model/hd.hpp"  // a second inclusion redefines nothing

#include <doctest/doctest.h>

#include <string_view>

namespace {

BANKCHECK_HD int twice(int x) { return 2 * x; }
BANKCHECK_HD_INLINE int thrice(int x) { return 3 * x; }

#define BANKCHECK_TEST_TEXT(...) #__VA_ARGS__
#define BANKCHECK_TEST_EXPANDED(...) BANKCHECK_TEST_TEXT(__VA_ARGS__)

static_assert(twice(2) == 4, "BANKCHECK_HD was redefined by model/hd.hpp");
static_assert(thrice(2) == 6, "BANKCHECK_HD_INLINE does not build on BANKCHECK_HD");

}  // namespace

TEST_CASE("hd.hpp keeps a caller's BANKCHECK_HD and BANKCHECK_HD_INLINE adds inline") {
  CHECK(std::string_view(BANKCHECK_TEST_EXPANDED(BANKCHECK_HD)) == "constexpr");
  CHECK(std::string_view(BANKCHECK_TEST_EXPANDED(BANKCHECK_HD_INLINE)) == "constexpr inline");
}
