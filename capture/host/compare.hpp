#pragma once
// `bankcheck compare --ncu REPORT.csv TRACE...`: the model's wavefronts per
// instruction of captured launches, joined with Nsight Compute's
// per-instruction table of a second, identical run (the sanitizer and
// Nsight Compute cannot attach to one run). A captured site
// `FUNCTION+0xOFFSET` meets ncu's row at the same offset from the kernel's
// first address; launches meet by kernel name (ncu's demangled name and
// ours differ in spelling, so by base name) in launch order, against the
// capture's launches.csv. Global loads and stores (gld/gst, `capture
// --global`) are joined with ncu's per-instruction global sector columns.
#include <cstdint>
#include <string>
#include <vector>

#include "capture/host/ncu_table.hpp"
#include "model/bank_model.hpp"

namespace bankcheck::capture {

struct CompareRow {
  std::uint64_t launch = 0;            ///< the capture's launch id
  std::string kernel;                  ///< demangled (the capture's spelling)
  std::uint64_t offset = 0;
  std::string sass;                    ///< ncu's Source text
  std::uint64_t measured_executed = 0;
  std::uint64_t measured_wavefronts = 0;
  std::uint64_t model_executed = 0;    ///< instructions of the trace at this site
  std::uint64_t model_wavefronts = 0;
  bool modelled = true;                ///< false if any of the site's instructions is not modelled
  /// A global load or store (the trace's gld/gst, captured with --global): compared in sectors with
  /// ncu's "L2 Theoretical Sectors Global" (and its Ideal), not in wavefronts.
  bool global = false;
  std::uint64_t measured_sectors = 0, measured_ideal_sectors = 0;
  std::uint64_t model_sectors = 0, model_ideal_sectors = 0;
  /// The two runs executed this instruction a different number of times
  /// (timing-dependent code: spin-waits such as a scan's decoupled
  /// look-back; ncu also counts warps whose predicate was off): a row that
  /// is not equal and has this set is not evidence against the model.
  bool runs_differ() const { return measured_executed != model_executed; }
  bool equal() const {
    return global ? model_sectors == measured_sectors : modelled && model_wavefronts == measured_wavefronts;
  }
};

struct CompareResult {
  std::vector<CompareRow> rows;
  std::vector<std::string> notes;  ///< what could not be joined, and why
  bool all_equal() const;
};

/// Join. @throws std::invalid_argument when a trace has no launches.csv row,
/// or no ncu launch matches it; TraceError for a bad trace.
CompareResult compare_with_ncu(const NcuSourceTable& ncu, const std::vector<std::string>& traces, const BankModel& model);

}  // namespace bankcheck::capture
