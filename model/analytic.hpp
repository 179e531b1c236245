#pragma once
// Closed forms from the papers, in exact arithmetic (cpp_int never wraps).
// Every function states its domain and throws std::invalid_argument
// (naming the violated condition) outside it. The counts are in the DMM of
// the papers: w banks, one key per cell, a warp instruction costs the
// largest number of distinct cells it needs from one bank ("accesses").
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>

#include "model/power_of_two.hpp"

namespace bankcheck::analytic {

using boost::multiprecision::cpp_int;

/// HiPC 2015 Section V-B: A_PBS = w(log K - log w + 1) - 1, the accesses one
/// warp makes in the ⌈log K⌉ probe rounds of Algorithm 1 on the worst-case
/// queries q_i = K[i·K/w + C].
/// @pre w is a power of two >= 1, K a power of two, K >= w², K ≡ 0 (mod w²).
cpp_int pbs_worst_accesses_per_warp(std::uint64_t w, std::uint64_t K);

/// The same sum without the K ≡ 0 (mod w²) condition: Σ_{i<log K} min(2^i, w, K/w)
/// (V-B: "if K < w², the maximum number of bank conflicts per iteration is
/// limited to K/w").
/// @pre w and K powers of two, K >= w.
cpp_int pbs_worst_accesses_capped_per_warp(std::uint64_t w, std::uint64_t K);

/// Bank conflicts as Nsight counts them: A_PBS - log K (V-B).
/// @pre as pbs_worst_accesses_capped_per_warp.
cpp_int pbs_worst_conflicts_per_warp(std::uint64_t w, std::uint64_t K);

/// Totals over Q queries = Q/w warps. @pre Q ≡ 0 (mod w), Q >= 1, and the per-warp precondition.
cpp_int pbs_worst_accesses_total(std::uint64_t w, std::uint64_t K, std::uint64_t Q);

/// PBS-CF (Algorithms 2 and 3) is bank-conflict free: 0 for every input. @pre w >= 1, K >= w.
cpp_int pbs_cf_conflicts(std::uint64_t w, std::uint64_t K);

/// PBS-CL stage 2 (Section IV-C): at most Σ_{i<log w} 2^i = w - 1 accesses per
/// warp in the log w binary rounds. @pre w a power of two >= 2.
cpp_int pbs_cl_stage2_bound_per_warp(std::uint64_t w);

/// SPAA 2025 Section 4, Theorem 8 summed over the d = gcd(w, E) subproblems
/// of w/d threads: what the paper calls the "bank conflicts" of one warp's
/// serial merge on its worst-case input, which is the summed DMM cost
/// (wavefronts) of the E merge steps, not wavefronts - instructions
/// (docs/formula-findings.md, item 12). With w = qE + r (0 <= r < E):
///   E²                                  if 1 < E <= w/2
///   (E² + 2Er + Ed - r² - rd) / 2        if w/2 < E <= w
/// @pre w >= 2, 1 < E <= w.
cpp_int merge_worst_conflicts_per_warp(std::uint64_t w, std::uint64_t E);

/// Theorem 8's closed form as written above, for any w, E >= 1: the one
/// definition that merge_worst_conflicts_per_warp (the theorem's domain) and
/// the claims that explore beyond it (E = 1, E > w; proofs/spaa_worst_case.hpp)
/// evaluate. @pre w >= 1, E >= 1.
cpp_int merge_worst_closed_form(const cpp_int& w, const cpp_int& E);

/// Twice the closed form's second case: E² + 2Er + Ed - r² - rd, with
/// w = qE + r (0 <= r < E) and d = gcd(w, E). Even for every w, E >= 1
/// (E² + Ed = d²·(E/d)(E/d + 1), likewise r² + rd; the claim
/// spaa.theorem8.identity checks it in exact arithmetic). @pre w >= 1, E >= 1.
cpp_int merge_worst_closed_form_twice_wide(const cpp_int& w, const cpp_int& E);

/// Theorem 8 over a merge of n keys = n/(wE) warps. @pre n a positive multiple of wE, and as above.
cpp_int merge_worst_conflicts_total(std::uint64_t w, std::uint64_t E, std::uint64_t n);

using bankcheck::is_power_of_two;  // model/power_of_two.hpp
/// log2 of a power of two. @throws std::invalid_argument when n is not one.
unsigned log2_exact(std::uint64_t n);

}  // namespace bankcheck::analytic
