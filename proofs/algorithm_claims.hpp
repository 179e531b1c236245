#pragma once
// Claims that run the real algorithm code (sim/*.hpp) on the CPU through
// BlockRecorder and price every warp instruction with BankModel::cost.
// The factories take the algorithms' mutation knobs so that tests can check
// that a broken variant is caught (a counterexample is reported).
#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// SPAA 2025 Algorithm 1 end to end (sim/algorithms/merge/cf_merge.hpp, gather and scatter)
/// for every split, on one warp (warps = 1) or a block of `warps` warps;
/// reverse_b / circular_shift are CfLayout's mutation knobs.
Claim spaa_gather_claim(unsigned warps = 1, bool reverse_b = true, bool circular_shift = true);

/// HiPC 2015 PBS-CF (Algorithms 2-3) is conflict-free for all inputs;
/// `offset_stride` is PbsSearch's lane-offset knob (1 = the paper's offset).
Claim pbs_cf_conflict_free_claim(int offset_stride = 1);

/// Aho-Corasick SM-2 scan is conflict-free for every chunk size; the point's
/// E is the chunk in 4-byte words. `staging` = "sm2" (the paper's layout),
/// "sm1" (the mutation: contiguous chunks) or "skewed".
Claim ac_scan_conflict_free_claim(const char* staging = "sm2");

}  // namespace bankcheck::proofs
