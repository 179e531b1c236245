#include "proofs/verifier.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "proofs/claim_tally.hpp"
#include "sim/parallel/cluster.hpp"

namespace bankcheck::proofs {

std::string status_name(Status s) {
  switch (s) {
    case Status::holds: return "holds";
    case Status::fails: return "FAILS";
    case Status::undecided: return "UNDECIDED";
    case Status::partial: return "PARTIAL";
    case Status::finding: return "finding";
    case Status::vacuous: return "vacuous";
    case Status::not_applicable: return "not applicable";
  }
  return "?";
}

std::optional<std::string> model_for(const Claim& claim, const std::optional<std::string>& requested) {
  if (claim.models.empty()) return std::string();
  if (!requested) return claim.models.front();
  if (std::find(claim.models.begin(), claim.models.end(), *requested) != claim.models.end()) return *requested;
  return std::nullopt;
}

int VerifyReport::exit_code() const {
  bool checked = false, open = !stopped.empty();
  for (const ClaimReport& r : claims) {
    if (r.status == Status::fails) return 1;
    open = open || r.status == Status::undecided || r.status == Status::partial;
    checked = checked || r.points_within + r.points_beyond > 0;
  }
  if (open) return 3;
  return checked || claims.empty() ? 0 : 2;  // a run that checked no point at all is a usage error
}

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

/// What a run does with one claim: its model (none: not applicable), the
/// options its checks get and its grid.
struct ClaimPlan {
  std::optional<std::string> model;
  CheckOptions options;  ///< without the artifact directory (see with_artifacts)
  ClaimGrid grid;
};

GridRequest grid_request(const VerifyRequest& req) {
  GridRequest g;
  g.w = req.w;
  g.E = req.E;
  g.sample_points = req.options.mode == Mode::sample ? req.sample_points : 0;
  g.seed = req.options.seed;
  g.point_limit = req.point_limit;
  return g;
}

CheckOptions options_for(const VerifyRequest& req, const std::string& model) {
  CheckOptions o = req.options;
  o.model = model.empty() ? (req.model ? *req.model : "dmm") : model;
  return o;
}

ClaimPlan plan_claim(const Claim& c, const VerifyRequest& req) {
  ClaimPlan plan;
  plan.model = model_for(c, req.model);
  plan.options = options_for(req, plan.model.value_or(""));
  // Checks run without artifacts; the reported counterexamples are checked
  // again with the artifact directory, so only they leave trace files.
  plan.options.artifact_dir.clear();
  if (plan.model) {
    plan.grid = claim_grid(c, grid_request(req), *plan.model);
  } else {
    plan.grid.w = req.w.value_or(Range{c.domain.w_lo, c.domain.w_hi});
    plan.grid.E = req.E.value_or(Range{c.domain.E_lo, c.domain.E_hi});
  }
  return plan;
}

BigCount cases_at(const Claim& c, const Point& p, const CheckOptions& o) {
  if (o.mode == Mode::exhaustive || !c.planned_cases) return c.exhaustive_cases(p);
  return c.planned_cases(p, o);
}

/// Refuses a run where no claim applies to the requested model, and an
/// --exhaustive run over the case limit.
void check_run_size(const std::vector<const Claim*>& claims, const std::vector<ClaimPlan>& plans,
                    const VerifyRequest& req) {
  if (!claims.empty() && std::none_of(plans.begin(), plans.end(), [](const ClaimPlan& p) { return p.model.has_value(); })) {
    std::set<std::string> names;
    for (const Claim* c : claims) names.insert(c->models.begin(), c->models.end());
    std::string stated;
    for (const std::string& m : names) stated += (stated.empty() ? "" : ", ") + m;
    throw std::invalid_argument("no selected claim is stated for model " + req.model.value_or("?") +
                                " (they are stated for: " + stated + "); drop --model or choose one of those");
  }
  if (req.options.mode != Mode::exhaustive) return;
  BigCount planned = 0;
  for (std::size_t i = 0; i < claims.size(); ++i)
    for (const Point& p : plans[i].grid.points) planned += claims[i]->exhaustive_cases(p);
  if (planned > req.case_limit)
    throw std::invalid_argument("--exhaustive would check about " + planned.str() + " cases (limit " +
                                req.case_limit.str() + "); narrow --w/--E or use --sample N");
}

/// One task per point of every applicable claim, in each claim's (w, E) order.
std::vector<PointTask> tasks_of(const std::vector<ClaimPlan>& plans) {
  std::vector<PointTask> tasks;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (!plans[i].model) continue;
    std::uint64_t order = 0;
    for (const Point& p : plans[i].grid.points) tasks.push_back({i, p, order++});
  }
  return tasks;
}

