#pragma once
// What each version of the binary trace format holds (docs/trace-format.md),
// the one place the reader asks: version 1 has the site, instruction and end
// records, and loads and stores of 1, 2, 4, 8 and 16 bytes; version 2 adds
// the location and expect records, the other ops and the 12-byte width;
// version 3 the source record; version 4 the index record; version 5 the repeat record.
#include <cstdint>
#include <iterator>
#include <string>

#include "model/warp_request.hpp"

namespace bankcheck {

/// The version that added each record kind (the head's low byte; 0 is no kind).
inline constexpr unsigned kRecordKindSince[] = {~0u, 1, 1, 1, 2, 2, 3, 4, 5};

/// Whether a file of `version` may hold records of `kind`.
constexpr bool version_has_kind(unsigned version, std::uint64_t kind) {
  return kind < std::size(kRecordKindSince) && kRecordKindSince[kind] <= version;
}

/// Widths (bit w set: width w) a file of `version` allows `op`; 0 where it has no such op.
constexpr std::uint32_t version_widths(unsigned version, Op op) {
  constexpr std::uint32_t v1 = 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 16;
  if (version == 1) return op == Op::load || op == Op::store ? v1 : 0;
  return allowed_widths(op);
}

/// For the unknown-kind message: the kinds the version holds, " (1 = site, 2 = instr, ...)".
std::string version_kinds_text(unsigned version);
/// For the bad-op message: the ops the version holds.
std::string version_ops_text(unsigned version);
/// For the bad-width message: the widths the version allows `op`.
std::string version_widths_text(unsigned version, Op op);

}  // namespace bankcheck
