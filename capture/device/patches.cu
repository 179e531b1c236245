// The capture's device patches: functions the Compute Sanitizer calls
// before each patched shared-memory instruction (sanitizerPatchInstructions
// in capture/injection/injection.cpp). Built as a tools patch
// (`nvcc -arch=sm_90 --fatbin --keep-device-functions -Xptxas
// --compile-as-tools-patch`, no -rdc): without that ABI, patched real
// kernels fault with illegal addresses (measured on the H100).
//
// Each lane calls the patch for its own access. The lanes of a warp that
// execute the same instruction (same pc) are grouped with
// __match_any_sync(__activemask(), pc). In a deduplicated full capture (the
// default) the group first looks its record up in the launch's table of
// distinct records in device memory (record_table.cuh): a record seen before
// only adds to its count. Otherwise the group's lowest lane reserves a slot
// of the ring (capture/host/ring/ring_layout.hpp), every lane writes its own
// offset into it (one coalesced write), and the leader commits it. In
// summary mode (`capture --summary`) the leader costs the request instead
// and adds it to a per-instruction table in device memory.
#include <sanitizer_patching.h>

#include <cstdint>
#include <type_traits>

#include "capture/device/record_table.cuh"
#include "capture/device/summary_patch.cuh"
#include "capture/device/warp_identity.cuh"
#include "capture/host/ring/ring_layout.hpp"
#include "capture/host/summary/summary_table.hpp"

using bankcheck::capture::CaptureDescriptor;
using bankcheck::capture::CaptureSlot;
using bankcheck::capture::kCaptureWarp;
using bankcheck::capture::SlotOp;
using bankcheck::capture::UntracedKind;
using namespace bankcheck::capture::device;

