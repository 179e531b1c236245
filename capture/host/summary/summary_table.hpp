#pragma once
// The per-instruction table of `bankcheck capture --summary` (docs/capture.md): the
// capture patch costs each warp request on the GPU with the sm90 rules the
// CPU uses (model/sm90_warp_cost.hpp) and adds it to this table instead of
// writing a record; the host reads the table at the end of each launch.
// Header-only and BANKCHECK_HD, with the atomics of hd_atomic.hpp, so the
// host tests run the same code from threads.
//
// Layout: `shards` open-addressing hash tables of `capacity` slots each (a
// power of two), keyed by the absolute pc. A warp adds to the shard of its
// SM (smid % shards), so that thousands of warps executing one hot
// instruction spread their atomics over `shards` addresses; the host adds
// the shards up. A request that finds no slot (a full shard) is counted in
// `overflow`, never dropped silently; an instruction seen with two kinds is
// counted in `kind_mismatch`. Either makes the launch incomplete.
//
// Kinds the SASS refines after the run (docs/capture.md: ATOMS.POPC.INC,
// ATOMS.CAS, LDGSTS.BYPASS) cannot be told apart here, so an atom or a
// 16-byte cp.async is also costed as its alternative kind (atom.popc,
// cpasync.cg) in `alt`, with its own worst record; a CAS is twice an atom,
// so it needs no column.
#include <cstdint>

#include "capture/host/summary/hd_atomic.hpp"
#include "model/cost_invariants.hpp"
#include "model/hd.hpp"
#include "model/sm90_warp_cost.hpp"

