#pragma once
// The memory shared by the capture patches (capture/device/patches.cu) and
// the injection library's drain thread: one slot per warp record in a ring
// of pinned, device-mapped host memory, and a descriptor in device memory
// that the patches receive as their callback data.
//
// Protocol (docs/capture.md, "The ring buffer"):
//  * A warp's leader lane reserves ticket t = atomicAdd(&descriptor.reserved, 1)
//    (a record with continuation slots takes 1 + continuation_slots(op)
//    consecutive tickets: a cp.async its sources, a global access the high
//    halves of its addresses)
//    (device memory: atomics on mapped host memory are not atomic over PCIe).
//  * It waits while t - *consumed >= capacity (the ring is full): it sleeps
//    with __nanosleep and rereads `consumed`, which the host advances. It
//    stops waiting only when the host sets *abort (then the record is
//    counted in `abandoned` instead, and the capture is marked incomplete).
//  * The lanes write slot t % capacity, fence (system scope), and the leader
//    writes slot.ticket = t + 1 last: that is the slot's commit flag.
//  * The host consumes slots in ticket order: slot c % capacity is ready
//    when its ticket is c + 1; after copying it the host stores consumed = c + 1.
// The lowest outstanding ticket always has room (it is >= consumed and
// < consumed + capacity), so as long as the host drains, no warp waits
// forever; the host never waits on the kernel to drain.
//
// Plain C++ (no CUDA beyond model/hd.hpp's macro): the device code and the host tests include it.
#include <cstdint>

#include "model/hd.hpp"

