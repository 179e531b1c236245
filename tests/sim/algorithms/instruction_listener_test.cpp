// sim/algorithms/instruction_listener.hpp: SinkListener hands each
// instruction to the TraceSink under its qualified site name, unchanged.
#include "sim/algorithms/instruction_listener.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bankcheck;

namespace {

struct Recorded {
  std::string site;
  Op op;
  unsigned width;
  std::vector<std::uint64_t> addr;
};

struct VectorSink final : TraceSink {
  std::vector<Recorded> got;
  void begin(unsigned) override {}
  void record(std::string_view site, const WarpRequest& r) override {
    got.push_back({std::string(site), r.op, r.width, {r.addr.begin(), r.addr.end()}});
  }
};

}  // namespace

TEST_CASE("SinkListener forwards name, op, width and addresses") {
  VectorSink sink;
  SinkListener listener(sink);
  InstructionListener& out = listener;
  const std::vector<std::uint64_t> addr = {0, 4, kInactive, 12};
  InstructionInfo info;
  info.name = "toy.read";
  info.active = 3;
  out.instruction(info, WarpRequest{Op::load, 4, addr});
  info.name = "toy.write";
  out.instruction(info, WarpRequest{Op::store, 8, addr});
  REQUIRE(sink.got.size() == 2);
  CHECK(sink.got[0].site == "toy.read");
  CHECK(sink.got[0].op == Op::load);
  CHECK(sink.got[0].width == 4);
  CHECK(sink.got[0].addr == addr);
  CHECK(sink.got[1].site == "toy.write");
  CHECK(sink.got[1].op == Op::store);
  CHECK(sink.got[1].width == 8);
}
