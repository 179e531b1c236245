#pragma once
// A cp.async warp built lane by lane, for the tests of rule 6b
// (model/sm90_copy_cost.hpp, model/sm90_copy_collisions.hpp; docs/bank-model.md):
// each lane writes 16 bytes at slot `slot` of 128-byte row `row`, and reads
// the 16-byte sector `sector` of the 128-byte global line `line` (line -1: a
// zero-filling lane, which reads nothing). The lines start at 8192 so that no
// source is mistaken for a destination in a test's output.
#include <cstdint>
#include <vector>

#include "model/warp_request.hpp"

namespace bankcheck::test {

struct CopyLane {
  unsigned row, slot;
  int line;
  unsigned sector;
};

inline std::uint64_t copy_destination(const CopyLane& l) { return 128 * l.row + 16 * l.slot; }

/// The lane's source address, or kZeroFill for a zero-filling lane.
inline std::uint64_t copy_source(const CopyLane& l) {
  return l.line < 0 ? kZeroFill : 8192 + 128 * static_cast<std::uint64_t>(l.line) + 16 * l.sector;
}

/// A warp's destinations and sources, which its WarpRequest views.
struct CopyWarp {
  std::vector<std::uint64_t> dst = std::vector<std::uint64_t>(32, kInactive);
  std::vector<std::uint64_t> src = std::vector<std::uint64_t>(32, kInactive);
  WarpRequest request(Op op = Op::cpasync_cg) const { return WarpRequest{op, 16, dst, src}; }
};

/// The warp whose lane 8q + k is quarters[q][k]; lanes no quarter names are inactive.
inline CopyWarp copy_warp(const std::vector<std::vector<CopyLane>>& quarters) {
  CopyWarp w;
  for (std::size_t q = 0; q < quarters.size(); ++q)
    for (std::size_t k = 0; k < quarters[q].size(); ++k) {
      w.dst[8 * q + k] = copy_destination(quarters[q][k]);
      w.src[8 * q + k] = copy_source(quarters[q][k]);
    }
  return w;
}

}  // namespace bankcheck::test
