#include "sim/block_recorder.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bankcheck;

namespace {

struct Captured {
  std::string name;
  unsigned phase;
  std::uint64_t k;
  unsigned warp_index;
  Op op;
  unsigned width;
  std::vector<std::uint64_t> addr;
};

struct Capture final : InstructionListener {
  std::vector<Captured> got;
  void instruction(const InstructionInfo& i, const WarpRequest& r) override {
    got.push_back({std::string(i.name), i.phase, i.k, i.warp_index, r.op, r.width, {r.addr.begin(), r.addr.end()}});
  }
};

// Phase 0: every thread stores its id; odd threads then read it back (a data-dependent if).
struct OddReader {
  static constexpr const char* kName = "odd";
  static constexpr const char* kSiteNames[] = {"store", "odd_load"};
  static constexpr int kPhases = 1;
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    smem.template store<int>(0, tid, tid);
    if (tid % 2 == 1) (void)smem.template load<int>(1, tid);
  }
};

// Phase 0 writes 10*tid; phase 1 reads the right neighbour's value (written by another thread).
struct Rotate {
  static constexpr const char* kName = "rot";
  static constexpr const char* kSiteNames[] = {"write", "read"};
  static constexpr int kPhases = 2;
  int n;
  int* out;  // host "global" memory
  template <class Smem>
  void phase(int k, int tid, Smem& smem) const {
    if (k == 0) smem.template store<int>(0, tid, 10 * tid);
    else out[tid] = smem.template load<int>(1, (tid + 1) % n);
  }
};

// Even lanes run A then B; odd lanes run B then A: no single instruction stream.
struct Crossed {
  static constexpr const char* kName = "cross";
  static constexpr const char* kSiteNames[] = {"A", "B"};
  static constexpr int kPhases = 1;
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    if (tid % 2 == 0) { (void)smem.template load<int>(0, 0); (void)smem.template load<int>(1, 1); }
    else { (void)smem.template load<int>(1, 1); (void)smem.template load<int>(0, 0); }
  }
};

// Lane t loops t times over site "loop" (8-byte elements in a second array at byte 64).
struct Loop {
  static constexpr const char* kName = "loop";
  static constexpr const char* kSiteNames[] = {"loop"};
  static constexpr int kPhases = 1;
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    auto arr = smem.at(64);
    for (int i = 0; i < tid % 5; ++i) (void)arr.template load<std::uint64_t>(0, i);
  }
};

// Lane 0 runs A only, lane 1 B only, lane 2 B then A: consistent (B before A).
struct Partial {
  static constexpr const char* kName = "partial";
  static constexpr const char* kSiteNames[] = {"A", "B"};
  static constexpr int kPhases = 1;
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    if (tid == 1 || tid == 2) (void)smem.template load<int>(1, 1);
    if (tid == 0 || tid == 2) (void)smem.template load<int>(0, 0);
  }
};

}  // namespace

TEST_CASE("data-dependent if leaves even lanes inactive; warp size is a parameter") {
  for (unsigned w : {4u, 32u, 12u}) {
    CAPTURE(w);
    const unsigned threads = 2 * w + w / 2;  // last warp partial
    BlockRecorder rec(4 * threads);
    Capture cap;
    auto sum = rec.run(OddReader{}, threads, w, cap);
    const unsigned warps = 3;
    REQUIRE(cap.got.size() == 2 * warps);
    CHECK(sum.instructions == 2 * warps);
    for (unsigned g = 0; g < warps; ++g) {
      const auto& st = cap.got[2 * g];
      const auto& ld = cap.got[2 * g + 1];
      CHECK(st.name == "odd.store");
      CHECK(ld.name == "odd.odd_load");
      CHECK(st.warp_index == g);
      CHECK(st.op == Op::store);
      CHECK(ld.op == Op::load);
      REQUIRE(st.addr.size() == w);
      for (unsigned lane = 0; lane < w; ++lane) {
        const unsigned t = g * w + lane;
        const bool exists = t < threads;
        CHECK(st.addr[lane] == (exists ? 4 * t : kInactive));
        CHECK(ld.addr[lane] == (exists && t % 2 == 1 ? 4 * t : kInactive));
      }
    }
  }
}

TEST_CASE("two phases communicate through shared memory") {
  for (unsigned w : {4u, 32u, 12u}) {
    const int n = 3 * static_cast<int>(w);
    std::vector<int> out(n, -1);
    BlockRecorder rec(4 * n);
    Capture cap;
    rec.run(Rotate{n, out.data()}, n, w, cap);
    for (int t = 0; t < n; ++t) CHECK(out[t] == 10 * ((t + 1) % n));
    REQUIRE(cap.got.size() == 6);
    for (int i = 0; i < 3; ++i) CHECK(cap.got[i].phase == 0);
    for (int i = 3; i < 6; ++i) CHECK(cap.got[i].phase == 1);
  }
}

TEST_CASE("crossed site orders throw DivergenceError naming sites and lanes") {
  for (unsigned w : {4u, 32u, 12u}) {
    BlockRecorder rec(64);
    Capture cap;
    try {
      rec.run(Crossed{}, w, w, cap);
      FAIL("no DivergenceError");
    } catch (const DivergenceError& e) {
      CHECK(e.lane_a == 0);
      CHECK(e.lane_b == 1);
      CHECK(e.site_a == "cross.A");
      CHECK(e.site_b == "cross.B");
    }
  }
}

TEST_CASE("loop exit: instruction k has the lanes with more than k iterations") {
  for (unsigned w : {4u, 32u, 12u}) {
    BlockRecorder rec(64 + 8 * 8);
    Capture cap;
    rec.run(Loop{}, w, w, cap);
    const unsigned iters = std::min(w, 5u) - 1;
    REQUIRE(cap.got.size() == iters);
    for (unsigned k = 0; k < iters; ++k) {
      CHECK(cap.got[k].k == k);
      CHECK(cap.got[k].width == 8);
      for (unsigned lane = 0; lane < w; ++lane)
        CHECK(cap.got[k].addr[lane] == (lane % 5 > k ? 64 + 8 * k : kInactive));
    }
  }
}

TEST_CASE("partial orders that agree are merged, not rejected") {
  BlockRecorder rec(64);
  Capture cap;
  rec.run(Partial{}, 4, 4, cap);
  REQUIRE(cap.got.size() == 2);
  CHECK(cap.got[0].name == "partial.B");
  CHECK(cap.got[0].addr == std::vector<std::uint64_t>{kInactive, 4, 4, kInactive});
  CHECK(cap.got[1].name == "partial.A");
  CHECK(cap.got[1].addr == std::vector<std::uint64_t>{0, kInactive, 0, kInactive});
}

TEST_CASE("out-of-range access throws") {
  BlockRecorder rec(8);
  Capture cap;
  CHECK_THROWS_AS(rec.run(OddReader{}, 4, 4, cap), std::out_of_range);
}

TEST_CASE("device accessor reads and writes plain memory") {
  alignas(16) unsigned char buf[64] = {};
  SharedArray s(buf);
  s.store<int>(0, 3, 42);
  CHECK(s.load<int>(0, 3) == 42);
  CHECK(s.at(12).load<int>(0, 0) == 42);
}
