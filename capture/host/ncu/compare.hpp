#pragma once
// `bankcheck compare --ncu REPORT.csv TRACE...`: the model's wavefronts per
// instruction of captured launches, joined with Nsight Compute's
// per-instruction table of a second, identical run (the sanitizer and
// Nsight Compute cannot attach to one run). Launches meet by identity
// (capture/host/ncu/launch_pairing.hpp); a captured site `FUNCTION+0xOFFSET`
// meets ncu's row at the same offset from the kernel's first address. A
// pairing is refused when a captured record would land on an instruction
// that cannot access memory (two different functions). Every captured
// launch is compared or listed with the reason it is not. Global loads and
// stores (gld/gst, `capture --global`) are joined with ncu's
// per-instruction global sector columns.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture/host/ncu/ncu_launches.hpp"
#include "capture/host/ncu/ncu_table.hpp"
#include "model/bank_model.hpp"
#include "sim/report/layout_offer.hpp"
#include "sim/report/source_line.hpp"

namespace bankcheck::capture {

/// What a row says, each a different thing (docs/capture.md, "Verdicts"):
/// - yes: the model's count equals ncu's;
/// - no: it does not, though both runs executed the instruction equally often;
/// - not_modelled: the capture recorded it, no rule costs its form;
/// - not_traced: ncu measured shared wavefronts where the capture has no
///   lanes to cost (wgmma operands, TMA, st.async, mbarriers, or no record at all);
/// - executions_differ: not equal, and the runs executed it a different
///   number of times (spin-waits, data-dependent paths): no evidence either way.
enum class Verdict { yes, no, not_modelled, not_traced, executions_differ };
inline constexpr unsigned kVerdicts = 5;
const char* verdict_name(Verdict v);

struct CompareRow {
  std::uint64_t launch = 0;            ///< the capture's launch id
  std::string kernel;                  ///< demangled (the capture's spelling)
  std::uint64_t offset = 0;
  std::string sass;                    ///< ncu's Source text
  std::uint64_t measured_executed = 0;
  std::uint64_t measured_wavefronts = 0;
  std::uint64_t model_executed = 0;    ///< instructions of the trace at this site
  std::uint64_t model_wavefronts = 0;
  std::uint64_t model_ideal = 0;       ///< the wavefronts the same instructions need without bank conflicts
  bool modelled = true;                ///< false if any of the site's instructions is not modelled
  /// A TMA copy (not traced per lane) of a form measured to count no shared wavefronts
  /// (tma_form_measured): its model count is 0 by that rule, whatever its tile.
  bool tma_rule = false;
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
  /// The model costs it above its ideal: bank conflicts (a shared-memory row the model costs).
  bool conflicting() const { return !global && modelled && model_wavefronts > model_ideal; }
  Verdict verdict() const;
  /// The verdict with its reason: "not modelled (LDGSTS.E.ZFILL)", "not traced (wgmma)", "yes (sectors)".
  std::string verdict_text() const;
  /// What else the capture knows of the row, or empty: for a TMA row, the tensor maps the launch was
  /// given (launch_tensor_maps.csv), "tensor map 2: box 64x64 float16 (128-byte rows), swizzle 128B; ...".
  /// Which of them this instruction used is not known (its map address is in a uniform register).
  /// For a wgmma row, its descriptors as the SASS fixes them (hgmma_descriptors.hpp), and a swizzle
  /// mode no tensor map of the launch has, said as such.
  std::string detail;
  /// The instruction's line info from the capture's sass.csv (nvdisasm -gi); none when the capture
  /// has no sass.csv.
  std::optional<report::SourceLine> source;
};

/// A captured launch that was not compared, and why.
struct UncomparedLaunch {
  std::uint64_t launch = 0;
  std::string kernel;  ///< demangled
  std::string reason;
};

struct CompareResult {
  std::vector<CompareRow> rows;
  std::vector<UncomparedLaunch> uncompared;
  std::vector<std::string> notes;  ///< how launches were paired, what else was not joined
  std::size_t compared_launches = 0;
  /// Layouts `suggest` offers for compared launches' conflicting buffers (filled by the caller, which may
  /// search them: this layer does not).
  std::vector<report::LayoutOffer> offers;
  /// Every row yes and every launch compared (and at least one row).
  bool all_equal() const;
  /// Rows per verdict, indexed by Verdict.
  std::vector<std::size_t> verdict_counts() const;
};

/// Join. `shapes`: ncu's launch list (grid and block), or empty.
/// @throws std::invalid_argument when a trace's folder has no launches.csv or
/// the launch list does not match the report; TraceError for a bad trace.
CompareResult compare_with_ncu(const NcuSourceTable& ncu, const std::vector<std::string>& traces, const BankModel& model,
                               const std::vector<NcuLaunchShape>& shapes = {});

}  // namespace bankcheck::capture
