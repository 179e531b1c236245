// Tests of the binary format's repeat record (version 5, docs/trace-format.md):
// a record that stands for n identical executions is handed out n times by
// default and once with its count to a reader that keeps repeats; replay,
// serial and parallel, counts it n times; malformed repeats are refused.
#include <doctest/doctest.h>

#include <vector>

#include "model/bank_model.hpp"
#include "sim/replay/parallel_replay.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_binary.hpp"
#include "tests/sim/trace/binary_trace_support.hpp"

using namespace bankcheck;
using namespace bankcheck::test;

namespace {

/// Reads every record of `bytes`, keeping repeats or not; returns each record's repeat count.
std::vector<std::uint64_t> repeats_read(const std::string& bytes, bool keep, std::uint64_t* executions = nullptr) {
  TempStream stream(bytes);
  BinaryTraceReader reader(stream.input("t.bktrace"));
  if (keep) reader.keep_repeats();
  std::vector<std::uint64_t> out;
  TraceRecord r;
  while (reader.next(r)) out.push_back(r.repeat);
  if (executions != nullptr) *executions = reader.executions();
  return out;
}

Bytes& repeat(Bytes& b, std::uint64_t n) { return b.u64(8).u64(n); }

}  // namespace

TEST_CASE("a repeat record: the next instruction n times by default, once with n when kept") {
  Bytes b = Bytes{}.header(2).site("s").instr(0, 0, 4, {0, 4});
  repeat(b, 3).instr(0, 1, 4, {8, X}).expect(4).end(2);  // 2 records, 4 executions
  CHECK(repeats_read(b.s, false) == std::vector<std::uint64_t>{1, 1, 1, 1});
  std::uint64_t executions = 0;
  CHECK(repeats_read(b.s, true, &executions) == std::vector<std::uint64_t>{1, 3});
  CHECK(executions == 4);
  // The expect record counts executions: 2 (the records) is refused.
  Bytes wrong = Bytes{}.header(2).site("s");
  repeat(wrong, 3).instr(0, 1, 4, {8, X}).expect(1).end(1);
  CHECK_THROWS_WITH_AS(repeats_read(wrong.s, true), doctest::Contains("expected 1 records (the producer's count), read 3"),
                       TraceError);
}

TEST_CASE("malformed repeats are refused, and older versions have no repeat record") {
  Bytes one = Bytes{}.header(2).site("s");
  repeat(one, 1).instr(0, 0, 4, {0, 4}).end(1);
  CHECK_THROWS_WITH_AS(repeats_read(one.s, true), doctest::Contains("a repeat count of 1"), TraceError);
  Bytes between = Bytes{}.header(2).site("s");
  repeat(between, 2).location(0, 0, 0, 0, 0).instr(0, 0, 4, {0, 4}).end(1);
  CHECK_THROWS_WITH_AS(repeats_read(between.s, true), doctest::Contains("between a repeat record and its instruction"),
                       TraceError);
  Bytes dangling = Bytes{}.header(2).site("s").instr(0, 0, 4, {0, 4});
  repeat(dangling, 2).end(1);
  CHECK_THROWS_WITH_AS(repeats_read(dangling.s, true), doctest::Contains("a repeat record with no instruction"),
                       TraceError);
  Bytes v4 = Bytes{}.header(2, 4).site("s");
  repeat(v4, 2).instr(0, 0, 4, {0, 4}).end(1);
  CHECK_THROWS_WITH_AS(repeats_read(v4.s, true), doctest::Contains("unknown record kind 8"), TraceError);
  Bytes wrap = Bytes{}.header(2).site("s");
  repeat(wrap, ~std::uint64_t{0}).instr(0, 0, 4, {0, 4});
  repeat(wrap, 2).instr(0, 0, 4, {0, 4}).end(2);
  CHECK_THROWS_WITH_AS(repeats_read(wrap.s, true), doctest::Contains("exceed 2^64-1"), TraceError);
}

TEST_CASE("replay of a trace with repeats equals replay of the same executions written one by one") {
  // 40,000 records (the writer's index, so the parallel replay starts from its bookmarks), some repeated
  // up to 7 times, others once; the expanded trace writes each execution as a record of its own.
  const std::string merged = scratch("repeat_merged.bktrace"), expanded = scratch("repeat_expanded.bktrace");
  {
    BinaryTraceWriter m(OutputFile(merged), 4), e(OutputFile(expanded), 4);
    m.begin(32);
    e.begin(32);
    std::vector<std::uint64_t> addr(32);
    for (std::uint64_t i = 0; i < 40000; ++i) {
      const std::uint64_t stride = 4 * (1 + i % 5), times = 1 + (i * 7919) % 7;
      for (std::uint64_t l = 0; l < 32; ++l) addr[l] = (l * stride + 128 * (i % 3)) % 4096 / 4 * 4;
      const WarpRequest request{i % 2 ? Op::load : Op::store, 4, addr};
      const std::string site = "s" + std::to_string(i % 11);
      m.record_repeated(site, request, times);
      for (std::uint64_t k = 0; k < times; ++k) e.record(site, request);
    }
    m.end();
    e.end();
  }
  const BankModel model = make_preset("sm90");
  auto replay_file = [&](const std::string& path, unsigned threads) {
    auto source = open_trace(path);
    return threads == 1 ? replay(*source, model) : replay_parallel(*source, model, threads);
  };
  const ReplaySummary want = replay_file(expanded, 1);
  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    const ReplaySummary got = replay_file(merged, threads);
    CHECK(got.totals == want.totals);
    REQUIRE(got.sites.size() == want.sites.size());
    for (std::size_t s = 0; s < got.sites.size(); ++s) CHECK(got.sites[s].totals == want.sites[s].totals);
    CHECK(got.worst.cost.degree == want.worst.cost.degree);
    CHECK(got.worst.addr == want.worst.addr);
    CHECK(got.worst.index == want.worst.index);  // the index of a record's first execution
  }
  CHECK(want.totals.instructions > 40000);
  // An observer sees every execution, as in the expanded trace.
  std::uint64_t seen = 0;
  auto source = open_trace(merged);
  replay(*source, model, [&](const InstructionCost&) { ++seen; });
  CHECK(seen == want.totals.instructions);
}
