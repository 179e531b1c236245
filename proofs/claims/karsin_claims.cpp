// Karsin 2015 (evaluation of modern GPU architecture features), Section 2 and
// 4.1.1: "only concurrent accesses to distinct cells of a memory bank cause
// conflicts"; "when k threads are in conflict, we say there is a k-way bank
// conflict". The claim holds the bank model to those definitions: k lanes on
// k distinct cells of one bank cost k accesses, on one cell (multicast) one.
//
// Section 4.2.1, global memory as aligned pages of w elements: "each
// memory access from a warp can load all w elements. If, however, threads
// attempt to access elements located in different pages, ... [it] requires
// additional memory accesses", and "if accessed items are not aligned to a
// multiple of w, two pages must be loaded". karsin.paged_access and
// karsin.misaligned hold model/global_access.hpp's page count to those
// statements, on requests built to touch a known number of pages.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "model/global_access.hpp"
#include "proofs/claims/claim_groups.hpp"

namespace bankcheck::proofs {
namespace {

using std::to_string;
using std::uint64_t;

/// Word addresses of a request: the k lanes `chosen` read cells of bank 0
/// (distinct cells 0, w, 2w, ... or all cell 0), every other lane its own bank.
std::vector<uint64_t> request_words(uint64_t w, const std::vector<char>& chosen, bool multicast) {
  std::vector<uint64_t> words(w);
  uint64_t next_bank = 1, next_cell = 0;
  for (uint64_t l = 0; l < w; ++l) words[l] = chosen[l] ? (multicast ? 0 : w * next_cell++) : next_bank++;
  return words;
}

Claim k_way_claim() {
  Claim c;
  c.id = "karsin.k_way";
  c.paper = "Karsin 2015";
  c.lemma = "Section 2 and 4.1.1, k-way bank conflicts";
  c.statement = "a warp request in which k lanes read k distinct cells of one bank (the others one bank each) costs "
                "k accesses (a k-way conflict, k - 1 conflicts); k lanes on one cell cost one (multicast) (point = "
                "(w, k); the k lanes first, last and strided; 4-byte words)";
  c.hypotheses = "banks = lanes = w (Section 2: \"we assume both ... is w\"); 1 <= k <= w";
  c.category = "bank model";
  c.domain = Domain{1, 64, 1, 64};
  c.models = {"dmm", "sm90"};
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::outside; };
  c.exhaustive_cases = [](const Point&) { return BigCount(6); };
  c.check = [id = c.id](const Point& p, const CheckOptions& o) {
    PointResult res;
    const BankModel model = make_preset(o.model, static_cast<unsigned>(p.w));
    const uint64_t w = p.w, k = p.E;
    for (const char* where : {"first", "last", "strided"}) {
      std::vector<char> chosen(w, 0);
      for (uint64_t i = 0; i < k; ++i) chosen[where[0] == 'f' ? i : where[0] == 'l' ? w - 1 - i : i * w / k] = 1;
      for (bool multicast : {false, true}) {
        ++res.cases;
        std::vector<uint64_t> bytes = request_words(w, chosen, multicast);
        for (auto& b : bytes) b *= 4;
        const RequestCost cost = model.cost(WarpRequest{Op::load, 4, bytes});
        const uint64_t want = multicast ? 1 : k;
        if (cost.wavefronts != want || cost.conflicts() != want - 1) {
          res.counterexample = counterexample_at(id, p, o,
                                                 std::string(where) + " k lanes" + (multicast ? " on one cell" : "") +
                                                     ": " + to_string(cost.wavefronts) + " accesses, " +
                                                     to_string(cost.conflicts()) + " conflicts; expected " +
                                                     to_string(want) + " and " + to_string(want - 1));
          return res;
        }
      }
    }
    return res;
  };
  return c;
}

/// Pages of `width`-byte elements in aligned groups of w, walked byte by byte
/// (the definition, independent of model/global_access.cpp).
uint64_t pages_by_walk(uint64_t w, unsigned width, const std::vector<uint64_t>& addr) {
  std::set<uint64_t> pages;
  for (uint64_t a : addr)
    for (uint64_t b = a; b < a + width; ++b) pages.insert(b / (w * width));
  return pages.size();
}

/// The model's pages (and the walk's) of a request; "" when both are `want`.
std::string page_mismatch(uint64_t w, unsigned width, const std::vector<uint64_t>& addr, uint64_t want) {
  const GlobalCost c = global_cost(GlobalGeometry{32, 128, static_cast<unsigned>(w)}, WarpRequest{Op::gld, width, addr});
  const uint64_t walked = pages_by_walk(w, width, addr);
  if (c.pages == want && walked == want) return "";
  return to_string(c.pages) + " pages (walk: " + to_string(walked) + "), expected " + to_string(want);
}

constexpr unsigned kWidths[] = {1, 2, 4, 8, 16};

Claim paged_access_claim() {
  Claim c;
  c.id = "karsin.paged_access";
  c.paper = "Karsin 2015";
  c.lemma = "Section 4.2.1, aligned paged access";
  c.statement = "a warp request whose w lanes read elements of p distinct aligned pages of w elements costs p "
                "accesses; p = 1 when the lanes read one page in any order (point = (w, p); lanes spread over the "
                "pages in blocks, round robin and scattered within pages; widths 1, 2, 4, 8, 16 bytes)";
  c.hypotheses = "pages of w elements aligned to w elements; 1 <= p <= w";
  c.category = "global memory";
  c.domain = Domain{1, 64, 1, 64};
  c.models = {"dmm", "sm90"};
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::outside; };
  c.exhaustive_cases = [](const Point&) { return BigCount(15); };
  c.check = [id = c.id](const Point& pt, const CheckOptions& o) {
    PointResult res;
    const uint64_t w = pt.w, p = pt.E;
    for (unsigned width : kWidths)
      for (const char* layout : {"blocked", "round robin", "scattered"}) {
        ++res.cases;
        std::vector<uint64_t> addr(w);
        for (uint64_t l = 0; l < w; ++l) {
          // page (of pages 3, 5, 7, ...: not adjacent) and element within it
          const uint64_t page = layout[0] == 'b' ? l * p / w : l % p;
          const uint64_t element = layout[0] == 's' ? (l * 7 + 3) % w : l % w;
          addr[l] = ((2 * page + 3) * w + element) * width;
        }
        if (const std::string bad = page_mismatch(w, width, addr, p); !bad.empty()) {
          res.counterexample = counterexample_at(id, pt, o, std::string(layout) + ", width " + to_string(width) + ": " + bad);
          return res;
        }
      }
    return res;
  };
  return c;
}

