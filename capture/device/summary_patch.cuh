#pragma once
// `capture --summary` on the GPU: the patches' requests costed with the sm90
// rules (model/sm90_warp_cost.hpp, the code the CPU model runs) and added to
// the per-instruction table in device memory (capture/host/summary/summary_table.hpp).
#include <cstdint>

#include "capture/device/warp_identity.cuh"
#include "capture/host/ring/ring_layout.hpp"
#include "capture/host/summary/summary_table.hpp"

namespace bankcheck::capture::device {

/// The request's origin: the issuing warp's block and its warp in the block.
__device__ __forceinline__ void stamp_origin(bankcheck::capture::SummaryRequest& r) {
  r.block[0] = blockIdx.x;
  r.block[1] = blockIdx.y;
  r.block[2] = blockIdx.z;
  r.warp = (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) / kCaptureWarp;
}

/// A whole request into its SM's shard of the table; at summary stage 2 (the
/// speed measurement's cost without the table) only costed.
__device__ __forceinline__ void submit(CaptureDescriptor* d, const bankcheck::capture::SummaryRequest& r) {
  if (d->summary_stage == 2) {
    const auto c = bankcheck::sm90::warp_cost(r.op, r.width, r.addr, r.mask, bankcheck::Counter::instruction,
                                              r.has_source ? r.source : nullptr);
    if (c.wavefronts == 0xFFFFFFFFu) d->summary_overflow = 0;  // keeps the cost from being optimised away
    return;
  }
  const bankcheck::capture::SummaryTableView table{d->summary_slots, d->summary_capacity, d->summary_shards,
                                                   &d->summary_overflow, &d->summary_kind_mismatch};
  bankcheck::capture::summarize(table, sm_id() % d->summary_shards, r);
}

/// `capture --summary`: the leader gathers the group's offsets, costs the
/// request with the sm90 rules (model/sm90_warp_cost.hpp, the CPU's code)
/// and adds it to its SM's shard of the table (capture/host/summary/summary_table.hpp).
__device__ __forceinline__ void summarize_warp(CaptureDescriptor* d, std::uint64_t pc, std::uint32_t offset,
                                               std::uint32_t width, SlotOp op, unsigned group, unsigned mask,
                                               unsigned lane, unsigned leader, const void* source) {
  if (d->summary_stage == 1) return;
  bankcheck::capture::SummaryRequest r;
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    const std::uint32_t a = __shfl_sync(group, offset, l);  // lanes outside `group` give garbage, masked out below
    r.addr[l] = (mask >> l) & 1u ? a : 0u;
  }
  if (op == SlotOp::cpasync) {  // the copy's cost depends on its sources (rule 6)
    const std::uint64_t mine = reinterpret_cast<std::uintptr_t>(source);
    for (unsigned l = 0; l < kCaptureWarp; ++l) {
      const std::uint64_t s = __shfl_sync(group, mine, l);
      r.source[l] = (mask >> l) & 1u ? (s == 0 ? bankcheck::kZeroFill : s) : 0u;  // null: a zero-filling lane
    }
    r.has_source = true;
  }
  if (lane != leader) return;
  r.pc = pc;
  r.op = static_cast<bankcheck::Op>(op);
  r.width = width;
  r.mask = mask;
  stamp_origin(r);
  submit(d, r);
}

/// `capture --summary` for a wgmma: the request a trace's record becomes
/// (capture/host/ring/record_converter.cpp, write_wgmma), costed by rule 8 on the
/// warp's lowest lane: the warpgroup's first warp carries A's and B's
/// addresses in lanes 0 and 1 and their sizes as the lanes' sources; the
/// other three warps have no lane (their share is the first warp's). Operands
/// that are not 16-byte multiples, whose record the trace would reject, go in
/// with lane 0 alone, which rule 8 does not cost: counted as not modelled,
/// never as a guessed count.
__device__ __forceinline__ void summarize_wgmma(CaptureDescriptor* d, std::uint64_t pc, std::uint32_t a,
                                                std::uint32_t a_size, std::uint32_t b, std::uint32_t b_size) {
  if (d->summary_stage == 1 || d->summary_stage == 3) return;
  const unsigned group = __match_any_sync(__activemask(), pc);
  if (lane_id() != static_cast<unsigned>(__ffs(group) - 1)) return;
  bankcheck::capture::SummaryRequest r;
  r.pc = pc;
  r.op = bankcheck::Op::wgmma;
  r.width = 16;
  stamp_origin(r);
  r.has_source = true;
  const bool whole = a % 16 == 0 && b % 16 == 0 && a_size % 16 == 0 && b_size % 16 == 0;
  if (whole && r.warp % 4 == 0) {
    if (a_size != 0) {
      r.addr[0] = a;
      r.source[0] = a_size;
      r.mask |= 1u;
    }
    r.addr[1] = b;
    r.source[1] = b_size;
    r.mask |= 2u;
  } else if (!whole) {
    r.addr[0] = a;
    r.source[0] = a_size;
    r.mask = 1u;
  }
  submit(d, r);
}

}  // namespace bankcheck::capture::device
