#pragma once
// Where a captured warp instruction ran: the launch, the block and the warp
// within the block. Traces written by algorithms have none;
// traces captured from real programs carry one per instruction, as a
// location record (binary) or an `at` line (text) that holds until the
// next one (docs/trace-format.md).
#include <array>
#include <cstdint>

namespace bankcheck {

struct TraceLocation {
  std::uint64_t launch = 0;               ///< capture's launch id (launches.csv)
  std::array<std::uint32_t, 3> block{};   ///< blockIdx x, y, z
  std::uint32_t warp = 0;                 ///< warp index within the block (linear thread id / 32)
  bool operator==(const TraceLocation&) const = default;
};

}  // namespace bankcheck
