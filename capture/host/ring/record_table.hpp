#pragma once
// The device's table of distinct warp records (docs/capture.md, "Deduplicated
// traces"): in a full capture the patches merge a launch's identical records
// on the GPU, before anything crosses PCIe, and the host reads the table once
// when the launch ends. It holds what the host's table (slot_dedup.hpp)
// holds: two records are identical when everything the converter reads but
// the location is equal (pc, op, width, mask, the active lanes' words of the
// record and of its continuation slots); an entry keeps the first execution's
// block and warp and counts every execution.
//
// Protocol (capture/device/record_table.cuh; device memory, one table per ring):
//  * Buckets (table_buckets(capacity) words, open addressing by the record's hash) hold
//    kBucketEmpty, kBucketClaimed (a warp is writing the entry), kBucketDead
//    (claimed when the entries ran out: skipped) or entry index + 1.
//  * A warp's leader claims an empty bucket with a compare-and-swap, takes
//    entry `used++`, the warp writes the entry (count 1), fences (device
//    scope), and the leader publishes the bucket. A warp that finds a
//    published bucket compares its words lane by lane and, when all are
//    equal, adds 1 to the entry's count.
//  * A record that finds no room (entries spent, or kTableProbes buckets
//    probed) goes to the ring as a record of its own: nothing is lost.
// Every execution the table takes is also counted in the descriptor
// (`table_executions`), apart from the entries, so the host checks that the
// entries' counts add up, and recomputes each entry's hash from its words.
//
// Plain C++ (model/hd.hpp's macro only): the patches and the host tests include it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "capture/host/ring/ring_layout.hpp"
#include "model/hd.hpp"
#include "sim/inputs/splitmix64.hpp"

namespace bankcheck::capture {

/// Slots a record occupies at most: the record and its continuation slots (a cp.async's two).
inline constexpr unsigned kRecordSlots = 3;
/// Distinct records the device's table holds per launch (2^16: 28 MiB of device memory per ring).
inline constexpr std::uint32_t kTableRecords = std::uint32_t{1} << 16;
/// Buckets probed before a record gives up on the table (the load factor is at most 1/2).
inline constexpr unsigned kTableProbes = 64;

/// Buckets of a table of `capacity` entries: twice as many, so that the load
/// factor stays at most 1/2, and a power of two when the capacity is one (the
/// device masks a hash with buckets - 1). Host and device size, clear and
/// probe the buckets by this one count. @pre capacity <= 2^31.
BANKCHECK_HD constexpr std::uint32_t table_buckets(std::uint32_t capacity) { return 2 * capacity; }
static_assert(table_buckets(kTableRecords) == std::uint32_t{1} << 17, "the table's buckets: 2^17 words");

inline constexpr std::uint32_t kBucketEmpty = 0;
inline constexpr std::uint32_t kBucketClaimed = 0xFFFFFFFFu;
inline constexpr std::uint32_t kBucketDead = 0xFFFFFFFEu;

/// One distinct record (device memory). `words[k][lane]`: slot k's word of
/// the lane (slot 0 the record's offset, then its continuation words), 0 for
/// lanes outside `mask`.
struct alignas(16) RecordEntry {
  std::uint64_t hash;   ///< record_hash of the rest: the host recomputes it
  std::uint64_t count;  ///< executions
  std::uint64_t pc;
  std::uint32_t block[3];  ///< the first execution's blockIdx
  std::uint32_t warp;      ///< and its warp in the block
  std::uint32_t mask;
  std::uint32_t shape;     ///< op | width << 8
  std::uint32_t flags;     ///< the first execution's sanitizer flags (not compared, as the host's table)
  std::uint32_t padding;
  std::uint32_t words[kRecordSlots][kCaptureWarp];
};
static_assert(sizeof(RecordEntry) == 448, "RecordEntry layout is shared with the device code");

BANKCHECK_HD constexpr std::uint32_t record_shape(SlotOp op, std::uint32_t width) {
  return static_cast<std::uint32_t>(op) | (width & 0xFFu) << 8;
}

/// A lane's share of the record's hash: its words of the record's `slots` slots. Lanes outside the mask give 0.
BANKCHECK_HD constexpr std::uint64_t lane_hash(unsigned lane, const std::uint32_t* words, unsigned slots) {
  std::uint64_t h = inputs::SplitMix64::hash(std::uint64_t{lane} << 32 | words[0]);
  for (unsigned k = 1; k < slots; ++k) h = inputs::SplitMix64::hash(h ^ (std::uint64_t{words[k]} << 7));
  return h;
}

/// The record's hash: its header and the XOR of its lanes' shares (an order-free combination, so
/// the warp adds the shares in any order; the lane number inside each share keeps lanes apart).
BANKCHECK_HD constexpr std::uint64_t record_hash(std::uint64_t pc, std::uint32_t shape, std::uint32_t mask,
                                                 std::uint64_t lanes) {
  const std::uint64_t head = inputs::SplitMix64::hash(pc ^ inputs::SplitMix64::hash(std::uint64_t{shape} << 32 | mask));
  const std::uint64_t h = inputs::SplitMix64::hash(head ^ lanes);
  return h == 0 ? 1 : h;  // never the empty key
}

/// The hash of an entry's record, from its fields (what the device computed from its registers).
BANKCHECK_HD constexpr std::uint64_t entry_hash(const RecordEntry& e) {
  const unsigned slots = 1 + continuation_slots(static_cast<SlotOp>(e.shape & 0xFFu));
  std::uint64_t lanes = 0;
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    if (((e.mask >> l) & 1u) == 0) continue;
    std::uint32_t w[kRecordSlots] = {};
    for (unsigned k = 0; k < slots && k < kRecordSlots; ++k) w[k] = e.words[k][l];
    lanes ^= lane_hash(l, w, slots);
  }
  return record_hash(e.pc, e.shape, e.mask, lanes);
}

/// An entry as the ring slots the converter takes: the record, then its
/// continuation slots; returns how many (0: the entry is not intact: its
/// hash differs from its words', its op cannot be a table record, or its
/// count is 0). @pre out has room for kRecordSlots slots.
std::size_t entry_slots(const RecordEntry& e, CaptureSlot* out);

/// What the host found in a launch's table when it ended.
struct TableIntake {
  std::uint64_t entries = 0;     ///< intact entries handed on
  std::uint64_t executions = 0;  ///< their counts, added
  std::uint64_t broken = 0;      ///< entries not intact (entry_slots gave 0): not handed on
};

/// Hand every intact entry to `take(const CaptureSlot* slots, std::size_t n, std::uint64_t count)`.
template <class Take>
TableIntake take_entries(const RecordEntry* entries, std::size_t n, Take&& take) {
  TableIntake intake;
  CaptureSlot slots[kRecordSlots];
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = entry_slots(entries[i], slots);
    if (k == 0) {
      ++intake.broken;
      continue;
    }
    take(slots, k, entries[i].count);
    ++intake.entries;
    if (__builtin_add_overflow(intake.executions, entries[i].count, &intake.executions))
      throw std::overflow_error("capture: executions exceed 2^64-1");
  }
  return intake;
}

}  // namespace bankcheck::capture
