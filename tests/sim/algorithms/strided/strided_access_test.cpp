#include "sim/algorithms/strided/strided_access.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "tests/sim/algorithms/tally.hpp"

using namespace bankcheck;

TEST_CASE("strided: reads t*stride; GCD(stride, w) wavefronts per warp (SPAA 2025 Lemma 1 and converse)") {
  for (unsigned w : {12u, 16u, 32u})
    for (unsigned stride = 1; stride <= 2 * w; ++stride) {
      CAPTURE(w);
      CAPTURE(stride);
      StridedAccess a{2 * w, stride};
      std::vector<int> out(a.threads, -1);
      a.out = out.data();
      BlockRecorder recorder(a.shared_bytes());
      for (std::size_t i = 0; i < a.elements(); ++i) {
        const int v = static_cast<int>(3 * i);
        std::memcpy(recorder.shared().data() + 4 * i, &v, 4);
      }
      const auto model = make_preset("dmm", w);
      test::TallyListener t(model);
      recorder.run(a, a.threads, w, t);
      for (unsigned i = 0; i < a.threads; ++i) REQUIRE(out[i] == static_cast<int>(3 * i * stride));
      // Brute force: lanes t*stride mod w; the largest number of lanes in one bank.
      unsigned worst = 0;
      for (unsigned b = 0; b < w; ++b) {
        unsigned n = 0;
        for (unsigned l = 0; l < w; ++l) n += (l * stride) % w == b;
        worst = std::max(worst, n);
      }
      CHECK(t.total.instructions == 2);
      CHECK(t.total.worst_degree == worst);
      CHECK(t.total.wavefronts == 2 * worst);
    }
}

TEST_CASE("strided: parameters") {
  StridedAccess a{32, 0};
  CHECK_THROWS_WITH_AS(a.validate(), doctest::Contains("stride must be >= 1"), std::invalid_argument);
}
