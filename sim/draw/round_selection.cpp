#include "sim/draw/round_selection.hpp"

#include <charconv>
#include <stdexcept>

namespace bankcheck {

RoundSelection select_rounds(const std::vector<GridRecorder::Round>& rounds, std::optional<unsigned> phase,
                             std::string_view spec) {
  const std::string of_phase = phase ? " of phase " + std::to_string(*phase) : "";
  // The global index of each round that --round counts.
  std::vector<std::size_t> counted;
  for (std::size_t i = 0; i < rounds.size(); ++i)
    if (!phase || rounds[i].phase == *phase) counted.push_back(i);
  if (counted.empty()) {
    unsigned phases = 0;
    for (const auto& r : rounds) phases = std::max(phases, r.phase + 1);
    throw std::invalid_argument("--phase: must be in 0.." + std::to_string(phases == 0 ? 0 : phases - 1) + " (got " +
                                std::to_string(phase.value_or(0)) + ", which has no rounds)");
  }
  RoundSelection out;
  out.rounds.assign(rounds.size(), false);
  if (spec == "all") {
    for (std::size_t i : counted) out.rounds[i] = true;
    out.first = counted.front();
    out.description = "all rounds" + of_phase;
    return out;
  }
  const std::string within = phase ? " within phase " + std::to_string(*phase) : "";
  auto number = [&](std::string_view text) {
    std::size_t r = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
      throw std::invalid_argument("--round: must be a number, a range A-B, a comma list of those, or 'all' (got '" +
                                  std::string(spec) + "')");
    if (r >= counted.size())
      throw std::invalid_argument("--round: must be in 0.." + std::to_string(counted.size() - 1) + within + " (got " +
                                  std::string(text) + ")");
    return r;
  };
  bool first = true;
  std::string_view rest = spec;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto dash = item.find('-');
    const std::size_t lo = number(item.substr(0, dash));
    const std::size_t hi = dash == std::string_view::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) throw std::invalid_argument("--round: the range " + std::string(item) + " is empty");
    for (std::size_t r = lo; r <= hi; ++r) out.rounds[counted[r]] = true;
    if (first) out.first = counted[lo];
    first = false;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  const bool one = spec.find_first_of(",-") == std::string_view::npos;
  out.description = (one ? "round " : "rounds ") + std::string(spec) + of_phase;
  return out;
}

std::string round_listing(const std::vector<GridRecorder::Round>& rounds) {
  std::string out;
  std::size_t in_phase = 0;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    in_phase = r > 0 && rounds[r].phase == rounds[r - 1].phase ? in_phase + 1 : 0;
    out += "round " + std::to_string(r) + " (--phase " + std::to_string(rounds[r].phase) + " --round " +
           std::to_string(in_phase) + "): " + rounds[r].name + " k=" + std::to_string(rounds[r].k) + "\n";
  }
  return out;
}

}  // namespace bankcheck
