#pragma once
// Search for worst-case inputs where no construction is published (and to
// test the constructions): exhaustive enumeration for tiny instances,
// simulated annealing beyond. The searched objects are small: a merge
// labeling of one warp (which list each merged output comes from) or the
// query set of one warp; the cost is the replayed DMM / bank-model count.
#include <cstdint>
#include <functional>
#include <vector>

namespace bankcheck::inputs {

/// Budget of a search: wall-clock seconds and a seed (same seed and budget
/// in iterations -> same result; the time limit only cuts it short).
struct SearchBudget {
  double seconds = 1.0;
  std::uint64_t seed = 1;
  std::uint64_t max_iterations = ~std::uint64_t{0};
};

/// One warp's merge labeling, cut into groups of `group` consecutive outputs
/// that each take exactly group/2 outputs from B (a merge of two equal runs):
/// the shape of CUB's in-block passes with fewer threads per merge than a warp.
struct GroupedLabels {
  unsigned warp = 32;
  unsigned items = 17;
  unsigned group = 34;  ///< outputs per merge group (threads per merge * items); divides warp * items
};

/// The paper-step cost (SPAA'25 Section 4 counting, DMM with `warp` banks) of
/// a grouped labeling: group g's A at element g*group, its B at g*group + group/2.
std::uint64_t grouped_paper_cost(const GroupedLabels& shape, const std::vector<std::uint8_t>& from_b);

struct LabelSearchResult {
  std::vector<std::uint8_t> from_b;
  std::uint64_t cost = 0;
  std::uint64_t iterations = 0;
  bool exhaustive = false;  ///< true when every labeling was tried (the maximum is exact)
};

/// Maximize `cost` over labelings that keep each group balanced: exhaustive
/// when the number of labelings is at most `exhaustive_limit`, otherwise
/// simulated annealing (swap an A and a B output of one group) from `start`.
LabelSearchResult search_labels(unsigned length, unsigned group,
                                const std::function<std::uint64_t(const std::vector<std::uint8_t>&)>& cost,
                                const std::vector<std::uint8_t>& start, const SearchBudget& budget,
                                std::uint64_t exhaustive_limit = 1u << 20);

/// Maximize the paper-step cost of a grouped labeling over per-thread splits:
/// thread i takes a_i outputs from A (its group's a_i sum to group/2) and
/// reads them first or last. Section 4's constructions live in this space,
/// which is far smaller than all labelings. Annealing moves one A item between
/// two threads of a group or flips a thread's order; the acceptance uses the
/// cost plus a smooth tie-breaker (sum over steps of squared bank loads).
LabelSearchResult search_splits(const GroupedLabels& shape, const SearchBudget& budget);

/// Maximize `cost` over vectors of `lanes` values in [0, range): exhaustive
/// when range^lanes <= exhaustive_limit, else annealing (change one lane).
struct VectorSearchResult {
  std::vector<std::uint64_t> values;
  std::uint64_t cost = 0;
  std::uint64_t iterations = 0;
  bool exhaustive = false;
};
VectorSearchResult search_vectors(unsigned lanes, std::uint64_t range,
                                  const std::function<std::uint64_t(const std::vector<std::uint64_t>&)>& cost,
                                  const SearchBudget& budget, std::uint64_t exhaustive_limit = 1u << 20);

}  // namespace bankcheck::inputs
