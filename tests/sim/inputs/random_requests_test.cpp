// Tests of sim/inputs/random_requests.hpp: the requests are valid (widths
// of their op, aligned addresses below 2^32, sources where lanes are
// active), the same for a seed, and reach every op and every sm90 rule, so
// the fuzzers that draw them (docs/fuzzing.md) test the rules, not only
// "not modelled".
#include "sim/inputs/random_requests.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "model/bank_model.hpp"

using namespace bankcheck;
using namespace bankcheck::inputs;

TEST_CASE("random requests are valid trace records") {
  RandomRequests requests(1);
  for (int i = 0; i < 20000; ++i) {
    const FuzzRequest r = requests.next();
    CAPTURE(r.trace_line());
    REQUIRE(is_valid_access(r.op, r.width));
    REQUIRE(r.addr.size() == 32);
    REQUIRE((r.source.empty() || (has_source(r.op) && r.source.size() == 32)));
    for (unsigned l = 0; l < 32; ++l) {
      if (r.addr[l] == kInactive) {
        REQUIRE((r.source.empty() || r.source[l] == kInactive));
        continue;
      }
      REQUIRE(is_aligned_access(r.addr[l], r.width));
      REQUIRE(r.addr[l] <= 0xFFFFFFFFull);
      REQUIRE((r.source.empty() || r.source[l] != kInactive));
    }
  }
}

TEST_CASE("random requests: one seed, one sequence; another seed, another") {
  RandomRequests a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const FuzzRequest x = a.next(), y = b.next(), z = c.next();
    CHECK(x.trace_line() == y.trace_line());
    differs = differs || x.trace_line() != z.trace_line();
  }
  CHECK(differs);
}

TEST_CASE("random requests: a trace line as docs/trace-format.md writes it") {
  FuzzRequest r;
  r.op = Op::cpasync_cg;
  r.width = 16;
  r.addr[0] = 0, r.addr[8] = 16;
  r.source.assign(32, kInactive);
  r.source[0] = 4096, r.source[8] = 4112;
  std::string want = "@fuzz cpasync.cg 16 0";
  for (unsigned l = 1; l < 32; ++l) want += l == 8 ? " 16" : " -";
  want += " from 4096";
  for (unsigned l = 1; l < 32; ++l) want += l == 8 ? " 4112" : " -";
  CHECK(r.trace_line() == want);
  CHECK(r.mask() == (1u | 1u << 8));
  CHECK(r.active() == 2);
}

TEST_CASE("random requests reach every op and every rule of sm90") {
  RandomRequests fuzzer(29);
  std::map<Op, unsigned> modelled_by_op;
  std::map<AccessRule, unsigned> by_rule;
  std::set<std::string> shapes;
  const BankModel sm90 = make_preset("sm90");
  for (int i = 0; i < 20000; ++i) {
    const FuzzRequest r = fuzzer.next();
    const RequestCost c = sm90.cost(r.request());
    if (c.modelled && r.active() > 0) ++modelled_by_op[r.op], ++by_rule[sm90.rule(r.op, r.width)];
    unsigned quarters = 0;
    for (unsigned q = 0; q < 32; q += 8) quarters += ((r.mask() >> q) & 0xFFu) != 0;
    if (r.op == Op::cpasync_cg && c.modelled && c.wavefronts < quarters) shapes.insert("6b-rows-across-quarters");
    if (r.op == Op::cpasync_cg && c.modelled && r.source.empty()) shapes.insert("6b-lane-order");
    if (r.op == Op::cpasync && !r.source.empty() && c.modelled && c.conflicts() > 0) shapes.insert("6-stages");
  }
  for (unsigned op = 0; op < kOpCount; ++op) {
    const Op o = static_cast<Op>(op);
    if (is_global(o) || o == Op::cpasync_unmeasured || o == Op::unmeasured) continue;  // no bank rule: sectors, or a form never measured
    // wgmma is costed only with a sane operand size in lane 1's source, which random sources rarely are
    CHECK_MESSAGE(modelled_by_op[o] > (o == Op::wgmma ? 0u : 20u), op_name(o));
  }
  for (AccessRule rule : {AccessRule::phases, AccessRule::as_store, AccessRule::atomic_lanes, AccessRule::atomic_lanes2,
                          AccessRule::bypass_copy, AccessRule::phase_count, AccessRule::as_quad})
    CHECK_MESSAGE(by_rule[rule] > 20, static_cast<int>(rule));
  // the kind a rule once undercounted: a .cg copy writing fewer rows than it has quarter warps with lanes
  CHECK(shapes == std::set<std::string>{"6-stages", "6b-lane-order", "6b-rows-across-quarters"});
}