namespace {

/// How long a leader sleeps between looks at a full ring (ns).
constexpr unsigned kFullRingSleepNs = 2000;

/// The descriptor of this launch: the callback data itself, or, where it is
/// a graph launch's router (ring_layout.hpp, GridRoute), the descriptor of
/// this grid's node; null when the launch or node is not traced, and for a
/// grid the router does not know (counted).
__device__ __forceinline__ CaptureDescriptor* descriptor_of(void* userdata) {
  auto* d = static_cast<CaptureDescriptor*>(userdata);
  if (d == nullptr || d->route_capacity == 0) return d;
  std::uint64_t grid;
  asm("mov.u64 %0, %%gridid;" : "=l"(grid));
  const std::uint32_t mask = d->route_capacity - 1;
  std::uint32_t h = static_cast<std::uint32_t>(grid) & mask;
  for (std::uint32_t i = 0; i <= mask; ++i, h = (h + 1) & mask) {
    const bankcheck::capture::GridRoute& r = d->routes[h];
    if (r.grid == grid) return r.descriptor;
    if (r.grid == bankcheck::capture::kNoGrid) break;
  }
  if (atomicAdd(reinterpret_cast<unsigned long long*>(&d->unrouted), 1ull) == 0) d->unrouted_grid = grid;
  return nullptr;
}

/// The word a lane writes into the continuation slot of kind `kind`
/// (ring_layout.hpp): half of its copy source or of its global address.
__device__ __forceinline__ std::uint32_t continuation_word(SlotOp kind, std::uint64_t address, const void* source) {
  const std::uint64_t from = reinterpret_cast<std::uintptr_t>(source);
  if (kind == SlotOp::source_low) return static_cast<std::uint32_t>(from);
  if (kind == SlotOp::source_high) return static_cast<std::uint32_t>(from >> 32);
  return static_cast<std::uint32_t>(address >> 32);
}

/// Whether the launch's table of distinct records took this warp's record
/// (record_table.cuh): its lanes' words are the offset and, for a kind with
/// continuation slots, the words those slots would carry; 0 outside `mask`.
__device__ __forceinline__ bool merged(CaptureDescriptor* d, std::uint64_t pc, std::uint64_t address,
                                       std::uint32_t width, SlotOp op, std::uint32_t flags, unsigned group,
                                       unsigned mask, unsigned lane, unsigned leader, const void* source) {
  const unsigned extra = bankcheck::capture::continuation_slots(op);
  std::uint32_t words[bankcheck::capture::kRecordSlots] = {};
  if ((mask >> lane) & 1u) {
    words[0] = static_cast<std::uint32_t>(address);
    for (unsigned k = 0; k < extra; ++k)
      words[1 + k] = continuation_word(bankcheck::capture::continuation(op, k), address, source);
  }
  return table_add(d, pc, op, width, flags, group, mask, lane, leader, words, 1 + extra);
}

/// Write one warp record for the lanes of this warp at `pc`.
/// `address`: the lane's shared-memory offset, or its global address for gld/gst.
/// `lane_limit`: lanes at or above it take part in the instruction but
/// give no address (ldmatrix .x1/.x2 read row addresses from lanes 0-7 or 0-15 only).
/// `source` (cp.async only, else null): this lane's global source address.
/// A record of a kind with continuation slots (ring_layout.hpp) takes
/// consecutive tickets: the record, then its continuations.
__device__ __forceinline__ void emit(CaptureDescriptor* d, std::uint64_t pc, std::uint64_t address,
                                     std::uint32_t width, SlotOp op, std::uint32_t flags, unsigned lane_limit,
                                     const void* source = nullptr) {
  if (d->summary_stage == 3) return;  // diagnostic: the patch's entry and exit only
  const unsigned active = __activemask();
  const unsigned group = __match_any_sync(active, pc);
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(group) - 1;
  const unsigned limit_mask = lane_limit >= kCaptureWarp ? 0xFFFFFFFFu : ((1u << lane_limit) - 1u);
  const unsigned mask = group & limit_mask;
  if (d->summary_slots != nullptr)
    return summarize_warp(d, pc, static_cast<std::uint32_t>(address), width, op, group, mask, lane, leader, source);

  const unsigned extra = bankcheck::capture::continuation_slots(op);
  const unsigned slots = 1 + extra;
  // Merged on the device; the ring takes what the table cannot.
  if (d->table_capacity != 0 && merged(d, pc, address, width, op, flags, group, mask, lane, leader, source)) return;
  std::uint64_t ticket = 0;
  bool write = true;
  if (lane == leader) {
    ticket = atomicAdd(reinterpret_cast<unsigned long long*>(&d->reserved), static_cast<unsigned long long>(slots));
    if (extra > 0) atomicAdd(reinterpret_cast<unsigned long long*>(&d->continuation_slots), static_cast<unsigned long long>(extra));
    // Full ring: wait for the host to consume the slots these tickets reuse.
    while (ticket + slots - 1 - *d->consumed >= d->capacity) {
      if (*d->abort != 0) {
        atomicAdd(reinterpret_cast<unsigned long long*>(&d->abandoned), 1ull);
        write = false;
        break;
      }
      __nanosleep(kFullRingSleepNs);
    }
  }
  ticket = __shfl_sync(group, ticket, leader);
  write = __shfl_sync(group, write, leader);
  if (!write) return;

  CaptureSlot* slot = d->slots + (ticket & (d->capacity - 1));
  if ((mask >> lane) & 1u) slot->addr[lane] = static_cast<std::uint32_t>(address);
  for (unsigned k = 0; k < extra; ++k)
    d->slots[(ticket + 1 + k) & (d->capacity - 1)].addr[lane] =
        continuation_word(bankcheck::capture::continuation(op, k), address, source);
  if (lane == leader) {
    const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    for (unsigned k = 0; k < slots; ++k) {
      CaptureSlot* s = d->slots + ((ticket + k) & (d->capacity - 1));
      s->pc = pc;
      s->block[0] = blockIdx.x;
      s->block[1] = blockIdx.y;
      s->block[2] = blockIdx.z;
      s->warp = thread / kCaptureWarp;
      s->mask = mask;
      s->op = static_cast<std::uint8_t>(k == 0 ? op : bankcheck::capture::continuation(op, k - 1));
      s->width = static_cast<std::uint8_t>(width);
      s->flags = static_cast<std::uint16_t>(flags);
    }
  }
  // Every lane's write must be visible to the host before the commit.
  __threadfence_system();
  __syncwarp(group);
  if (lane == leader)
    for (unsigned k = 0; k < slots; ++k)
      *reinterpret_cast<volatile std::uint64_t*>(&d->slots[(ticket + k) & (d->capacity - 1)].ticket) = ticket + k + 1;
}

/// Write one record of `words` (at most a warp's) from the warp's lowest
/// lane alone, for callbacks whose arguments describe the whole warp's
/// operation (wgmma): every lane that calls passes the same words.
__device__ __forceinline__ void emit_words(CaptureDescriptor* d, std::uint64_t pc, const std::uint32_t* words,
                                           unsigned count, SlotOp op) {
  const unsigned group = __match_any_sync(__activemask(), pc);
  if (lane_id() != static_cast<unsigned>(__ffs(group) - 1)) return;
  const std::uint64_t ticket = atomicAdd(reinterpret_cast<unsigned long long*>(&d->reserved), 1ull);
  while (ticket - *d->consumed >= d->capacity) {
    if (*d->abort != 0) {
      atomicAdd(reinterpret_cast<unsigned long long*>(&d->abandoned), 1ull);
      return;
    }
    __nanosleep(kFullRingSleepNs);
  }
  CaptureSlot* s = d->slots + (ticket & (d->capacity - 1));
  for (unsigned k = 0; k < count; ++k) s->addr[k] = words[k];
  s->pc = pc;
  s->block[0] = blockIdx.x;
  s->block[1] = blockIdx.y;
  s->block[2] = blockIdx.z;
  s->warp = (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) / kCaptureWarp;
  s->mask = count >= kCaptureWarp ? 0xFFFFFFFFu : (1u << count) - 1u;
  s->op = static_cast<std::uint8_t>(op);
  s->width = 16;
  s->flags = 0;
  __threadfence_system();
  *reinterpret_cast<volatile std::uint64_t*>(&s->ticket) = ticket + 1;
}

/// Count an operation the ring cannot describe, once per warp instruction.
__device__ __forceinline__ void count_untraced(void* userdata, std::uint64_t pc, UntracedKind kind) {
  auto* d = descriptor_of(userdata);
  if (d == nullptr || !block_selected(d)) return;
  const unsigned group = __match_any_sync(__activemask(), pc);
  if (lane_id() == static_cast<unsigned>(__ffs(group) - 1))
    atomicAdd(reinterpret_cast<unsigned long long*>(&d->untraced[static_cast<unsigned>(kind)]), 1ull);
}

/// The sanitizer's flags to an op: a write without a value (pData null) or
/// a read-and-write is an atomic or reduction (sanitizer_patching.h: "If
/// the access is an atomic, the pointer will be NULL").
__device__ __forceinline__ SlotOp access_op(std::uint32_t flags, const void* pData) {
  const bool read = flags & SANITIZER_MEMORY_DEVICE_FLAG_READ;
  const bool written = flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE;
  if (written && (read || pData == nullptr)) return SlotOp::atom;
  return written ? SlotOp::store : SlotOp::load;
}

}  // namespace

