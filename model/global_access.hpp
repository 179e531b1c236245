#pragma once
// How many memory transactions one warp's global-memory request costs, in
// two models:
//  * Karsin's aligned pages (Karsin, "A performance model for GPU
//    architectures", 2015, Section 4.2.1): global memory is organised in
//    pages of w elements; a warp's request costs one access per distinct page
//    it touches, so a contiguous but misaligned request costs two.
//  * The H100's sectors and lines: a request is served in 32-byte sectors of
//    128-byte cache lines; a warp's request costs one sector per distinct
//    32-byte sector its lanes touch (Nsight Compute's "L2 Theoretical
//    Sectors Global"), and the ideal is the fewest sectors that could hold the
//    distinct bytes the active lanes ask for.
// Like the bank model it knows nothing of the program that issued the request.
#include <cstdint>

#include "model/warp_request.hpp"

namespace bankcheck {

/// Geometry of the paged / sectored view of global memory.
struct GlobalGeometry {
  unsigned sector_bytes = 32;   ///< transaction granule (H100: 32-byte sectors)
  unsigned line_bytes = 128;    ///< cache line (H100: 128 bytes, 4 sectors)
  unsigned page_elements = 32;  ///< Karsin's page: w elements of the request's width
};

/// Cost of one warp's global request.
/// @post ideal_sectors <= sectors; all zero iff no lane is active.
struct GlobalCost {
  std::uint64_t sectors = 0;        ///< distinct sectors touched
  std::uint64_t ideal_sectors = 0;  ///< ceil(distinct bytes asked for / sector_bytes): perfect coalescing
  std::uint64_t lines = 0;          ///< distinct cache lines touched
  std::uint64_t pages = 0;          ///< distinct Karsin pages (page_elements * width bytes, aligned)
  std::uint64_t excess_sectors() const { return sectors - ideal_sectors; }
};

/// @pre request.width is valid (1, 2, 4, 8, 16); sector_bytes, line_bytes and
///      page_elements are >= 1 and line_bytes is a multiple of sector_bytes.
/// @throws std::invalid_argument on a geometry that breaks the precondition.
GlobalCost global_cost(const GlobalGeometry& geometry, const WarpRequest& request);

}  // namespace bankcheck
