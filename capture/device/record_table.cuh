#pragma once
// A full capture's records merged on the GPU (capture/host/ring/record_table.hpp
// says the protocol): a warp whose record is already in its launch's table
// adds 1 to the entry's count and writes nothing across PCIe; the first
// execution of a record writes the entry. The ring takes what the table
// cannot (docs/capture.md, "Deduplicated traces").
#include <cstdint>

#include "capture/device/warp_identity.cuh"
#include "capture/host/ring/record_table.hpp"
#include "capture/host/ring/ring_layout.hpp"

namespace bankcheck::capture::device {

/// Acquire load of a bucket: the entry a published bucket names was written before it (device scope).
__device__ __forceinline__ std::uint32_t load_bucket(const std::uint32_t* bucket) {
  std::uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(bucket) : "memory");
  return v;
}

/// The leader's look at bucket `b`: an entry index + 1, kBucketDead, or, when
/// it claimed the empty bucket, the entry it took (`claimed`), kBucketDead
/// when none is left (the bucket then stays dead).
__device__ __forceinline__ std::uint32_t visit_bucket(CaptureDescriptor* d, std::uint32_t b, bool& claimed) {
  std::uint32_t* bucket = d->table_buckets + b;
  std::uint32_t v = load_bucket(bucket);
  if (v == kBucketEmpty) {
    v = atomicCAS(bucket, kBucketEmpty, kBucketClaimed);
    if (v == kBucketEmpty) {
      claimed = true;
      const std::uint32_t index = atomicAdd(&d->table_used, 1u);
      if (index < d->table_capacity) return index + 1;
      atomicExch(bucket, kBucketDead);
      return kBucketDead;
    }
  }
  while (v == kBucketClaimed) {  // another warp is writing this entry: it publishes without waiting on anything
    __nanosleep(32);
    v = load_bucket(bucket);
  }
  return v;
}

/// Write a claimed entry (every lane its words; the leader the header and the
/// words of lanes outside the group) and publish it in bucket `b`.
__device__ __forceinline__ void write_entry(CaptureDescriptor* d, RecordEntry* e, std::uint32_t b, std::uint32_t index1,
                                            std::uint64_t hash, std::uint64_t pc, std::uint32_t shape,
                                            std::uint32_t flags, unsigned group, unsigned mask, unsigned lane,
                                            unsigned leader, const std::uint32_t* w, unsigned slots) {
  for (unsigned k = 0; k < slots; ++k) e->words[k][lane] = w[k];
  if (lane == leader) {
    for (unsigned l = 0; l < kCaptureWarp; ++l)
      if (((group >> l) & 1u) == 0)
        for (unsigned k = 0; k < slots; ++k) e->words[k][l] = 0;
    e->hash = hash;
    e->count = 1;
    e->pc = pc;
    e->block[0] = blockIdx.x;
    e->block[1] = blockIdx.y;
    e->block[2] = blockIdx.z;
    e->warp = (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) / kCaptureWarp;
    e->mask = mask;
    e->shape = shape;
    e->flags = flags;
  }
  // Why the leader fences again after the barrier (PTX ISA, memory
  // consistency model): a fence followed by a strong write of the same
  // thread releases what precedes that fence in causality order. The
  // bucket is written by the leader, the entry by every lane of the group,
  // and another lane's writes reach the leader only through __syncwarp
  // (memory ordering among its participants), after the leader's first
  // fence: the two fences before the barrier are fence.sc, but their order
  // in Fence-SC is not fixed by the barrier that follows both. Only a
  // fence after the barrier puts every lane's words before atomicExch's
  // publication, which readers acquire (load_bucket).
  __threadfence();
  __syncwarp(group);
  if (lane == leader) {
    __threadfence();
    atomicExch(d->table_buckets + b, index1);
    atomicAdd(reinterpret_cast<unsigned long long*>(&d->table_executions), 1ull);
  }
}

/// Whether the entry holds this warp's record: every lane compares its own
/// words, the leader the header too. Read from L2 (the entry was written by another SM).
__device__ __forceinline__ bool entry_matches(const RecordEntry* e, std::uint64_t hash, std::uint64_t pc,
                                              std::uint32_t shape, unsigned group, unsigned mask, unsigned lane,
                                              unsigned leader, const std::uint32_t* w, unsigned slots) {
  bool same = true;
  for (unsigned k = 0; k < slots; ++k) same = same && __ldcg(&e->words[k][lane]) == w[k];
  if (lane == leader)
    same = same && __ldcg(&e->hash) == hash && __ldcg(&e->pc) == pc && __ldcg(&e->mask) == mask &&
           __ldcg(&e->shape) == shape;
  return __all_sync(group, same);
}

/// Add this warp's record (the lanes of `group`, words `w` of `slots` slots,
/// 0 outside `mask`) to the launch's table. False: no room; the caller writes
/// it to the ring.
__device__ __forceinline__ bool table_add(CaptureDescriptor* d, std::uint64_t pc, SlotOp op, std::uint32_t width,
                                          std::uint32_t flags, unsigned group, unsigned mask, unsigned lane,
                                          unsigned leader, const std::uint32_t* w, unsigned slots) {
  // The lanes' shares, XORed (gathered by shuffles: a tools patch may not use redux).
  const std::uint64_t mine = ((mask >> lane) & 1u) ? lane_hash(lane, w, slots) : 0;
  std::uint64_t lanes = 0;
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    const std::uint64_t share = __shfl_sync(group, mine, l);  // lanes outside `group` give garbage, masked out
    if ((mask >> l) & 1u) lanes ^= share;
  }
  const std::uint32_t shape = record_shape(op, width);
  const std::uint64_t hash = record_hash(pc, shape, mask, lanes);
  const std::uint32_t buckets = table_buckets(d->table_capacity);  // a power of two
  std::uint32_t b = static_cast<std::uint32_t>(hash) & (buckets - 1);
  for (unsigned probe = 0; probe < kTableProbes; ++probe, b = (b + 1) & (buckets - 1)) {
    bool claimed = false;
    std::uint32_t v = 0;
    if (lane == leader) v = visit_bucket(d, b, claimed);
    v = __shfl_sync(group, v, leader);
    claimed = __shfl_sync(group, claimed, leader);
    if (v == kBucketDead) {
      if (claimed) return false;  // the entries are spent: the ring takes it
      continue;
    }
    RecordEntry* e = d->table_entries + (v - 1);
    if (claimed) {
      write_entry(d, e, b, v, hash, pc, shape, flags, group, mask, lane, leader, w, slots);
      return true;
    }
    if (entry_matches(e, hash, pc, shape, group, mask, lane, leader, w, slots)) {
      if (lane == leader) {
        atomicAdd(reinterpret_cast<unsigned long long*>(&e->count), 1ull);
        atomicAdd(reinterpret_cast<unsigned long long*>(&d->table_executions), 1ull);
      }
      return true;
    }
  }
  return false;
}

}  // namespace bankcheck::capture::device
