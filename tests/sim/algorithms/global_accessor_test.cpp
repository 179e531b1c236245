// RecordingGlobal: real values in the host array, each lane's access logged
// as gld/gst at base + index * sizeof(T), grouped by the recorder into warp
// instructions; bad accesses say where. GlobalArray is a plain pointer.
#include "sim/algorithms/global_accessor.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sim/algorithms/block_recorder.hpp"

// The file's own scope: the files of a test layer compile as one translation unit
// (tests/CMakeLists.txt), where its helpers and using-directives must not meet another file's.
namespace global_accessor_test {

using namespace bankcheck;

namespace {

struct Collect final : InstructionListener {
  std::vector<std::vector<std::uint64_t>> addr;
  std::vector<Op> ops;
  std::vector<unsigned> widths;
  void instruction(const InstructionInfo&, const WarpRequest& r) override {
    addr.emplace_back(r.addr.begin(), r.addr.end());
    ops.push_back(r.op);
    widths.push_back(r.width);
  }
};

/// out[t] = 2 * in[stride * t]: one gld and one gst per thread.
struct Gather {
  static constexpr const char* kName = "gather";
  enum Site : int { read, write };
  static constexpr const char* kSiteNames[] = {"read", "write"};
  static constexpr int kPhases = 1;
  unsigned threads = 4;
  unsigned stride = 1;
  RecordingGlobal<int> in;
  RecordingGlobal<long> out;
  std::size_t shared_bytes() const { return 0; }
  template <class Smem>
  void phase(int, int tid, Smem&) const {
    out.store(write, static_cast<std::size_t>(tid), 2L * in.load(read, stride * static_cast<std::size_t>(tid)));
  }
};

}  // namespace

TEST_CASE("RecordingGlobal logs gld/gst at base + index * width and keeps real values") {
  std::vector<int> in = {10, 11, 12, 13, 14, 15, 16, 17};
  std::vector<long> out(4, 0);
  BlockRecorder recorder(0);
  Gather g;
  g.stride = 2;
  g.in = recorder.global(in.data(), in.size(), 0x1000);
  g.out = recorder.global(out.data(), out.size(), 0x8000);
  Collect c;
  recorder.run(g, 4, c);
  CHECK(out == std::vector<long>{20, 24, 28, 32});
  REQUIRE(c.ops.size() == 2);
  CHECK(c.ops[0] == Op::gld);
  CHECK(c.widths[0] == 4);
  CHECK(c.addr[0] == std::vector<std::uint64_t>{0x1000, 0x1008, 0x1010, 0x1018});
  CHECK(c.ops[1] == Op::gst);
  CHECK(c.widths[1] == 8);
  CHECK(c.addr[1] == std::vector<std::uint64_t>{0x8000, 0x8008, 0x8010, 0x8018});
}

TEST_CASE("RecordingGlobal refuses an index out of range and a misaligned base") {
  std::vector<int> in(4);
  std::vector<long> out(4);
  BlockRecorder recorder(0);
  Gather g;
  g.stride = 2;  // thread 2 reads in[4]: out of the 4 elements
  g.in = recorder.global(in.data(), in.size(), 0);
  g.out = recorder.global(out.data(), out.size(), 64);
  Collect c;
  CHECK_THROWS_WITH_AS(recorder.run(g, 4, c), doctest::Contains("thread 2 site 0: global load of element 4"),
                       std::out_of_range);
  CHECK_THROWS_AS(recorder.global(in.data(), in.size(), 2), std::invalid_argument);
}

TEST_CASE("GlobalArray is a plain pointer") {
  int data[3] = {1, 2, 3};
  const GlobalArray<int> a(data);
  a.store(0, 1, a.load(0, 2) + 4);
  CHECK(data[1] == 7);
}

}  // namespace global_accessor_test
