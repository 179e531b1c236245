#pragma once
// How a model costs one kind of access, and which H100 counter a cost
// reproduces: plain enums, shared by BankModel (model/bank_model.hpp) and
// the host/device sm90 rules (model/sm90_warp_cost.hpp), so that the GPU
// code needs neither std::string nor std::vector.
#include <cstdint>

namespace bankcheck {

/// How a model costs one (op, width): the single place where a rule is
/// chosen per preset (BankModel::rule; sm90::rule for the sm90 preset).
/// Adding a measured access kind means a new value here, its case in the
/// rule functions and its cost in model/sm90_warp_cost.hpp (docs/extending.md).
enum class AccessRule : std::uint8_t {
  unmodelled,     ///< no rule known: the request is reported, not costed
  phases,         ///< the preset's phase rule of plain loads and stores (PhaseRule)
  as_store,       ///< phases and degree of a store of the same width (ldsm, stsm, cpasync, atom.popc);
                  ///< a cpasync with its sources: read and write stages through the banks
  atomic_lanes,   ///< store phases; each active lane is its own pass of its banks (atom)
  atomic_lanes2,  ///< as atomic_lanes, twice: a read and a write pass (atom.cas)
  bypass_copy,    ///< whole 32-byte sectors, one wavefront per shared row (cpasync.cg, rule 6b);
                  ///< other copies unmodelled; without sources, lane l reads element l
  phase_count,    ///< the destinations costed as a 16-byte store, whatever the sources
                  ///< (cpasync.cg.zfill: the predicate operand P0, rule 6c)
  as_quad,        ///< a 12-byte access: the 16-byte instruction that carries it (BankModel::cost_as_quad)
  operand_bytes,  ///< one wavefront per 128 bytes of operand read, whatever the layout (wgmma, rule 8)
  spin_phases,    ///< two wavefronts per store phase with an active lane, whatever the addresses; a
                  ///< 4-byte phase with a bank conflict unmodelled (atom.cast, rule 4)
};

/// Which of the H100's counters a cost reproduces. They differ for one kind
/// of request only: a paired 8-byte load with a conflict (docs/bank-model.md,
/// rule 3). Per instruction (Nsight Compute's SourceCounters, what `compare`
/// judges) is the model's answer; the kernel-level counters
/// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum) count less there.
enum class Counter : std::uint8_t { instruction, kernel };

}  // namespace bankcheck
