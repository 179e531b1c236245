#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/layout/access_kind.hpp"

using namespace bankcheck;
using namespace bankcheck::layout;

TEST_CASE("access kinds: spellings, widths and trace ops") {
  auto k = parse_access_kind("ld.128");
  CHECK(k.op() == Op::load);
  CHECK(k.bytes == 16);
  CHECK(parse_access_kind("st.32").bytes == 4);
  CHECK(parse_access_kind("ld.16").bytes == 2);
  k = parse_access_kind("ldmatrix.x4.trans");
  CHECK(k.op() == Op::ldsm);
  CHECK(k.matrices == 4);
  CHECK(k.trans);
  CHECK(k.name() == "ldmatrix.x4.trans");
  CHECK(parse_access_kind("stmatrix.x2").op() == Op::stsm);
  k = parse_access_kind("cp.async.16");
  CHECK(k.op() == Op::cpasync);
  CHECK(k.name() == "cp.async.ca.16");
  CHECK(parse_access_kind("cp.async.cg.16").op() == Op::cpasync_cg);
  CHECK(parse_access_kind("cp.async.ca.4").bytes == 4);
  for (const char* bad : {"ld.96", "ldmatrix.x3", "ldmatrix.x4.tran", "cp.async.cg.8", "cp.async.2", "lds", ""})
    CHECK_THROWS_WITH_AS(parse_access_kind(bad), doctest::Contains("expected one of"), std::invalid_argument);
}
