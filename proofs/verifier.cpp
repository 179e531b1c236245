#include "proofs/verifier.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <charconv>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "model/bank_model.hpp"
#include "proofs/claim_tally.hpp"
#include "sim/parallel/cluster.hpp"

namespace bankcheck::proofs {

std::string status_name(Status s) {
  switch (s) {
    case Status::holds: return "holds";
    case Status::fails: return "FAILS";
    case Status::finding: return "finding";
    case Status::vacuous: return "vacuous";
    case Status::not_applicable: return "not applicable";
  }
  return "?";
}

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

struct Task {
  std::size_t claim;
  Point point;
  std::uint64_t order;  // position in (w, E) order: the "first" counterexample is the lowest
};


Range range_of(const std::optional<Range>& forced, std::uint64_t lo, std::uint64_t hi) {
  return forced ? *forced : Range{lo, hi};
}

CheckOptions options_for(const VerifyRequest& req, const std::string& model) {
  CheckOptions o = req.options;
  o.model = model.empty() ? (req.model ? *req.model : "dmm") : model;
  return o;
}

BigCount cases_at(const Claim& c, const Point& p, const CheckOptions& o) {
  if (o.mode == Mode::exhaustive || !c.planned_cases) return c.exhaustive_cases(p);
  return c.planned_cases(p, o);
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

// The points of one claim: every point of the grid, or a seeded sample;
// points where the claim's model has no preset are left out.
std::vector<Point> points_of(const Claim& c, const VerifyRequest& req, Range w, Range E, const std::string& model) {
  std::vector<Point> pts;
  const bool triangle = c.domain.triangle && !req.E;  // default grid: E <= w only
  const bool every_warp = model.empty() || model == "dmm";
  auto keep = [&](const Point& p) {
    return (!triangle || p.E <= p.w) && (every_warp || model_defined(model, p.w)) && c.region(p) != Region::skip;
  };
  const BigCount grid = BigCount(w.hi - w.lo + 1) * (E.hi - E.lo + 1);
  const bool sample = req.options.mode == Mode::sample && req.sample_points > 0 && grid > req.sample_points;
  if (!sample) {
    if (grid > req.point_limit)
      throw std::invalid_argument("claim " + c.id + ": the grid has " + grid.str() + " points (more than " +
                                  std::to_string(req.point_limit) + "); narrow --w/--E or use --sample N");
    for (std::uint64_t a = w.lo; a <= w.hi; ++a)
      for (std::uint64_t e = E.lo; e <= E.hi; ++e)
        if (keep({a, e})) pts.push_back({a, e});
    return pts;
  }
  std::mt19937_64 rng(mix64(req.options.seed) ^ std::hash<std::string>{}(c.id));
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  std::uint64_t tries = 0;
  while (pts.size() < req.sample_points && tries++ < 20 * req.sample_points) {
    const Point p{w.lo + rng() % (w.hi - w.lo + 1), E.lo + rng() % (E.hi - E.lo + 1)};
    if (!keep(p) || !seen.insert({p.w, p.E}).second) continue;
    pts.push_back(p);
  }
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.w != b.w ? a.w < b.w : a.E < b.E; });
  return pts;
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

std::optional<std::string> model_for(const Claim& claim, const std::optional<std::string>& requested) {
  if (claim.models.empty()) return std::string();
  if (!requested) return claim.models.front();
  if (std::find(claim.models.begin(), claim.models.end(), *requested) != claim.models.end()) return *requested;
  return std::nullopt;
}

int VerifyReport::exit_code() const {
  bool checked = false;
  for (const ClaimReport& r : claims) {
    if (r.status == Status::fails) return 1;
    checked = checked || r.points_within + r.points_beyond > 0;
  }
  return checked || claims.empty() ? 0 : 2;  // a run that checked no point at all is a usage error
}

BigCount planned_cases(const std::vector<const Claim*>& claims, const VerifyRequest& req) {
  BigCount total = 0;
  for (const Claim* c : claims) {
    const auto model = model_for(*c, req.model);
    if (!model) continue;
    const Range w = range_of(req.w, c->domain.w_lo, c->domain.w_hi);
    const Range E = range_of(req.E, c->domain.E_lo, c->domain.E_hi);
    const CheckOptions o = options_for(req, *model);
    for (const Point& p : points_of(*c, req, w, E, *model)) total += cases_at(*c, p, o);
  }
  return total;
}

namespace {

/// Every rank's tallies merged, on every rank (Cluster::reduce), so all
/// ranks build the same report and exit code.
void merge_ranks(const Cluster& cluster, std::vector<ClaimTally>& tallies) {
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

}  // namespace

VerifyReport verify(const std::vector<const Claim*>& claims, const VerifyRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  VerifyReport report;
  std::vector<Task> tasks;
  std::vector<Range> ws, es;
  std::vector<std::optional<std::string>> models;
  std::vector<CheckOptions> options;  // per claim, without artifacts (see below)
  BigCount planned = 0;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const Claim& c = *claims[i];
    const Range w = range_of(req.w, c.domain.w_lo, c.domain.w_hi);
    const Range E = range_of(req.E, c.domain.E_lo, c.domain.E_hi);
    ws.push_back(w);
    es.push_back(E);
    models.push_back(model_for(c, req.model));
    options.push_back(options_for(req, models.back().value_or("")));
    // Checks run without artifacts; the reported counterexamples are checked
    // again below with the artifact directory, so only they leave trace files.
    options.back().artifact_dir.clear();
    if (!models.back()) continue;
    std::uint64_t order = 0;
    for (const Point& p : points_of(c, req, w, E, *models.back())) {
      if (req.options.mode == Mode::exhaustive) planned += c.exhaustive_cases(p);
      tasks.push_back({i, p, order++});
    }
  }
  if (std::none_of(models.begin(), models.end(), [](const auto& m) { return m.has_value(); }) && !claims.empty()) {
    std::set<std::string> names;
    for (const Claim* c : claims) names.insert(c->models.begin(), c->models.end());
    std::string stated;
    for (const std::string& m : names) stated += (stated.empty() ? "" : ", ") + m;
    throw std::invalid_argument("no selected claim is stated for model " + req.model.value_or("?") +
                                " (they are stated for: " + stated + "); drop --model or choose one of those");
  }
  if (req.options.mode == Mode::exhaustive && planned > req.case_limit)
    throw std::invalid_argument("--exhaustive would check about " + planned.str() + " cases (limit " +
                                req.case_limit.str() + "); narrow --w/--E or use --sample N");

