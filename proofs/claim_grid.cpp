#include "proofs/claim_grid.hpp"

#include <algorithm>
#include <charconv>
#include <random>
#include <set>
#include <stdexcept>

#include "model/bank_model.hpp"

namespace bankcheck::proofs {
namespace {

constexpr std::uint64_t kMaxParam = std::uint64_t{1} << 20;  // w E fits 64-bit arithmetic

std::uint64_t parse_value(std::string_view s, const std::string& flag, const std::string& text) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size())
    throw std::invalid_argument(flag + " '" + text + "': expected A..B or A with whole numbers 1.." +
                                std::to_string(kMaxParam));
  if (v < 1 || v > kMaxParam)
    throw std::invalid_argument(flag + " '" + text + "': values must lie in 1.." + std::to_string(kMaxParam));
  return v;
}

// Whether the preset exists at warp size w (sm90 and Kepler need w = 32).
bool model_defined(const std::string& model, std::uint64_t w) {
  if (model.empty() || model == "dmm") return true;
  try {
    (void)make_preset(model, static_cast<unsigned>(w));
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

Range parse_range(const std::string& text, const std::string& flag) {
  const auto dots = text.find("..");
  Range r;
  if (dots == std::string::npos) {
    r.lo = r.hi = parse_value(text, flag, text);
  } else {
    r.lo = parse_value(std::string_view(text).substr(0, dots), flag, text);
    r.hi = parse_value(std::string_view(text).substr(dots + 2), flag, text);
  }
  if (r.lo > r.hi)
    throw std::invalid_argument(flag + " '" + text + "' is empty or reversed (need A <= B in A..B)");
  return r;
}

ClaimGrid claim_grid(const Claim& c, const GridRequest& req, const std::string& model) {
  ClaimGrid grid;
  grid.w = req.w.value_or(Range{c.domain.w_lo, c.domain.w_hi});
  grid.E = req.E.value_or(Range{c.domain.E_lo, c.domain.E_hi});
  const Range w = grid.w, E = grid.E;
  std::vector<Point>& pts = grid.points;
  const bool triangle = c.domain.triangle && !req.E;  // default grid: E <= w only
  const bool every_warp = model.empty() || model == "dmm";
  auto in_domain = [&](const Point& p) {
    return (every_warp || model_defined(model, p.w)) && c.region(p) != Region::outside;
  };
  const BigCount size = BigCount(w.hi - w.lo + 1) * (E.hi - E.lo + 1);
  const bool sample = req.sample_points > 0 && size > req.sample_points;
  if (!sample) {
    if (size > req.point_limit)
      throw std::invalid_argument("claim " + c.id + ": the grid has " + size.str() + " points (more than " +
                                  std::to_string(req.point_limit) + "); narrow --w/--E or use --sample N");
    for (std::uint64_t a = w.lo; a <= w.hi; ++a)
      for (std::uint64_t e = E.lo; e <= E.hi && (!triangle || e <= a); ++e) {
        if (in_domain({a, e}))
          pts.push_back({a, e});
        else
          ++grid.outside;
      }
    return grid;
  }
  std::mt19937_64 rng(mix64(req.seed) ^ std::hash<std::string>{}(c.id));
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  std::uint64_t tries = 0;
  while (pts.size() < req.sample_points && tries++ < 20 * req.sample_points) {
    const Point p{w.lo + rng() % (w.hi - w.lo + 1), E.lo + rng() % (E.hi - E.lo + 1)};
    if ((triangle && p.E > p.w) || !seen.insert({p.w, p.E}).second) continue;
    if (in_domain(p))
      pts.push_back(p);
    else
      ++grid.outside;
  }
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.w != b.w ? a.w < b.w : a.E < b.E; });
  return grid;
}

}  // namespace bankcheck::proofs