Claim misaligned_claim() {
  Claim c;
  c.id = "karsin.misaligned";
  c.paper = "Karsin 2015";
  c.lemma = "Section 4.2.1, misaligned access";
  c.statement = "w lanes reading w consecutive elements starting s elements past a page boundary cost two pages "
                "for 0 < s < w and one for s = 0 (point = (w, s + 1); widths 1, 2, 4, 8, 16 bytes; the lanes in "
                "order and reversed)";
  c.hypotheses = "pages of w elements aligned to w elements; w >= 2 for a misalignment to exist";
  c.category = "global memory";
  c.domain = Domain{1, 64, 1, 64};
  c.models = {"dmm", "sm90"};
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::outside; };
  c.exhaustive_cases = [](const Point&) { return BigCount(10); };
  c.check = [id = c.id](const Point& pt, const CheckOptions& o) {
    PointResult res;
    const uint64_t w = pt.w, shift = pt.E - 1;
    for (unsigned width : kWidths)
      for (bool reversed : {false, true}) {
        ++res.cases;
        std::vector<uint64_t> addr(w);
        for (uint64_t l = 0; l < w; ++l) addr[l] = (5 * w + shift + l) * width;
        if (reversed) std::reverse(addr.begin(), addr.end());
        if (const std::string bad = page_mismatch(w, width, addr, shift == 0 ? 1 : 2); !bad.empty()) {
          res.counterexample = counterexample_at(id, pt, o, "shift " + to_string(shift) + ", width " +
                                                                to_string(width) + ": " + bad);
          return res;
        }
      }
    return res;
  };
  return c;
}

}  // namespace

std::vector<Claim> karsin_claims() { return {k_way_claim(), paged_access_claim(), misaligned_claim()}; }

}  // namespace bankcheck::proofs
