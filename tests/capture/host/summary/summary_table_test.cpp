// Tests of capture/host/summary/summary_table.hpp, the table the capture patch
// fills on the GPU, run here on the host from threads with the same code:
// per-instruction totals must equal a sequential sum of BankModel's costs
// (the CPU path, SIMD included), the worst record must be one with the most
// excess wavefronts, a full table must count what it could not take, and
// an instruction seen with two kinds must be counted, not merged.
#include "capture/host/summary/summary_table.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <thread>
#include <vector>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/summary/instruction_summary.hpp"
#include "model/bank_model.hpp"

using namespace bankcheck;
using namespace bankcheck::capture;

namespace {

struct Table {
  std::vector<SummarySlot> slots;
  std::uint64_t overflow = 0, mismatch = 0;
  SummaryTableView view;
  Table(std::uint32_t capacity, std::uint32_t shards) : slots(std::size_t{capacity} * shards) {
    view = SummaryTableView{slots.data(), capacity, shards, &overflow, &mismatch};
  }
};

/// A request at one of `pcs` instructions; each pc has one kind.
SummaryRequest random_request(std::mt19937_64& rng, unsigned pcs) {
  static constexpr Op kOps[] = {Op::load, Op::store, Op::atom, Op::ldsm, Op::cpasync};
  static constexpr unsigned kWidths[] = {4, 8, 16, 4, 16};
  SummaryRequest r;
  const unsigned which = static_cast<unsigned>(rng() % pcs);
  r.pc = 0x7f0000001000ull + 16ull * which;
  r.op = kOps[which % 5];
  r.width = kWidths[which % 5];
  r.mask = rng() % 4 == 0 ? static_cast<std::uint32_t>(rng()) : ~0u;
  const std::uint32_t window = rng() % 2 ? 64 : 8192, align = r.width;
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = (r.mask >> l) & 1u ? 1024 + static_cast<std::uint32_t>(rng() % window) * align : 0;
  r.block[0] = static_cast<std::uint32_t>(rng() % 100);
  r.warp = static_cast<std::uint32_t>(rng() % 8);
  return r;
}

RequestCost cpu_cost(const BankModel& model, Op op, const SummaryRequest& r) {
  std::vector<std::uint64_t> addr(32, kInactive);
  for (unsigned l = 0; l < 32; ++l)
    if ((r.mask >> l) & 1u) addr[l] = r.addr[l];
  return model.cost(WarpRequest{op, r.width, addr});
}

struct Expected {
  std::uint64_t executions = 0, lanes = 0, wavefronts = 0, ideal = 0, alt_wavefronts = 0, worst_excess = 0;
  std::uint64_t alt_worst_excess = 0;  ///< the most excess of one execution costed as the alternative kind
  std::uint32_t degree = 0;
};

/// Per pc, the sums and maxima of the CPU model's costs over every request, taken in order.
std::map<std::uint64_t, Expected> sequential_sums(const BankModel& model,
                                                  const std::vector<std::vector<SummaryRequest>>& work) {
  std::map<std::uint64_t, Expected> want;
  for (const auto& list : work)
    for (const SummaryRequest& r : list) {
      Expected& e = want[r.pc];
      const RequestCost c = cpu_cost(model, r.op, r);
      e.executions += 1;
      e.lanes += static_cast<unsigned>(__builtin_popcount(r.mask));
      e.wavefronts += c.wavefronts;
      e.ideal += c.ideal;
      e.degree = std::max(e.degree, c.degree);
      e.worst_excess = std::max(e.worst_excess, c.conflicts());
      const RequestCost a = cpu_cost(model, alternative_op(r.op, r.width), r);
      e.alt_wavefronts += a.wavefronts;
      e.alt_worst_excess = std::max(e.alt_worst_excess, a.conflicts());
    }
  return want;
}

/// One thread per list, each summarizing its requests into shard k % shards, as the GPU's warps do.
void fill_from_threads(Table& t, const std::vector<std::vector<SummaryRequest>>& work) {
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < work.size(); ++k)
    threads.emplace_back([&, k] {
      for (const SummaryRequest& r : work[k]) summarize(t.view, k % t.view.shards, r);
    });
  for (auto& th : threads) th.join();
}