/// Checks one point of the claim's domain (the fast path unless brute force
/// is asked for) and adds it to the claim's tally. Whatever the check throws
/// is an error at this point, with its message: the domain said the check
/// is defined here.
void check_point(const Claim& c, const PointTask& t, const CheckOptions& o, ClaimTally& tally) {
  const Region region = c.asserted ? c.region(t.point) : Region::beyond;
  const auto t0 = Clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  std::string error;
  try {
    const PointResult res = (c.fast_check && !o.brute_force ? c.fast_check : c.check)(t.point, o);
    tally.add(region, res, t.order, seconds());
    return;
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "an exception that is not a std::exception";
  }
  tally.add_error(region,
                  Counterexample{t.point, "the check threw at a point of its domain: " + error,
                                 reproduce_command(c.id, t.point, o)},
                  t.order, seconds());
}

/// `found` checked again with the artifact directory, so that its trace
/// file is written and its reproduction names it (rank 0 alone writes files).
Counterexample with_artifacts(const Claim& c, const Counterexample& found, CheckOptions o, const VerifyRequest& req,
                              int rank) {
  if (req.options.artifact_dir.empty() || rank != 0) return found;
  try {
    o.artifact_dir = req.options.artifact_dir;
    const PointResult again = c.check(found.point, o);
    if (again.counterexample) return *again.counterexample;
  } catch (const std::exception& e) {
    Counterexample kept = found;
    kept.detail += " (its trace was not written: " + std::string(e.what()) + ")";
    return kept;
  }
  return found;
}

Status status_of(const ClaimReport& r, bool applicable) {
  if (!applicable) return Status::not_applicable;
  if (r.counterexample || r.error) return Status::fails;
  if (r.undecided) return Status::undecided;
  if (r.points_unchecked > 0) return Status::partial;
  if (r.finding) return Status::finding;
  if (r.points_within + r.points_beyond == 0) return Status::vacuous;
  return Status::holds;
}

ClaimReport claim_report(const Claim& c, const ClaimPlan& plan, const ClaimTally& t, const VerifyRequest& req, int rank) {
  ClaimReport r;
  r.claim = &c;
  r.model = plan.model.value_or(req.model.value_or(""));
  r.w = plan.grid.w;
  r.E = plan.grid.E;
  r.points_within = t.points_within;
  r.points_beyond = t.points_beyond;
  r.points_outside = plan.grid.outside;
  r.cases_within = t.cases_within;
  r.cases_beyond = t.cases_beyond;
  r.points_undecided = t.points_undecided;
  if (plan.model) r.points_unchecked = plan.grid.points.size() - t.points_within - t.points_beyond;
  r.seconds = t.seconds;
  if (t.within) r.counterexample = with_artifacts(c, t.within->counterexample, plan.options, req, rank);
  if (t.beyond) r.finding = with_artifacts(c, t.beyond->counterexample, plan.options, req, rank);
  if (t.error) r.error = t.error->counterexample;
  if (t.undecided) r.undecided = t.undecided->counterexample;
  r.status = status_of(r, plan.model.has_value());
  return r;
}

}  // namespace

BigCount planned_cases(const std::vector<const Claim*>& claims, const VerifyRequest& req) {
  BigCount total = 0;
  for (const Claim* c : claims) {
    const ClaimPlan plan = plan_claim(*c, req);
    if (!plan.model) continue;
    for (const Point& p : plan.grid.points) total += cases_at(*c, p, plan.options);
  }
  return total;
}

VerifyReport verify(const std::vector<const Claim*>& claims, const VerifyRequest& req) {
  const auto start = Clock::now();
  std::vector<ClaimPlan> plans;
  for (const Claim* c : claims) plans.push_back(plan_claim(*c, req));
  check_run_size(claims, plans, req);

  std::vector<PointTask> tasks = tasks_of(plans);
  order_by_work(tasks);
  const int rank = req.cluster ? req.cluster->rank() : 0, ranks = req.cluster ? req.cluster->size() : 1;
  if (ranks > 1) tasks = rank_share(tasks, rank, ranks);

  VerifyReport report;
  report.ranks = static_cast<unsigned>(ranks);
  std::vector<ClaimTally> tallies(claims.size());
  std::atomic<std::size_t> run{0};
  const auto limit = std::chrono::duration<double>(req.time_limit);
  auto stop = [&] {
    if (req.stop && req.stop->load()) return true;
    return req.time_limit > 0 && Clock::now() - start > limit;
  };
  report.threads = run_tasks(
      tasks, req.threads,
      [&](const PointTask& t) {
        check_point(*claims[t.claim], t, plans[t.claim].options, tallies[t.claim]);
        run.fetch_add(1);
      },
      req.progress, stop);
  if (run.load() < tasks.size())
    report.stopped = req.stop && req.stop->load() ? "interrupted"
                                                   : "the time limit of " + seconds_text(req.time_limit);
  if (ranks > 1) merge_over_ranks(*req.cluster, tallies);

  for (std::size_t i = 0; i < claims.size(); ++i)
    report.claims.push_back(claim_report(*claims[i], plans[i], tallies[i], req, rank));
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace bankcheck::proofs
