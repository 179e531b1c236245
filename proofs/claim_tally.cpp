#include "proofs/claim_tally.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/parallel/cluster.hpp"

namespace bankcheck::proofs {
namespace {

using Json = nlohmann::json;

Json found_to_json(const std::optional<Found>& f) {
  if (!f) return nullptr;
  const Counterexample& c = f->counterexample;
  return {f->order, c.point.w, c.point.E, c.detail, c.reproduce};
}

std::optional<Found> found_from_json(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return Found{j.at(0), Counterexample{Point{j.at(1), j.at(2)}, j.at(3), j.at(4)}};
}

}  // namespace

void ClaimTally::add(Region region, const PointResult& result, std::uint64_t order, double secs) {
  std::lock_guard lock(mutex);
  seconds += secs;
  const bool inside = region == Region::within;
  (inside ? points_within : points_beyond) += 1;
  (inside ? cases_within : cases_beyond) += result.cases;
  if (result.counterexample) keep_first(inside ? within : beyond, Found{order, *result.counterexample});
  if (result.undecided) {
    ++points_undecided;
    keep_first(undecided, Found{order, *result.undecided});
  }
}

void ClaimTally::add_error(Region region, const Counterexample& what, std::uint64_t order, double secs) {
  std::lock_guard lock(mutex);
  seconds += secs;
  (region == Region::within ? points_within : points_beyond) += 1;
  keep_first(error, Found{order, what});
}

void ClaimTally::keep_first(std::optional<Found>& slot, const Found& found) {
  if (!slot || slot->order > found.order) slot = found;
}

void ClaimTally::merge(const ClaimTally& other) {
  points_within += other.points_within;
  points_beyond += other.points_beyond;
  cases_within += other.cases_within;
  cases_beyond += other.cases_beyond;
  points_undecided += other.points_undecided;
  seconds += other.seconds;
  if (other.within) keep_first(within, *other.within);
  if (other.beyond) keep_first(beyond, *other.beyond);
  if (other.error) keep_first(error, *other.error);
  if (other.undecided) keep_first(undecided, *other.undecided);
}

std::string tallies_to_text(const std::vector<ClaimTally>& tallies) {
  Json all = Json::array();
  for (const ClaimTally& t : tallies)
    all.push_back({t.points_within, t.points_beyond, t.cases_within, t.cases_beyond, t.seconds,
                   found_to_json(t.within), found_to_json(t.beyond), found_to_json(t.error), t.points_undecided,
                   found_to_json(t.undecided)});
  return all.dump();
}

void merge_tallies_from_text(const std::string& text, std::vector<ClaimTally>& into) {
  try {
    const Json all = Json::parse(text);
    if (!all.is_array() || all.size() != into.size())
      throw std::invalid_argument("a rank's tallies are for " + std::to_string(all.size()) + " claims, not " +
                                  std::to_string(into.size()));
    for (std::size_t i = 0; i < into.size(); ++i) {
      const Json& j = all[i];
      ClaimTally t;
      t.points_within = j.at(0);
      t.points_beyond = j.at(1);
      t.cases_within = j.at(2);
      t.cases_beyond = j.at(3);
      t.seconds = j.at(4);
      t.within = found_from_json(j.at(5));
      t.beyond = found_from_json(j.at(6));
      t.error = found_from_json(j.at(7));
      t.points_undecided = j.at(8);
      t.undecided = found_from_json(j.at(9));
      into[i].merge(t);
    }
  } catch (const Json::exception& e) {
    throw std::invalid_argument(std::string("a rank's tallies are unreadable: ") + e.what());
  }
}

void merge_over_ranks(const Cluster& cluster, std::vector<ClaimTally>& tallies) {
  ShardOutcome mine;
  try {
    mine.payload = tallies_to_text(tallies);
  } catch (const std::exception& e) {
    mine = {false, e.what()};
  }
  const std::string merged = cluster.reduce(mine, [n = tallies.size()](const std::vector<std::string>& parts) {
    std::vector<ClaimTally> sum(n);
    for (const std::string& part : parts) merge_tallies_from_text(part, sum);
    return tallies_to_text(sum);
  });
  std::vector<ClaimTally> sum(tallies.size());
  merge_tallies_from_text(merged, sum);
  tallies.swap(sum);
}

}  // namespace bankcheck::proofs