/// The worst records a row keeps are ones that cost that much on the CPU.
void check_worst_records(const BankModel& model, const InstructionSummary& row, const Expected& e) {
  REQUIRE(row.worst);
  CHECK(row.worst->excess == e.worst_excess);
  SummaryRequest again;
  again.op = row.op;
  again.width = row.width;
  again.mask = row.worst->mask;
  for (unsigned l = 0; l < 32; ++l) again.addr[l] = row.worst->addr[l];
  const RequestCost c = cpu_cost(model, row.op, again);
  CHECK(c.conflicts() == row.worst->excess);
  CHECK(c.wavefronts == row.worst->wavefronts);
  // An atom or a 16-byte cp.async also keeps the alternative kind's own worst
  // record (the SASS may refine the kind after the run: H100 capture of CUB's
  // radix sort, where the atom column's worst was not atom.popc's), when
  // the alternative kind costs at least one execution (a cpasync.cg
  // without sources is often not modelled: rule 6b).
  CHECK(row.alt_worst.has_value() == (row.alt.has_value() && row.alt->unmodelled < row.executions));
  if (!row.alt_worst) return;
  CHECK(row.alt_worst->excess == e.alt_worst_excess);
  for (unsigned l = 0; l < 32; ++l) again.addr[l] = row.alt_worst->addr[l];
  again.mask = row.alt_worst->mask;
  CHECK(cpu_cost(model, alternative_op(row.op, row.width), again).conflicts() == row.alt_worst->excess);
}

}  // namespace

TEST_CASE("threads filling the table give the sequential sums of the CPU model's costs") {
  const BankModel model = make_preset("sm90");
  std::mt19937_64 rng(15);
  const unsigned kThreads = 8, kPerThread = 3000, kPcs = 40;
  std::vector<std::vector<SummaryRequest>> work(kThreads);
  for (auto& list : work)
    for (unsigned i = 0; i < kPerThread; ++i) list.push_back(random_request(rng, kPcs));
  const std::map<std::uint64_t, Expected> want = sequential_sums(model, work);
  Table t(64, 4);
  fill_from_threads(t, work);
  CHECK(t.overflow == 0);
  CHECK(t.mismatch == 0);

  FunctionMap functions;
  functions.add("kernel", 0x7f0000001000ull, 0x1000);
  const auto rows = collect_summary(t.slots.data(), t.slots.size(), 3, functions);
  REQUIRE(rows.size() == want.size());
  for (const InstructionSummary& row : rows) {
    const auto site = parse_site_name(row.site);
    REQUIRE(site);
    const Expected& e = want.at(0x7f0000001000ull + site->offset);
    CAPTURE(row.site);
    CHECK(row.launch == 3);
    CHECK(row.executions == e.executions);
    CHECK(row.lanes == e.lanes);
    CHECK(row.costs.unmodelled == 0);
    CHECK(row.costs.wavefronts == e.wavefronts);
    CHECK(row.costs.ideal == e.ideal);
    CHECK(row.costs.degree == e.degree);
    CHECK(row.alt.has_value() == (alternative_op(row.op, row.width) != row.op));
    if (row.alt) CHECK(row.alt->wavefronts == e.alt_wavefronts);
    check_worst_records(model, row, e);
  }
}

TEST_CASE("a full shard counts every request it cannot take; nothing is dropped silently") {
  std::mt19937_64 rng(16);
  Table t(8, 1);  // 8 slots, 20 instructions
  std::uint64_t sent = 0;
  for (int i = 0; i < 2000; ++i) {
    summarize(t.view, 0, random_request(rng, 20));
    ++sent;
  }
  FunctionMap functions;
  std::uint64_t taken = 0;
  const auto rows = collect_summary(t.slots.data(), t.slots.size(), 0, functions);
  for (const auto& row : rows) taken += row.executions;
  CHECK(rows.size() == 8);
  CHECK(t.overflow > 0);
  CHECK(taken + t.overflow == sent);
  CHECK(rows.front().site.rfind("?+0x", 0) == 0);  // pcs outside every known function keep their address
}

TEST_CASE("an instruction seen with another kind is counted apart, and unmodelled requests are counted, not costed") {
  Table t(16, 2);
  SummaryRequest r;
  r.pc = 0x1000;
  r.mask = ~0u;
  summarize(t.view, 0, r);
  r.width = 8;  // the same pc with another width
  summarize(t.view, 0, r);
  CHECK(t.mismatch == 1);
  r.pc = 0x2000;
  r.width = 12;  // 12 bytes at addresses not 16-byte aligned: no single instruction
  for (unsigned l = 0; l < 32; ++l) r.addr[l] = 4 + 16 * l;
  summarize(t.view, 1, r);
  FunctionMap functions;
  const auto rows = collect_summary(t.slots.data(), t.slots.size(), 0, functions);
  REQUIRE(rows.size() == 2);
  const InstructionSummary& twelve = rows[0].width == 12 ? rows[0] : rows[1];
  CHECK(twelve.executions == 1);
  CHECK(twelve.costs.unmodelled == 1);
  CHECK(twelve.costs.unmodelled_lanes == 32);
  CHECK(twelve.costs.wavefronts == 0);
  CHECK_FALSE(twelve.worst);
}