namespace bankcheck::capture {

/// Sums of one cost column over an instruction's executions.
struct SummaryCosts {
  std::uint64_t unmodelled;        ///< executions the rules do not cost
  std::uint64_t unmodelled_lanes;  ///< their active lanes
  std::uint64_t wavefronts;
  std::uint64_t ideal;
  std::uint64_t degree;            ///< the largest degree of one execution
};

/// One kept warp record: the execution with the most excess wavefronts
/// under one cost column.
struct SummaryWorst {
  std::uint64_t key;   ///< excess wavefronts + 1; 0: none yet
  std::uint64_t lock;  ///< spin lock over the record (hd_atomic::lock)
  std::uint32_t block[3];
  std::uint32_t warp;
  std::uint32_t mask;
  std::uint32_t wavefronts;
  std::uint32_t addr[sm90::kLanes];  ///< offsets (lanes outside mask: ignore)
  std::uint64_t source[sm90::kLanes];  ///< a copy's global sources (else zero)
};

/// One instruction's aggregates in one shard. Zero-filled = free.
struct alignas(8) SummarySlot {
  std::uint64_t key;         ///< pc + 1; 0: free
  std::uint64_t kind;        ///< op << 8 | width, + 1; 0: not yet written by the claimer
  std::uint64_t executions;  ///< warp executions, modelled or not
  std::uint64_t lanes;       ///< active lanes summed over the executions
  SummaryCosts costs;        ///< as the sanitizer reported the kind
  SummaryCosts alt;          ///< as the kind's alternative (alternative_op), where it has one
  SummaryWorst worst;        ///< the worst execution under `costs`
  SummaryWorst alt_worst;    ///< the worst under `alt`: the SASS may make it the one that counts
};
static_assert(sizeof(SummarySlot) == 960, "SummarySlot layout is shared with the device code");

/// What the patch knows about one warp request.
struct SummaryRequest {
  std::uint64_t pc = 0;
  Op op = Op::load;
  unsigned width = 4;
  std::uint32_t mask = 0;  ///< lanes that took part
  std::uint32_t addr[sm90::kLanes] = {};
  std::uint64_t source[sm90::kLanes] = {};  ///< a copy's global sources (has_source)
  bool has_source = false;
  std::uint32_t block[3] = {};
  std::uint32_t warp = 0;
};

/// The table as the patch and the host see it. `counters` points at two
/// words: requests lost to full shards, and kind mismatches.
struct SummaryTableView {
  SummarySlot* slots = nullptr;  ///< shards * capacity slots, shard s at s * capacity
  std::uint32_t capacity = 0;    ///< slots per shard, a power of two
  std::uint32_t shards = 0;
  std::uint64_t* overflow = nullptr;
  std::uint64_t* kind_mismatch = nullptr;
};

/// The kind an atom or 16-byte cp.async may turn out to be from its SASS;
/// `op` itself where there is none.
BANKCHECK_HD_INLINE Op alternative_op(Op op, unsigned width) {
  if (op == Op::atom) return Op::atom_popc;
  if (op == Op::cpasync && width == 16) return Op::cpasync_cg;
  return op;
}

BANKCHECK_HD_INLINE std::uint64_t summary_kind(Op op, unsigned width) {
  return (std::uint64_t{static_cast<std::uint8_t>(op)} << 8 | width) + 1;
}

/// The slot of `pc` in `shard`, claimed if new; nullptr when the shard is full.
BANKCHECK_HD_INLINE SummarySlot* find_or_claim(const SummaryTableView& t, unsigned shard, std::uint64_t pc,
                                               std::uint64_t kind) {
  SummarySlot* base = t.slots + static_cast<std::uint64_t>(shard) * t.capacity;
  const std::uint64_t key = pc + 1;
  std::uint64_t i = ((pc >> 4) * 0x9E3779B97F4A7C15ull) >> 32;  // sm_90 instructions are 16 bytes apart
  for (std::uint32_t probe = 0; probe < t.capacity; ++probe, ++i) {
    SummarySlot* s = base + (i & (t.capacity - 1));
    std::uint64_t found = hd_atomic::load(&s->key);
    if (found == 0) {
      found = hd_atomic::cas(&s->key, 0, key);
      if (found == 0) {  // claimed: the kind follows at once
        hd_atomic::store(&s->kind, kind);
        return s;
      }
    }
    if (found != key) continue;
    std::uint64_t k;
    while ((k = hd_atomic::load(&s->kind)) == 0) {  // the claimer is between its two writes
    }
    if (k != kind) {
      hd_atomic::add(t.kind_mismatch, 1);
      return nullptr;
    }
    return s;
  }
  hd_atomic::add(t.overflow, 1);
  return nullptr;
}

BANKCHECK_HD_INLINE void add_costs(SummaryCosts& sums, const sm90::WarpCost& c, unsigned lanes) {
  if (!c.modelled) {
    hd_atomic::add(&sums.unmodelled, 1);
    hd_atomic::add(&sums.unmodelled_lanes, lanes);
    return;
  }
  hd_atomic::add(&sums.wavefronts, c.wavefronts);
  hd_atomic::add(&sums.ideal, c.ideal);
  if (c.degree > hd_atomic::load(&sums.degree)) hd_atomic::max(&sums.degree, c.degree);
}

/// Keep the request as `w` if it has more excess wavefronts than the one
/// kept (the first of equals stays).
BANKCHECK_HD_INLINE void keep_if_worse(SummaryWorst& w, const SummaryRequest& r, const sm90::WarpCost& c) {
  const std::uint64_t key = conflicts_of(c.wavefronts, c.ideal) + 1;  // c passed warp_cost's check
  if (key <= hd_atomic::load(&w.key)) return;  // most executions stop here, without the lock
  hd_atomic::lock(&w.lock);
  if (key > hd_atomic::load(&w.key)) {
    for (unsigned k = 0; k < 3; ++k) w.block[k] = r.block[k];
    w.warp = r.warp;
    w.mask = r.mask;
    w.wavefronts = c.wavefronts;
    for (unsigned l = 0; l < sm90::kLanes; ++l) w.addr[l] = r.addr[l];
    for (unsigned l = 0; l < sm90::kLanes; ++l) w.source[l] = r.has_source ? r.source[l] : 0u;
    hd_atomic::store(&w.key, key);
  }
  hd_atomic::unlock(&w.lock);
}

BANKCHECK_HD_INLINE unsigned lane_count(std::uint32_t mask) {
  unsigned n = 0;
  for (; mask != 0; mask &= mask - 1) ++n;
  return n;
}

/// Cost one warp request and add it to `shard`.
BANKCHECK_HD_INLINE void summarize(const SummaryTableView& t, unsigned shard, const SummaryRequest& r) {
  SummarySlot* s = find_or_claim(t, shard, r.pc, summary_kind(r.op, r.width));
  if (s == nullptr) return;  // counted by find_or_claim
  const unsigned lanes = lane_count(r.mask);
  const std::uint64_t* source = r.has_source ? r.source : nullptr;
  const sm90::WarpCost c = sm90::warp_cost(r.op, r.width, r.addr, r.mask, Counter::instruction, source);
  hd_atomic::add(&s->executions, 1);
  hd_atomic::add(&s->lanes, lanes);
  add_costs(s->costs, c, lanes);
  if (c.modelled) keep_if_worse(s->worst, r, c);
  const Op alt = alternative_op(r.op, r.width);
  if (alt == r.op) return;
  const sm90::WarpCost a = sm90::warp_cost(alt, r.width, r.addr, r.mask, Counter::instruction, source);
  add_costs(s->alt, a, lanes);
  if (a.modelled) keep_if_worse(s->alt_worst, r, a);
}

}  // namespace bankcheck::capture