namespace bankcheck::capture {

inline constexpr unsigned kCaptureWarp = 32;

/// Kinds of a slot, as the patches classify the sanitizer's callbacks
/// (numbered as model/warp_request.hpp's Op).
enum class SlotOp : std::uint8_t {
  load = 0,
  store = 1,
  atom = 2,
  ldsm = 3,
  stsm = 4,
  cpasync = 5,
  gld = 9,   ///< `capture --global`: a global load; addr[] holds the low halves of the addresses
  gst = 10,  ///< a global store, likewise
  gatom = 11,  ///< a global atomic or reduction, likewise
  /// wgmma.mma_async with shared operands, one record per warp: addr[0..3]
  /// hold matrix A's shared address and size, matrix B's address and size
  /// (mask 0xF), as the sanitizer's callback gives them.
  wgmma = 14,
  /// A cp.async record is followed, in the next two tickets, by its lanes'
  /// global source addresses: the low halves, then the high halves.
  source_low = 0xF0,
  source_high = 0xF1,
  /// A gld/gst/gatom record is followed, in the next ticket, by the high halves of its addresses.
  address_high = 0xF2,
};

/// Slots that follow a record of kind `op` and complete it, in order:
/// `continuation(op, 0)`, `continuation(op, 1)`, ...
BANKCHECK_HD constexpr unsigned continuation_slots(SlotOp op) {
  return op == SlotOp::cpasync ? 2u : (op == SlotOp::gld || op == SlotOp::gst || op == SlotOp::gatom) ? 1u : 0u;
}
/// The kind of the k-th slot that follows a record of kind `op`. @pre k < continuation_slots(op)
BANKCHECK_HD constexpr SlotOp continuation(SlotOp op, unsigned k) {
  return op == SlotOp::cpasync ? (k == 0 ? SlotOp::source_low : SlotOp::source_high) : SlotOp::address_high;
}
/// Whether a slot of kind `op` completes the record before it rather than being one.
BANKCHECK_HD constexpr bool is_continuation(SlotOp op) {
  return op == SlotOp::source_low || op == SlotOp::source_high || op == SlotOp::address_high;
}

/// Shared-memory operations the sanitizer reports that a per-lane record
/// cannot describe (bulk copies, distributed shared memory, async stores):
/// counted per warp instruction, per kind, and reported as not traced.
enum class UntracedKind : std::uint8_t {
  remote_shared = 0,    ///< distributed shared memory (another block's shared memory)
  async_store,          ///< st.async
  async_reduction,      ///< red.async
  bulk_global_to_shared,
  bulk_shared_to_global,
  bulk_shared_to_shared,
  bulk_reduction,
  memset_shared,        ///< st.bulk
  wgmma_operand,        ///< wgmma operands: no longer counted (both modes record or cost them), kept for the numbering
  count
};
inline constexpr unsigned kUntracedKinds = static_cast<unsigned>(UntracedKind::count);

inline const char* untraced_kind_name(UntracedKind kind) {
  constexpr const char* names[kUntracedKinds] = {
      "remote shared (DSMEM)", "st.async", "red.async", "bulk copy global->shared", "bulk copy shared->global",
      "bulk copy shared->shared", "bulk reduction", "st.bulk (memset shared)", "wgmma shared operands"};
  return names[static_cast<unsigned>(kind)];
}

/// One warp record: written by the lanes of one warp instruction.
struct alignas(8) CaptureSlot {
  std::uint64_t ticket;       ///< commit flag: the reservation index + 1, written last
  std::uint64_t pc;           ///< absolute program counter of the instruction
  std::uint32_t block[3];     ///< blockIdx
  std::uint32_t warp;         ///< linear thread index / 32
  std::uint32_t mask;         ///< lanes that took part
  std::uint8_t op;            ///< SlotOp
  std::uint8_t width;         ///< bytes per lane as the sanitizer reported them
  std::uint16_t flags;        ///< the sanitizer's access flags (low 16 bits), kept for diagnosis
  std::uint32_t addr[kCaptureWarp];  ///< per-lane shared-memory offset (lanes outside mask: ignore)
};
static_assert(sizeof(CaptureSlot) == 168, "CaptureSlot layout is shared with the device code");

/// Which blocks a launch records: linear block ids in [first, last] of up
/// to kMaxBlockRanges ranges; none means every block.
inline constexpr unsigned kMaxBlockRanges = 16;
struct BlockRange {
  std::uint64_t first = 0, last = 0;
};

struct SummarySlot;  // capture/host/summary/summary_table.hpp
struct RecordEntry;  // capture/host/ring/record_table.hpp
struct CaptureDescriptor;

/// One entry of a graph launch's routes: the kernel node whose grid is
/// `grid` (%gridid, the sanitizer's gridId of the node) records through
/// `descriptor`; null: the node is not traced. The kernel nodes of one
/// graph launch share one callback data (the sanitizer gave the nodes of
/// one stream whose begin callbacks came before their ends the data set
/// last: measured on the H200, 2026-11-29,
/// validate/results/h200-2026-11-29/graphs), so each grid finds its own
/// descriptor here. An empty entry has grid kNoGrid.
struct GridRoute {
  std::uint64_t grid;
  CaptureDescriptor* descriptor;
};
inline constexpr std::uint64_t kNoGrid = ~std::uint64_t{0};
/// Entries of a graph launch's route table (open addressing by grid id): at most half of them are used.
inline constexpr std::uint32_t kRouteCapacity = 8192;

/// The patches' callback data (device memory). With `summary_slots` set
/// (`capture --summary`) the patches cost each warp request on the device
/// and add it to that table instead of writing a ring slot.
struct alignas(8) CaptureDescriptor {
  std::uint64_t reserved;                       ///< device: tickets handed out (the device-side record count)
  std::uint64_t abandoned;                      ///< device: records not written because the host aborted
  std::uint64_t continuation_slots;             ///< device: tickets that complete a record (not records of their own)
  std::uint64_t untraced[kUntracedKinds];       ///< device: untraced operations per kind
  CaptureSlot* slots;                           ///< pinned host memory, `capacity` slots
  const volatile std::uint64_t* consumed;       ///< pinned host memory, advanced by the host
  const volatile std::uint32_t* abort;          ///< pinned host memory: nonzero = stop waiting
  std::uint64_t capacity;                       ///< slots; a power of two
  std::uint32_t block_ranges;                   ///< 0 = all blocks
  std::uint32_t summary_stage;                  ///< diagnostic, --summary only: 0 all; 1 stop after grouping; 2 cost, no table; 3 return at once
  BlockRange blocks[kMaxBlockRanges];
  SummarySlot* summary_slots;                   ///< device memory, summary_shards * summary_capacity; null: trace mode
  std::uint32_t summary_capacity;               ///< slots per shard, a power of two
  std::uint32_t summary_shards;
  std::uint64_t summary_overflow;               ///< device: requests no slot could take (a full shard)
  std::uint64_t summary_kind_mismatch;          ///< device: requests whose pc was seen with another kind
  std::uint32_t record_generic_shared;          ///< nonzero: generic accesses that land in shared memory are recorded
  std::uint32_t record_global;                  ///< nonzero (`capture --global`): global loads, stores and atomics are recorded
  /// Nonzero: this descriptor only routes (a graph launch's): each grid
  /// records through the descriptor its entry of `routes` names.
  std::uint32_t route_capacity;                 ///< entries of `routes`, a power of two; 0: not a router
  GridRoute* routes;                            ///< device memory
  std::uint64_t unrouted;                       ///< device: accesses of grids with no entry (no node the host knew)
  std::uint64_t unrouted_grid;                  ///< device: the grid id of one of them
  /// A full capture's table of distinct records, merged on the device (record_table.hpp).
  RecordEntry* table_entries;                   ///< device memory, `table_capacity` entries
  std::uint32_t* table_buckets;                 ///< device memory, table_buckets(table_capacity) words
  std::uint32_t table_capacity;                 ///< a power of two; 0: every record goes to the ring
  std::uint32_t table_used;                     ///< device: entries handed out (from table_capacity on: none left)
  std::uint64_t table_executions;               ///< device: executions the table took
};

/// The host-side words next to the slots (pinned host memory). The host
/// accesses them atomically (std::atomic_ref); the device reads them
/// through the descriptor's volatile pointers.
struct alignas(8) RingControl {
  std::uint64_t consumed;
  std::uint32_t abort;
  std::uint32_t padding;
};

}  // namespace bankcheck::capture