  // Large points first, so the threads finish together.
  std::stable_sort(tasks.begin(), tasks.end(),
                   [](const Task& a, const Task& b) { return a.point.w * a.point.E > b.point.w * b.point.E; });
  std::uint64_t total_work = 0;
  for (const Task& t : tasks) total_work += t.point.w * t.point.E;

  // Under MPI each rank takes every size-th task of the sorted list (so each
  // gets a like share of large and small points).
  const int rank = req.cluster ? req.cluster->rank() : 0, ranks = req.cluster ? req.cluster->size() : 1;
  report.ranks = static_cast<unsigned>(ranks);
  if (ranks > 1) {
    std::vector<Task> mine;
    for (std::size_t k = static_cast<std::size_t>(rank); k < tasks.size(); k += static_cast<std::size_t>(ranks))
      mine.push_back(tasks[k]);
    tasks = std::move(mine);
    total_work = 0;
    for (const Task& t : tasks) total_work += t.point.w * t.point.E;
  }

  std::vector<ClaimTally> tallies(claims.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<std::uint64_t> done_work{0};
  unsigned threads = req.threads ? req.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, tasks.size())));
  report.threads = threads;

  auto worker = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= tasks.size()) return;
      const Task& t = tasks[k];
      const Claim& c = *claims[t.claim];
      const CheckOptions& o = options[t.claim];
      const Region region = c.asserted ? c.region(t.point) : Region::beyond;
      const auto t0 = std::chrono::steady_clock::now();
      PointResult res;
      bool unsupported = false;
      try {
        res = (c.fast_check && !o.brute_force ? c.fast_check : c.check)(t.point, o);
      } catch (const std::invalid_argument&) {
        unsupported = true;  // the algorithm does not accept these parameters
      } catch (const std::exception& e) {
        res.counterexample = Counterexample{t.point, std::string("the check threw: ") + e.what(),
                                            reproduce_command(c.id, t.point, o)};
      }
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ClaimTally& tally = tallies[t.claim];
      {
        std::lock_guard lock(tally.mutex);
        tally.seconds += secs;
        if (!unsupported) {
          auto& slot = region == Region::within ? tally.within : tally.beyond;
          (region == Region::within ? tally.points_within : tally.points_beyond) += 1;
          (region == Region::within ? tally.cases_within : tally.cases_beyond) += res.cases;
          if (res.counterexample) ClaimTally::keep_first(slot, Found{t.order, *res.counterexample});
        }
      }
      done_work.fetch_add(t.point.w * t.point.E);
      done.fetch_add(1);
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned i = 0; i < threads; ++i) pool.emplace_back(worker);
    if (req.progress) {
      auto report_progress = [&] {
        req.progress(VerifyProgress{done.load(), tasks.size(), done_work.load(), total_work});
      };
      while (done.load() < tasks.size()) {
        report_progress();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      report_progress();
    }
  }

  if (ranks > 1) merge_ranks(*req.cluster, tallies);

  for (std::size_t i = 0; i < claims.size(); ++i) {
    ClaimTally& t = tallies[i];
    ClaimReport r;
    r.claim = claims[i];
    r.model = models[i].value_or(req.model.value_or(""));
    r.w = ws[i];
    r.E = es[i];
    r.points_within = t.points_within;
    r.points_beyond = t.points_beyond;
    r.cases_within = t.cases_within;
    r.cases_beyond = t.cases_beyond;
    r.seconds = t.seconds;
    auto with_artifacts = [&](const Counterexample& found) {
      if (req.options.artifact_dir.empty() || rank != 0) return found;  // rank 0 alone writes files
      try {
        CheckOptions o = options[i];
        o.artifact_dir = req.options.artifact_dir;
        const PointResult again = claims[i]->check(found.point, o);
        if (again.counterexample) return *again.counterexample;
      } catch (const std::exception&) {
      }
      return found;
    };
    if (t.within) r.counterexample = with_artifacts(t.within->counterexample);
    if (t.beyond) r.finding = with_artifacts(t.beyond->counterexample);
    if (!models[i])
      r.status = Status::not_applicable;
    else if (r.counterexample)
      r.status = Status::fails;
    else if (r.finding)
      r.status = Status::finding;
    else if (r.points_within + r.points_beyond == 0)
      r.status = Status::vacuous;
    else
      r.status = Status::holds;
    report.claims.push_back(std::move(r));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace bankcheck::proofs