extern "C" {

/// SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS: `ptr` is already the offset
/// within the shared window.
__device__ __noinline__ SanitizerPatchResult bankcheck_shared_access(void* userdata, uint64_t pc, void* ptr,
                                                                     uint32_t accessSize, uint32_t flags,
                                                                     const void* pData) {
  auto* d = descriptor_of(userdata);
  if (d == nullptr || !block_selected(d)) return SANITIZER_PATCH_SUCCESS;
  emit(d, pc, static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(ptr)), accessSize, access_op(flags, pData),
       flags, kCaptureWarp);
  return SANITIZER_PATCH_SUCCESS;
}

/// SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS: global and generic accesses.
/// Those that land in the shared window are shared-memory accesses (the
/// banks serve them), recorded with their shared offset; with `capture
/// --global` the global ones are recorded too, with their 64-bit address
/// (global atomics and reductions as gatom). Others return at once.
__device__ __noinline__ SanitizerPatchResult bankcheck_generic_access(void* userdata, uint64_t pc, void* ptr,
                                                                      uint32_t accessSize, uint32_t flags,
                                                                      const void* pData) {
  auto* d = descriptor_of(userdata);
  if (d == nullptr) return SANITIZER_PATCH_SUCCESS;
  if (__isShared(ptr)) {
    if (d->record_generic_shared == 0 || !block_selected(d)) return SANITIZER_PATCH_SUCCESS;
    emit(d, pc, __cvta_generic_to_shared(ptr), accessSize, access_op(flags, pData), flags, kCaptureWarp);
    return SANITIZER_PATCH_SUCCESS;
  }
  if (d->record_global == 0 || !__isGlobal(ptr) || !block_selected(d)) return SANITIZER_PATCH_SUCCESS;
  const SlotOp op = access_op(flags, pData);
  const SlotOp global = op == SlotOp::atom ? SlotOp::gatom : (op == SlotOp::store ? SlotOp::gst : SlotOp::gld);
  emit(d, pc, reinterpret_cast<std::uintptr_t>(ptr), accessSize, global, flags, kCaptureWarp);
  return SANITIZER_PATCH_SUCCESS;
}

/// SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS (ldmatrix/stmatrix): each of
/// the first 8 * count lanes gives one 16-byte row address.
__device__ __noinline__ SanitizerPatchResult bankcheck_matrix_access(void* userdata, uint64_t pc, uint32_t address,
                                                                     uint32_t accessSize, uint32_t flags,
                                                                     uint32_t count, const void* pNewValue) {
  (void)pNewValue;
  auto* d = descriptor_of(userdata);
  if (d == nullptr || !block_selected(d)) return SANITIZER_PATCH_SUCCESS;
  const SlotOp op = (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) ? SlotOp::stsm : SlotOp::ldsm;
  constexpr unsigned kRowsPerMatrix = 8;
  emit(d, pc, address, accessSize, op, flags, kRowsPerMatrix * count);
  return SANITIZER_PATCH_SUCCESS;
}

/// SANITIZER_INSTRUCTION_MEMCPY_ASYNC (cp.async / LDGSTS): the shared-memory
/// destination `dst` (an offset in the shared window) and the global source
/// `src`, which the copy's cost depends on (docs/bank-model.md, rule 6).
__device__ __noinline__ SanitizerPatchResult bankcheck_memcpy_async(void* userdata, uint64_t pc, void* src, uint32_t dst,
                                                                    uint32_t accessSize) {
  auto* d = descriptor_of(userdata);
  if (d == nullptr || !block_selected(d)) return SANITIZER_PATCH_SUCCESS;
  emit(d, pc, dst, accessSize, SlotOp::cpasync, 0, kCaptureWarp, src);
  return SANITIZER_PATCH_SUCCESS;
}

