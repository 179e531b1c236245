// The timing of a preset is the measured one (the fits in
// validate/results/h100-2026-11-23/probes/latency_fit.txt, read here and
// compared) or none: no preset gets numbers that were not measured.
#include "model/shared_timing.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

using namespace bankcheck;

TEST_CASE("sm90's timing is the H100 fit; other presets have none") {
  const auto t = shared_timing("sm90");
  REQUIRE(t.has_value());
  // latency_fit.txt: "ld 4 63 23.00 2.000 1.0000 ... tput: 0.003 1.0000" and "st 4 63 28.00 4.000 ..."
  std::ifstream in(BANKCHECK_SOURCE_DIR "/validate/results/h100-2026-11-23/probes/latency_fit.txt");
  REQUIRE(in.good());
  bool load = false, store = false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    std::string kind;
    unsigned width = 0, points = 0;
    double a = 0, b = 0;
    if (!(s >> kind >> width >> points >> a >> b) || width != 4) continue;
    if (kind == "ld") {
      CHECK(std::abs(a - t->load_latency) < 0.5);
      CHECK(std::abs(b - t->load_cycles_per_extra) < 0.05);
      load = true;
    } else if (kind == "st") {
      CHECK(std::abs(a - t->store_latency) < 0.5);
      CHECK(std::abs(b - t->store_cycles_per_extra) < 0.05);
      store = true;
    }
    const auto tput = line.find("tput: ");
    if (tput != std::string::npos) {
      std::istringstream tp(line.substr(tput + 6));
      double ta = 0, tb = 0;
      tp >> ta >> tb;
      CHECK(std::abs(tb - t->cycles_per_wavefront) < 0.01);
    }
  }
  CHECK(load);
  CHECK(store);
  for (const char* p : {"dmm", "kepler-4B", "kepler-8B", "custom"}) CHECK_FALSE(shared_timing(p).has_value());
}
