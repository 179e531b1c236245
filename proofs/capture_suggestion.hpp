#pragma once
// `bankcheck suggest OUT/`: a layout for each shared-memory buffer of a
// captured launch (docs/capture.md, "Suggesting a layout from a capture").
// The launch's records are grouped by instruction (site, op, width); an
// instruction's range is its lowest to past its highest byte, and
// instructions whose ranges overlap are one buffer. Each instruction's byte
// offsets from its buffer's base (its lowest byte: addresses themselves
// carry where a buffer is not aligned to its size, 1024 + lane x 128) are
// fitted as a GF(2)-affine function of lane, warp, execution and block bits
// (proofs/affine_address_fit.hpp); in a deduplicated trace (identical
// records merged into one with a count, which keeps one execution's
// location) each distinct record's offsets are fitted in the lane bits alone
// (proofs/record_lane_fit.hpp), and each record weighs by its count, so the
// wavefronts are still those of every traced execution. Where every instruction on
// a buffer fits and is modelled, one XOR map of the buffer's byte offsets is
// searched (proofs/xor_map_search.hpp: CuTe swizzles on bytes, maps built
// from the fitted lane columns, refined by descent) that minimizes the
// wavefronts of all its records together, each record costed by the bank
// model with its addresses mapped: the model's cost, enumerated over the
// captured records themselves. The map keeps every access's vector
// contiguous (no target below its widest access) and permutes the buffer
// (sources below the largest power of two dividing its size).
#include <cstdint>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/xor_address_map.hpp"
#include "sim/report/layout_offer.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck::proofs {

/// What an instruction's fit rests on.
enum class FitEvidence {
  every_execution,   ///< lane, warp, iteration and block bits over every execution (a --no-dedup trace)
  lanes_per_record,  ///< the lane bits of each distinct record alone (a deduplicated trace: proofs/record_lane_fit.hpp)
};

/// "lane, warp, iteration and block bits of every execution" or "lane bits of each distinct record".
const char* evidence_name(FitEvidence e);

struct SuggestedInstruction {
  std::string site;  ///< FUNCTION+0xOFFSET
  Op op = Op::load;
  unsigned width = 0;
  std::uint64_t executions = 0;  ///< records
  std::uint64_t lo = 0, hi = 0;  ///< byte range touched: [lo, hi)
  bool fits = false;
  std::string fit;               ///< the affine map of its offsets from the buffer's base, or why there is none ("no affine fit: ...")
  FitEvidence evidence = FitEvidence::every_execution;
  bool modelled = true;
  std::uint64_t before = 0, after = 0, ideal = 0;  ///< wavefronts over its records (after: on the suggestion)
};

struct BufferSuggestion {
  std::uint64_t base = 0, bytes = 0;  ///< the lowest address touched and the range's length
  std::vector<SuggestedInstruction> instructions;
  bool suggested = false;    ///< a map was searched (every instruction fits and is modelled)
  std::string why_not;       ///< when not: "no affine fit: no suggestion (SITE)", "not modelled: ..."
  XorAddressMap map;         ///< the best map found (identity: keep the layout)
  std::uint64_t before = 0, after = 0, ideal = 0;
  std::string verdict;       ///< "conflict-free: ...", "best found: ...", "keep: ..."
  std::uint64_t candidates = 0, evaluations = 0;  ///< maps costed: listed candidates, descent steps
  std::string notes;         ///< what was not searched and why
};

struct LaunchSuggestion {
  std::uint64_t records = 0;       ///< shared-memory records (executions: a merged record counts its count)
  std::uint64_t distinct = 0;      ///< shared-memory records as the trace holds them (a merged record once)
  bool deduplicated = false;       ///< some record was merged: every fit is per distinct record, in the lane bits
  std::uint64_t skipped = 0;       ///< records not of shared memory (global), not grouped
  std::vector<BufferSuggestion> buffers;  ///< by base address
};

/// Read one launch's trace and suggest a map per buffer.
/// @throws TraceError on a malformed trace, std::invalid_argument on a warp other than 32 lanes,
///         std::overflow_error if a count would wrap.
LaunchSuggestion suggest_from_trace(TraceSource& trace, const BankModel& model);

/// The buffers worth offering beside other results (`compare`): a map was searched and costs fewer
/// wavefronts than the layout in use, and some instruction on the buffer is above its ideal (listed in
/// `conflicting`). `launch` and `kernel` are left for the caller, which knows the launch.
std::vector<report::LayoutOffer> layout_offers(const LaunchSuggestion& s);

/// The map as CuTe writes it on byte offsets ("Swizzle<3,4,3> on byte offsets"), or "none: ...".
std::string cute_form(const XorAddressMap& map);

}  // namespace bankcheck::proofs
