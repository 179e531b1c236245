// The parallel replay equals the sequential one, field by field, for every
// thread count: on a trace with many sites, conflicts of every degree,
// repeated worst degrees (the lowest index must win), kinds the model does
// not cost, and more records than one batch.
#include "sim/replay/parallel_replay.hpp"

#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bankcheck;

namespace {

TraceBuffer mixed_trace(std::uint64_t seed, std::size_t records) {
  std::mt19937_64 rng(seed);
  TraceBuffer b;
  b.begin(32);
  std::vector<std::uint64_t> addr(32);
  for (std::size_t i = 0; i < records; ++i) {
    const unsigned stride = 1u << (rng() % 6);  // 1..32 words: degree 1..32
    const std::uint64_t base = 4 * (rng() % 1024);
    for (unsigned l = 0; l < 32; ++l) addr[l] = rng() % 7 == 0 ? kInactive : base + 4ull * stride * l;
    const unsigned pick = static_cast<unsigned>(rng() % 10);
    // ldsm is not modelled on the DMM: counted apart, in its own sites
    const Op op = pick == 0 ? Op::ldsm : pick < 4 ? Op::store : Op::load;
    const unsigned width = op == Op::ldsm ? 16 : 4;
    if (op == Op::ldsm)
      for (auto& a : addr)
        if (a != kInactive) a = a / 16 * 16;
    b.record("site" + std::to_string(rng() % 53), WarpRequest{op, width, addr});
  }
  return b;
}

void check_equal(const ReplaySummary& a, const ReplaySummary& b) {
  CHECK(a.totals == b.totals);
  CHECK(a.unmodelled == b.unmodelled);
  REQUIRE(a.sites.size() == b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) {
    CAPTURE(a.sites[i].site);
    CHECK(a.sites[i].site == b.sites[i].site);
    CHECK(a.sites[i].totals == b.sites[i].totals);
    CHECK(a.sites[i].unmodelled == b.sites[i].unmodelled);
    CHECK(a.sites[i].worst.present == b.sites[i].worst.present);
    CHECK(a.sites[i].worst.index == b.sites[i].worst.index);
    CHECK(a.sites[i].worst.addr == b.sites[i].worst.addr);
    CHECK(a.sites[i].worst.cost.degree == b.sites[i].worst.cost.degree);
  }
  CHECK(a.worst.index == b.worst.index);
  CHECK(a.worst.site == b.worst.site);
  CHECK(a.worst.cost.degree == b.worst.cost.degree);
}

}  // namespace

TEST_CASE("every thread count gives replay()'s summary") {
  const BankModel dmm = make_preset("dmm", 32);
  for (std::size_t records : {std::size_t{0}, std::size_t{1}, kReplayBatchRecords - 1, 3 * kReplayBatchRecords + 17}) {
    CAPTURE(records);
    const TraceBuffer trace = mixed_trace(records + 11, records);
    BufferSource one(trace);
    const ReplaySummary want = replay(one, dmm);
    for (unsigned threads : {1u, 2u, 3u, 4u, 8u}) {
      CAPTURE(threads);
      BufferSource src(trace);
      std::uint64_t seen = 0;
      const ReplaySummary got = replay_parallel(src, dmm, threads, [&](std::uint64_t n) { seen = n; });
      check_equal(got, want);
      if (threads > 1) CHECK(seen == records);
    }
  }
}

TEST_CASE("a warp mismatch is refused before any thread starts") {
  TraceBuffer b;
  b.begin(4);
  BufferSource src(b);
  CHECK_THROWS_AS(replay_parallel(src, make_preset("sm90"), 4), std::invalid_argument);
}
