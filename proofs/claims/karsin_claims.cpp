// Karsin 2015 (evaluation of modern GPU architecture features), Section 2 and
// 4.1.1: "only concurrent accesses to distinct cells of a memory bank cause
// conflicts"; "when k threads are in conflict, we say there is a k-way bank
// conflict". The claim holds the bank model to those definitions: k lanes on
// k distinct cells of one bank cost k accesses, on one cell (multicast) one.
#include <cstdint>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
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
  c.region = [](const Point& p) { return p.E <= p.w ? Region::within : Region::skip; };
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
        if (cost.wavefronts != want || cost.conflicts != want - 1) {
          res.counterexample = counterexample_at(id, p, o,
                                                 std::string(where) + " k lanes" + (multicast ? " on one cell" : "") +
                                                     ": " + to_string(cost.wavefronts) + " accesses, " +
                                                     to_string(cost.conflicts) + " conflicts; expected " +
                                                     to_string(want) + " and " + to_string(want - 1));
          return res;
        }
      }
    }
    return res;
  };
  return c;
}

}  // namespace

std::vector<Claim> karsin_claims() { return {k_way_claim()}; }

}  // namespace bankcheck::proofs
