#include "sim/trace/request_input.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using namespace bankcheck;

TEST_CASE("op_from_name and parse_op read every trace token back") {
  for (unsigned op = 0; op < kOpCount; ++op) {
    CHECK(op_from_name(op_name(static_cast<Op>(op))) == static_cast<Op>(op));
    CHECK(parse_op(op_name(static_cast<Op>(op))) == static_cast<Op>(op));
  }
  CHECK(!op_from_name("load").has_value());
  CHECK_THROWS_WITH_AS(parse_op("load"), doctest::Contains("unknown op 'load' (expected one of ld, st,"),
                       std::invalid_argument);
}

TEST_CASE("check_request refuses what BankModel::cost may not be given") {
  std::vector<std::uint64_t> addr(32, kInactive);
  addr[0] = 0;
  addr[3] = 12;
  CHECK_NOTHROW(check_request(WarpRequest{Op::load, 4, addr}, 32));
  CHECK_THROWS_WITH_AS(check_request(WarpRequest{Op::load, 4, addr}, 16), doctest::Contains("32 lanes"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_request(WarpRequest{Op::ldsm, 4, addr}, 32), doctest::Contains("not one of 16"),
                       std::invalid_argument);
  addr[3] = 10;
  CHECK_THROWS_WITH_AS(check_request(WarpRequest{Op::load, 4, addr}, 32),
                       doctest::Contains("misaligned address 10 of lane 3"), std::invalid_argument);
  addr[3] = kZeroFill;
  CHECK_THROWS_WITH_AS(check_request(WarpRequest{Op::load, 4, addr}, 32), doctest::Contains("of lane 3 is reserved"),
                       std::invalid_argument);
}
