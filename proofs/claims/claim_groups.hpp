#pragma once
// The claims of each paper, one function per source file under proofs/claims/
// (the registry, proofs/claims_registry.cpp, lists each once), and the
// factories with the algorithms' mutation knobs: a deliberately broken variant
// must yield a counterexample, which is how the tests know a claim can fail.
#include <vector>

#include "proofs/claim.hpp"

namespace bankcheck::proofs {

/// SPAA 2025 Section 3.1-3.2 number theory from the definitions: Lemmas 1, 2,
/// 4, Corollary 3, the round formula and the circular shift.
std::vector<Claim> spaa_section3_claims();
/// SPAA 2025 Section 3.3: the thread-block extension (u = 3w threads).
std::vector<Claim> spaa_thread_block_claims();
/// SPAA 2025 Section 4: Lemmas 5-7, |T| = w/d, Theorem 8 and whether it is the worst.
std::vector<Claim> spaa_section4_claims();
/// SPAA 2025 Algorithm 1 end to end (sim/algorithms/merge/cf_merge.hpp).
std::vector<Claim> spaa_gather_claims();
/// HiPC 2015 PBS-CF / PBS-CL: conflict-freedom, answers, PBS-CL stage 2.
std::vector<Claim> hipc_pbs_claims();
/// HiPC 2015 worst cases of PBS: Corollary 4.1, Lemma 4.2, A_PBS.
std::vector<Claim> hipc_worst_case_claims();
/// Karsin 2015 (GPU architecture study), Section 2 and 4.1.1: what a k-way conflict is.
std::vector<Claim> karsin_claims();
/// SIGMOD 2008 (relational joins on GPUs), split primitive: L-ordered histograms.
std::vector<Claim> sigmod_claims();
/// Aho-Corasick in shared memory (KIPS): the SM-2 staging.
std::vector<Claim> aho_corasick_claims();
/// Symbolic conflict degrees (affine maps, XOR swizzles) against the bank model.
std::vector<Claim> symbolic_claims();

/// SPAA 2025 Algorithm 1 end to end on one warp (warps = 1) or a block of
/// `warps` warps; reverse_b / circular_shift are CfLayout's mutation knobs.
Claim spaa_gather_claim(unsigned warps = 1, bool reverse_b = true, bool circular_shift = true);

/// HiPC 2015 PBS-CF (Algorithms 2-3) is conflict-free for all inputs;
/// `offset_stride` is PbsSearch's lane-offset knob (1 = the paper's offset).
Claim pbs_cf_conflict_free_claim(int offset_stride = 1);

/// SIGMOD 2008 split histograms: "interleaved" (the paper's L order) or
/// "thread_major" (the mutation).
Claim sigmod_split_claim(const char* layout);

/// Aho-Corasick SM-2 scan is conflict-free for every chunk size; the point's
/// E is the chunk in 4-byte words. `staging` = "sm2" (the paper's layout),
/// "sm1" (the mutation: contiguous chunks) or "skewed".
Claim ac_scan_conflict_free_claim(const char* staging = "sm2");

}  // namespace bankcheck::proofs
