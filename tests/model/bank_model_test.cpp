#include "model/bank_model.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace bankcheck;

TEST_CASE("placeholder: dmm stride 2 on 4 banks is 2-way") {
  auto m = make_preset("dmm", 4);
  std::vector<std::uint64_t> a{0, 8, 16, 24};
  auto c = m.cost({Op::load, 4, a});
  CHECK(c.wavefronts == 2);
}
