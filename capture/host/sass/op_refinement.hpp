#pragma once
// What a captured access really is. The sanitizer's callbacks tell a load,
// a store, an atomic, a matrix access and an asynchronous copy apart, but
// not the kinds that cost differently on the H100 (docs/bank-model.md,
// rules 4 and 6): a compare-and-swap (two passes), the compiler's combined
// increment, and the 16-byte cp.async.cg in its two forms. The instruction's SASS does, so
// once sass.csv exists a capture's traces are rewritten with the refined op.
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "capture/host/sass/sass_table.hpp"
#include "model/warp_request.hpp"

namespace bankcheck::capture {

/// The op of an access the sanitizer reported as `reported`, given its SASS
/// text (predicate allowed): ATOMS.CAS* -> atom.cas, ATOMS.CAST* -> atom.cast,
/// ATOMS.POPC.INC* -> atom.popc, LDGSTS.E.BYPASS.128 -> cpasync.cg, or
/// cpasync.cg.zfill when its predicate operand (the source-size or
/// ignore-src form) is P0, cpasync.cg when it is another register, the same
/// with the L2::128B hint (.LTC128B, measured to change nothing); an LDGSTS
/// of a form no rule was measured on (a negated predicate operand,
/// LDGSTS.E.ZFILL, another L2 hint, ...) -> cpasync.unmeasured, which no
/// rule costs; a load, store or atomic through a generic address (LD, ST,
/// ATOM, RED) in a form no rule was measured on (LD.E.128, LD.E.STRONG.SYS,
/// any generic atomic, ...) -> unmeasured, also never costed; else unchanged.
Op refine_op(Op reported, std::string_view sass);

/// Whether refine_op may change an access reported as `reported` (an atomic
/// or a cp.async): without its SASS such an access keeps a kind that may
/// cost otherwise, and a capture holding one is partial. Loads and stores are
/// not counted so: nearly all are LDS/STS, whose kind is final, and a generic
/// one without SASS keeps the LDS/STS rules its measured forms follow.
bool refinable(Op reported);

/// What refining one trace did.
struct TraceRefinement {
  std::uint64_t changed = 0;    ///< records whose op changed
  std::uint64_t unrefined = 0;  ///< records of a refinable kind whose site has no SASS (kept as reported)
};

/// Rewrites the trace at `path` (atomically: a temporary file renamed over
/// it) with every record's op refined from its site's SASS, when at least
/// one changes; sites without SASS keep their op, and those of a refinable
/// kind are counted.
/// @throws TraceError on a malformed trace, std::runtime_error on I/O errors.
TraceRefinement refine_trace_ops(const std::filesystem::path& path, const SassTable& sass);

}  // namespace bankcheck::capture
