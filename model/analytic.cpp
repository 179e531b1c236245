#include "model/analytic.hpp"

#include <stdexcept>
#include <string>

namespace bankcheck::analytic {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}
std::string num(std::uint64_t v) { return std::to_string(v); }
}  // namespace

unsigned log2_exact(std::uint64_t n) {
  require(is_power_of_two(n), "log2_exact: " + num(n) + " is not a power of two");
  return log2_floor(n);
}

cpp_int pbs_worst_accesses_capped_per_warp(std::uint64_t w, std::uint64_t K) {
  require(is_power_of_two(w), "PBS formula needs w a power of two (got w = " + num(w) + ")");
  require(is_power_of_two(K), "PBS formula needs K a power of two (got K = " + num(K) + ")");
  require(K >= w, "PBS formula needs K >= w (got K = " + num(K) + ", w = " + num(w) + ")");
  const unsigned logK = log2_exact(K);
  const cpp_int cap = std::min<std::uint64_t>(w, K / w);
  cpp_int sum = 0;
  for (unsigned i = 0; i < logK; ++i) {
    const cpp_int two_i = cpp_int(1) << i;
    sum += std::min(two_i, cap);
  }
  return sum;
}

cpp_int pbs_worst_accesses_per_warp(std::uint64_t w, std::uint64_t K) {
  require(is_power_of_two(w), "A_PBS needs w a power of two (got w = " + num(w) + ")");
  require(is_power_of_two(K), "A_PBS needs K a power of two (got K = " + num(K) + ")");
  require(K / w >= w && K % (w * w) == 0,
          "A_PBS needs K >= w² and K ≡ 0 (mod w²) (got K = " + num(K) + ", w = " + num(w) + ")");
  const cpp_int logK = log2_exact(K), logw = log2_exact(w);
  return cpp_int(w) * (logK - logw + 1) - 1;
}

cpp_int pbs_worst_conflicts_per_warp(std::uint64_t w, std::uint64_t K) {
  return pbs_worst_accesses_capped_per_warp(w, K) - log2_exact(K);
}

cpp_int pbs_worst_accesses_total(std::uint64_t w, std::uint64_t K, std::uint64_t Q) {
  require(Q >= 1 && Q % w == 0, "PBS totals need Q a positive multiple of w (got Q = " + num(Q) + ")");
  return pbs_worst_accesses_per_warp(w, K) * (Q / w);
}

cpp_int pbs_cf_conflicts(std::uint64_t w, std::uint64_t K) {
  require(w >= 1, "PBS-CF needs w >= 1");
  require(K >= w, "PBS-CF needs K >= w (got K = " + num(K) + ", w = " + num(w) + ")");
  return 0;
}

cpp_int pbs_cl_stage2_bound_per_warp(std::uint64_t w) {
  require(w >= 2 && is_power_of_two(w), "PBS-CL stage-2 bound needs w a power of two >= 2 (got " + num(w) + ")");
  return cpp_int(w) - 1;
}

cpp_int merge_worst_closed_form_twice_wide(const cpp_int& w, const cpp_int& E) {
  require(w >= 1 && E >= 1, "Theorem 8's closed form needs w, E >= 1 (got w = " + w.str() + ", E = " + E.str() + ")");
  const cpp_int r = w % E, d = boost::multiprecision::gcd(w, E);
  return E * E + 2 * E * r + E * d - r * r - r * d;
}

cpp_int merge_worst_closed_form(const cpp_int& w, const cpp_int& E) {
  require(w >= 1 && E >= 1, "Theorem 8's closed form needs w, E >= 1 (got w = " + w.str() + ", E = " + E.str() + ")");
  if (2 * E <= w) return E * E;
  const cpp_int twice = merge_worst_closed_form_twice_wide(w, E);
  if (twice % 2 != 0) throw std::logic_error("Theorem 8: odd numerator");
  return twice / 2;
}

cpp_int merge_worst_conflicts_per_warp(std::uint64_t w, std::uint64_t E) {
  require(w >= 2, "Theorem 8 needs w >= 2 (got " + num(w) + ")");
  require(E > 1 && E <= w, "Theorem 8 needs 1 < E <= w (got E = " + num(E) + ", w = " + num(w) + ")");
  return merge_worst_closed_form(w, E);
}

cpp_int merge_worst_conflicts_total(std::uint64_t w, std::uint64_t E, std::uint64_t n) {
  const cpp_int per_warp = merge_worst_conflicts_per_warp(w, E);  // checks w and E first
  const cpp_int tile = cpp_int(w) * E;
  require(n >= 1 && cpp_int(n) % tile == 0,
          "merge totals need n a positive multiple of w*E = " + tile.str() + " (got n = " + num(n) + ")");
  return per_warp * (cpp_int(n) / tile);
}

}  // namespace bankcheck::analytic
