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

#include "capture/host/sass_table.hpp"
#include "model/warp_request.hpp"

namespace bankcheck::capture {

/// The op of an access the sanitizer reported as `reported`, given its SASS
/// text (predicate allowed): ATOMS.CAS* -> atom.cas, ATOMS.CAST* -> atom.cast,
/// ATOMS.POPC.INC* -> atom.popc, LDGSTS.E.BYPASS.128 -> cpasync.cg, or
/// cpasync.cg.zfill when a predicate operand follows (the source-size or
/// ignore-src form); an LDGSTS of a form no rule was measured on
/// (LDGSTS.E.LTC128B, LDGSTS.E.BYPASS.LTC128B.128, ...) -> cpasync.unmeasured,
/// which no rule costs; else unchanged.
Op refine_op(Op reported, std::string_view sass);

/// Rewrites the trace at `path` (atomically: a temporary file renamed over
/// it) with every record's op refined from its site's SASS, when at least
/// one changes; sites without SASS keep their op.
/// @return the number of records whose op changed.
/// @throws TraceError on a malformed trace, std::runtime_error on I/O errors.
std::uint64_t refine_trace_ops(const std::filesystem::path& path, const SassTable& sass);

}  // namespace bankcheck::capture
