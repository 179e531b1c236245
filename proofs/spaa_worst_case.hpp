#pragma once
// SPAA 2025 Section 4 (worst-case inputs for Thrust's merge), written from
// the paper's text: the parameters q, r, d, the sequence S of Lemmas 5-7, the
// tuple sequence T (steps 1-3), Theorem 8's count, and the paper's merge
// model used to count: a warp's A and B sit contiguously in shared memory
// (A first, no reversal); in step t each thread reads the t-th element it
// merges (from A or B); a step costs the largest number of distinct cells in
// one bank (w banks, one element per cell).
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/analytic.hpp"
#include "proofs/number_theory.hpp"

namespace bankcheck::spaa {

/// q, r with w = qE + r, 0 <= r < E (Lemma 9), d = GCD(w, E), m = E/d.
struct WorstCaseParams {
  std::int64_t w, E, q, r, d, m;
};
inline WorstCaseParams worst_case_params(std::uint64_t w, std::uint64_t E) {
  const auto W = static_cast<std::int64_t>(w), e = static_cast<std::int64_t>(E);
  const auto d = static_cast<std::int64_t>(nt::gcd(w, E));
  return {W, e, W / e, W % e, d, e / d};
}

/// s_i = i (r/d) mod (E/d), for i in [1, E/d - 1] (index 0 unused).
inline std::int64_t s_value(const WorstCaseParams& p, std::int64_t i) { return nt::mod(i * (p.r / p.d), p.m); }
inline std::int64_t x_value(const WorstCaseParams& p, std::int64_t i) { return (p.m - s_value(p, i)) * p.d; }
inline std::int64_t y_value(const WorstCaseParams& p, std::int64_t i) { return s_value(p, i) * p.d; }

/// A thread's share: a elements of A, b elements of B.
struct Tuple {
  std::int64_t a = 0, b = 0;
};

/// (a_i, b_i) of S: (x_i, y_i) for even i, (y_i, x_i) for odd i.
inline Tuple s_tuple(const WorstCaseParams& p, std::int64_t i) {
  return i % 2 == 0 ? Tuple{x_value(p, i), y_value(p, i)} : Tuple{y_value(p, i), x_value(p, i)};
}

/// T, or the step at which the construction is undefined.
struct TupleSequence {
  std::vector<Tuple> tuples;
  std::string error;  ///< empty when the construction is defined
};

/// Steps (1)-(3) of Section 4 for one subproblem of w/d threads.
inline TupleSequence build_t(std::uint64_t w, std::uint64_t E) {
  const WorstCaseParams p = worst_case_params(w, E);
  TupleSequence t;
  auto repeat = [&](std::int64_t count, bool a_side, const char* step) {
    if (count < 0) {
      t.error = std::string(step) + " asks for " + std::to_string(count) + " tuples (q = " + std::to_string(p.q) + ")";
      return;
    }
    for (std::int64_t k = 0; k < count; ++k) t.tuples.push_back(a_side ? Tuple{p.E, 0} : Tuple{0, p.E});
  };
  if (p.m >= 2) {
    t.tuples.push_back(s_tuple(p, 1));  // (y_1, x_1) = (r, E - r)
    repeat(p.q, true, "step (1)");
    for (std::int64_t i = 1; i <= p.m - 2 && t.error.empty(); ++i) {
      t.tuples.push_back(s_tuple(p, i + 1));
      const std::int64_t sum = x_value(p, i) + y_value(p, i + 1);
      if (sum == p.r)
        repeat(p.q, i % 2 == 0, "step (2)");
      else if (sum == p.E + p.r)
        repeat(p.q - 1, i % 2 == 0, "step (2)");
      else
        t.error = "step (2): x_" + std::to_string(i) + " + y_" + std::to_string(i + 1) + " = " + std::to_string(sum) +
                  " is neither r nor E + r";
    }
  }
  if (t.error.empty()) repeat(p.q, (p.m - 1) % 2 == 0, "step (3)");
  return t;
}

/// The whole warp: d subproblems, odd ones with the tuple values switched
/// ("the symmetric case").
inline TupleSequence build_warp(std::uint64_t w, std::uint64_t E) {
  TupleSequence one = build_t(w, E), warp;
  warp.error = one.error;
  const std::uint64_t d = nt::gcd(w, E);
  for (std::uint64_t s = 0; s < d; ++s)
    for (const Tuple& t : one.tuples) warp.tuples.push_back(s % 2 == 0 ? t : Tuple{t.b, t.a});
  return warp;
}

/// Appends one thread's E merge steps to `from_a`: its A elements then its B
/// elements, or B first when `b_first`.
inline void append_thread_order(std::vector<char>& from_a, const Tuple& t, std::uint64_t E, bool b_first) {
  const auto ta = static_cast<std::uint64_t>(t.a), tb = static_cast<std::uint64_t>(t.b);
  for (std::uint64_t s = 0; s < E; ++s) from_a.push_back(b_first ? s >= tb : s < ta);
}

/// The construction's merge order, as `merge_cost` reads it: element t of
/// thread i comes from A iff order[i*E + t]. A thread of T that takes from
/// one list only reads it in order. A thread that mixes A and B reads first
/// the part that starts a column of the w x (wE/w) matrix of Section 4
/// (the part whose first cell lies in bank 0), so that its other part, which
/// ends a column, is read in the last steps, in the banks the pure threads
/// scan then (Figure 4). Where neither or both parts start a column, A first.
/// Linear in wE: every thread of the warp is placed, however many mix.
inline std::vector<char> construction_order(const TupleSequence& warp, std::uint64_t w, std::uint64_t E) {
  std::uint64_t total_a = 0;
  for (const Tuple& t : warp.tuples) total_a += static_cast<std::uint64_t>(t.a);
  std::vector<char> from_a;
  from_a.reserve(warp.tuples.size() * E);
  std::uint64_t a = 0, b = 0;  // cells of A and B taken by the threads before
  for (const Tuple& t : warp.tuples) {
    const auto ta = static_cast<std::uint64_t>(t.a), tb = static_cast<std::uint64_t>(t.b);
    const bool mixed = ta > 0 && tb > 0;
    const bool b_first = mixed && (total_a + b) % w == 0 && a % w != 0;
    append_thread_order(from_a, t, E, b_first);
    a += ta;
    b += tb;
  }
  return from_a;
}

/// Theorem 8's total for the warp (all d subproblems), in the paper's
/// "bank conflicts" = serialized accesses summed over the E steps: the
/// closed form of model/analytic.hpp, at any w, E >= 1 (the claims explore
/// E = 1 and E > w), in the merge model's integers.
/// @throws std::overflow_error where the count exceeds them.
inline std::int64_t theorem8_total(std::uint64_t w, std::uint64_t E) {
  const analytic::cpp_int total = analytic::merge_worst_closed_form(w, E);
  if (total > std::numeric_limits<std::int64_t>::max())
    throw std::overflow_error("Theorem 8's count " + total.str() + " exceeds 64-bit counts");
  return total.convert_to<std::int64_t>();
}

/// Step costs of one merge: `from_a[i*E + t]` says whether thread i's t-th
/// merged element comes from A. The split follows: thread i takes the A
/// and B elements its own window consumes.
struct MergeCost {
  std::int64_t total = 0;         ///< sum over steps of the step degree (all banks)
  std::int64_t bottom_total = 0;  ///< the same, counting only banks w-E .. w-1 (Theorem 8's proof)
  std::int64_t worst_step = 0;    ///< the largest step degree
};

inline MergeCost merge_cost(std::uint64_t w, std::uint64_t E, const std::vector<char>& from_a) {
  std::uint64_t total_a = 0;
  for (char c : from_a) total_a += c ? 1 : 0;
  // Reused per thread: the claims call this millions of times on small warps.
  thread_local std::vector<std::uint64_t> next_a, next_b;
  thread_local std::vector<std::int64_t> count;
  next_a.assign(w, 0);
  next_b.assign(w, 0);
  count.assign(w, 0);
  std::uint64_t a = 0, b = 0;
  for (std::uint64_t i = 0; i < w; ++i) {
    next_a[i] = a;
    next_b[i] = b;
    for (std::uint64_t t = 0; t < E; ++t) (from_a[i * E + t] ? a : b)++;
  }
  MergeCost cost;
  for (std::uint64_t t = 0; t < E; ++t) {
    std::fill(count.begin(), count.end(), 0);
    for (std::uint64_t i = 0; i < w; ++i) {
      const std::uint64_t pos = from_a[i * E + t] ? next_a[i]++ : total_a + next_b[i]++;
      ++count[pos % w];
    }
    std::int64_t all = 0, bottom = 0;
    for (std::uint64_t bank = 0; bank < w; ++bank) {
      all = std::max(all, count[bank]);
      if (bank + E >= w) bottom = std::max(bottom, count[bank]);
    }
    cost.total += all;
    cost.bottom_total += bottom;
    cost.worst_step = std::max(cost.worst_step, all);
  }
  return cost;
}

}  // namespace bankcheck::spaa
