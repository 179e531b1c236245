#pragma once
// CostTotals: the one accumulator of bank-model costs over a set of warp
// instructions (a trace, a site, a round, a kernel launch). Every sum is
// checked: a total that would pass 2^64-1 throws instead of wrapping, so a
// report can never print a wrapped count. Conflicts are not stored but
// derived, checked, as a request's are (model/request_cost.hpp), so that no
// total can carry a conflict count that disagrees with its wavefronts.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/bank_model.hpp"
#include "model/cost_invariants.hpp"

namespace bankcheck {

/// @post wavefronts == ideal + conflicts(); worst_degree is the largest RequestCost::degree added;
///       fewer_on_kernel_counter <= conflicts().
struct CostTotals {
  std::uint64_t instructions = 0;
  std::uint64_t lane_accesses = 0;  ///< active lanes summed over the instructions
  std::uint64_t wavefronts = 0;     ///< per instruction, as Nsight Compute's Source page counts them
  std::uint64_t ideal = 0;
  std::uint32_t worst_degree = 0;
  /// Wavefronts of `wavefronts` that the kernel-level counter
  /// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum) does not count:
  /// a paired 8-byte load with a conflict is its half warps' degrees added
  /// per instruction but the merged degree there (docs/bank-model.md, rule 3).
  /// Only what add_with_kernel_counter() was told; 0 where nobody asked.
  std::uint64_t fewer_on_kernel_counter = 0;

  /// wavefronts - ideal, as Nsight Compute counts them (never wrapped:
  /// fewer wavefronts than the ideal throw CostInvariantError).
  std::uint64_t conflicts() const { return conflicts_of(wavefronts, ideal); }
  /// The wavefronts and conflicts as the kernel-level counters count them.
  std::uint64_t kernel_counter_wavefronts() const { return wavefronts - fewer_on_kernel_counter; }
  std::uint64_t kernel_counter_conflicts() const { return conflicts_of(kernel_counter_wavefronts(), ideal); }

  /// Add one instruction with `active` active lanes, executed `times` times (a repeated record of a
  /// deduplicated trace). @throws std::overflow_error instead of wrapping;
  /// std::logic_error for a cost not modelled (its zeros are no cost: callers count it apart);
  /// CostInvariantError, before anything is added, for fewer wavefronts than the ideal.
  void add(unsigned active, const RequestCost& cost, std::uint64_t times = 1) {
    if (!cost.modelled) [[unlikely]]
      throw std::logic_error("cost totals: an instruction that is not modelled cannot be added as costed");
    static_cast<void>(cost.conflicts());  // so that no sum of wavefronts falls below the sum of ideals
    if (times == 1) [[likely]] {
      add_checked(instructions, 1, "instructions");
      add_checked(lane_accesses, active, "lane accesses");
      add_costs(cost.wavefronts, cost.ideal);
    } else {
      add_checked(instructions, times, "instructions");
      add_checked(lane_accesses, times_checked(active, times, "lane accesses"), "lane accesses");
      add_costs(times_checked(cost.wavefronts, times, "wavefronts"),
                times_checked(cost.ideal, times, "ideal wavefronts"));
    }
    worst_degree = std::max(worst_degree, cost.degree);
  }
  /// add(), with the instruction's wavefronts on the kernel-level counter
  /// (BankModel::kernel_counter_cost). @throws std::logic_error where they
  /// are more than the per-instruction ones or fewer than the ideal (no rule
  /// makes them so); std::overflow_error instead of wrapping.
  void add_with_kernel_counter(unsigned active, const RequestCost& cost, std::uint32_t kernel_wavefronts,
                               std::uint64_t times = 1) {
    if (kernel_wavefronts > cost.wavefronts || kernel_wavefronts < cost.ideal) [[unlikely]]
      throw std::logic_error("cost totals: a kernel-counter count outside [ideal, wavefronts]");
    add(active, cost, times);
    add_checked(fewer_on_kernel_counter, times_checked(cost.wavefronts - kernel_wavefronts, times, "wavefronts"),
                "wavefronts");
  }
  /// Add another set of totals. @throws std::overflow_error instead of wrapping;
  /// CostInvariantError, before anything is added, where `other` has fewer wavefronts than the ideal.
  CostTotals& operator+=(const CostTotals& other) {
    static_cast<void>(other.conflicts());
    add_checked(instructions, other.instructions, "instructions");
    add_checked(lane_accesses, other.lane_accesses, "lane accesses");
    add_costs(other.wavefronts, other.ideal);
    add_checked(fewer_on_kernel_counter, other.fewer_on_kernel_counter, "wavefronts");
    worst_degree = std::max(worst_degree, other.worst_degree);
    return *this;
  }
  bool operator==(const CostTotals&) const = default;

 private:
  void add_costs(std::uint64_t w, std::uint64_t i) {
    add_checked(wavefronts, w, "wavefronts");
    add_checked(ideal, i, "ideal wavefronts");
  }
  static void add_checked(std::uint64_t& total, std::uint64_t value, const char* what) {
    if (__builtin_add_overflow(total, value, &total))
      throw std::overflow_error(std::string("cost totals: ") + what + " exceed 2^64-1");
  }
  static std::uint64_t times_checked(std::uint64_t value, std::uint64_t times, const char* what) {
    std::uint64_t product;
    if (__builtin_mul_overflow(value, times, &product))
      throw std::overflow_error(std::string("cost totals: ") + what + " exceed 2^64-1");
    return product;
  }
};

}  // namespace bankcheck