// Operations a per-lane record cannot describe: counted per kind.
__device__ __noinline__ SanitizerPatchResult bankcheck_remote_shared(void* userdata, uint64_t pc, void* ptr,
                                                                     uint32_t accessSize, uint32_t flags,
                                                                     const void* pData) {
  (void)ptr, (void)accessSize, (void)flags, (void)pData;
  count_untraced(userdata, pc, UntracedKind::remote_shared);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_async_store(void* userdata, uint64_t pc, uint32_t address,
                                                                   uint32_t mbarAddress, void* pNewValue,
                                                                   uint32_t accessSize) {
  (void)address, (void)mbarAddress, (void)pNewValue, (void)accessSize;
  count_untraced(userdata, pc, UntracedKind::async_store);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_async_reduction(void* userdata, uint64_t pc, uint32_t address,
                                                                       uint32_t mbarAddress, uint32_t accessSize) {
  (void)address, (void)mbarAddress, (void)accessSize;
  count_untraced(userdata, pc, UntracedKind::async_reduction);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_bulk_global_to_shared(void* userdata, uint64_t pc, uint64_t src,
                                                                             uint32_t dst, uint32_t barrier,
                                                                             uint32_t data, uint32_t isMulticast) {
  (void)src, (void)dst, (void)barrier, (void)data, (void)isMulticast;
  count_untraced(userdata, pc, UntracedKind::bulk_global_to_shared);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_bulk_shared_to_global(void* userdata, uint64_t pc, uint64_t dst,
                                                                             uint32_t src, uint32_t numBlocks) {
  (void)dst, (void)src, (void)numBlocks;
  count_untraced(userdata, pc, UntracedKind::bulk_shared_to_global);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_bulk_shared_to_shared(void* userdata, uint64_t pc, uint32_t src,
                                                                             uint32_t dst, uint32_t barrier,
                                                                             uint32_t numBlocks) {
  (void)src, (void)dst, (void)barrier, (void)numBlocks;
  count_untraced(userdata, pc, UntracedKind::bulk_shared_to_shared);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_bulk_reduction_to_global(void* userdata, uint64_t pc,
                                                                                uint64_t dst, uint32_t src,
                                                                                uint32_t numBlocks) {
  (void)dst, (void)src, (void)numBlocks;
  count_untraced(userdata, pc, UntracedKind::bulk_reduction);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_bulk_reduction_to_shared(void* userdata, uint64_t pc,
                                                                                uint32_t src, uint32_t dst,
                                                                                uint32_t barrier, uint32_t numBlocks) {
  (void)src, (void)dst, (void)barrier, (void)numBlocks;
  count_untraced(userdata, pc, UntracedKind::bulk_reduction);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_memset_shared(void* userdata, uint64_t pc, uint32_t dst,
                                                                     uint32_t numBlocks) {
  (void)dst, (void)numBlocks;
  count_untraced(userdata, pc, UntracedKind::memset_shared);
  return SANITIZER_PATCH_SUCCESS;
}
__device__ __noinline__ SanitizerPatchResult bankcheck_wgmma(void* userdata, uint64_t pc, uint32_t addressMatrixA,
                                                             uint32_t sizeMatrixA, uint32_t addressMatrixB,
                                                             uint32_t sizeMatrixB, uint32_t flags, uint32_t warpMask) {
  (void)flags;
  auto* d = descriptor_of(userdata);
  if (d == nullptr || !block_selected(d) || warpMask == 0) return SANITIZER_PATCH_SUCCESS;
  if (d->summary_slots != nullptr || d->summary_stage != 0) {
    summarize_wgmma(d, pc, addressMatrixA, sizeMatrixA, addressMatrixB, sizeMatrixB);
    return SANITIZER_PATCH_SUCCESS;
  }
  const std::uint32_t words[4] = {addressMatrixA, sizeMatrixA, addressMatrixB, sizeMatrixB};
  emit_words(d, pc, words, 4, SlotOp::wgmma);
  return SANITIZER_PATCH_SUCCESS;
}

}  // extern "C"

// The callback signatures change between toolkit versions (the async-copy
// callback gained a zero-fill argument after 13.0): check each patch
// against the header it is built with, so a mismatch fails the build here
// instead of corrupting arguments at run time.
#define BANKCHECK_CHECK_SIGNATURE(function, callback_type)                                                  \
  static_assert(std::is_same_v<decltype(function), std::remove_pointer_t<callback_type>>,                  \
                #function " does not match " #callback_type " in this toolkit's sanitizer_patching.h: "    \
                "update its parameters to the header's")
BANKCHECK_CHECK_SIGNATURE(bankcheck_shared_access, SanitizerCallbackMemoryAccess);
BANKCHECK_CHECK_SIGNATURE(bankcheck_generic_access, SanitizerCallbackMemoryAccess);
BANKCHECK_CHECK_SIGNATURE(bankcheck_matrix_access, SanitizerCallbackMatrixMemoryAccess);
BANKCHECK_CHECK_SIGNATURE(bankcheck_memcpy_async, SanitizerCallbackMemcpyAsync);
BANKCHECK_CHECK_SIGNATURE(bankcheck_remote_shared, SanitizerCallbackMemoryAccess);
BANKCHECK_CHECK_SIGNATURE(bankcheck_async_store, SanitizerCallbackAsyncStore);
BANKCHECK_CHECK_SIGNATURE(bankcheck_async_reduction, SanitizerCallbackAsyncReduction);
BANKCHECK_CHECK_SIGNATURE(bankcheck_bulk_global_to_shared, SanitizerCallbackBulkCopyGlobalToShared);
BANKCHECK_CHECK_SIGNATURE(bankcheck_bulk_shared_to_global, SanitizerCallbackBulkCopySharedToGlobal);
BANKCHECK_CHECK_SIGNATURE(bankcheck_bulk_shared_to_shared, SanitizerCallbackBulkCopySharedToShared);
BANKCHECK_CHECK_SIGNATURE(bankcheck_bulk_reduction_to_global, SanitizerCallbackBulkReductionSharedToGlobal);
BANKCHECK_CHECK_SIGNATURE(bankcheck_bulk_reduction_to_shared, SanitizerCallbackBulkReductionSharedToShared);
BANKCHECK_CHECK_SIGNATURE(bankcheck_memset_shared, SanitizerCallbackMemsetShared);
BANKCHECK_CHECK_SIGNATURE(bankcheck_wgmma, SanitizerCallbackWarpgroupMMAAsync);
