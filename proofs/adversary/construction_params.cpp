#include "proofs/adversary/construction_params.hpp"

#include <stdexcept>

namespace bankcheck::proofs {
namespace {

constexpr std::int64_t kMaxKeys = std::int64_t{1} << 40;

RangedParam warp() { return {"w", 32, 2, 1024, "warp size = banks of the DMM"}; }
RangedParam key_bytes() { return {"key_bytes", 4, 4, 8, "bytes per key in a --format bin file: 4 or 8"}; }

std::vector<RangedParam> sort_params(std::int64_t u, std::int64_t E) {
  return {{"u", u, 2, 1024, "threads per block: a power of two, a multiple of 2w"},
          {"E", E, 2, 1024, "items per thread, 1 < E <= w"},
          warp(),
          {"n", 0, 0, kMaxKeys, "keys: the tile u*E times a power of two; 0 = 4 tiles"},
          {"wide", 0, 0, 1,
           "passes of >= 2 warps per merge: 0 = SPAA 2025 Section 4 (Theorem 8), 1 = the searched warp labeling"},
          key_bytes()};
}

}  // namespace

const std::vector<ConstructionSpec>& constructions() {
  static const std::vector<ConstructionSpec> specs = {
      {"pbs",
       "HiPC 2015 worst-case queries (--construction corollary: Corollary 4.1, K a multiple of w^2; lemma: "
       "Lemma 4.2, K >= 2w^2), as values of the keys 1, 3, ..., 2K-1 that `bankcheck run pbs` searches",
       {warp(),
        {"K", 1024, 1, std::int64_t{1} << 30, "keys in the sorted array"},
        {"queries", 4096, 1, kMaxKeys, "queries to write"},
        {"C", 0, 0, std::int64_t{1} << 30, "Corollary 4.1's constant, 0 <= C < K/w"},
        key_bytes()}},
      {"merge",
       "SPAA 2025 Section 4: lists A then B whose pairwise merge meets Theorem 8 in every warp",
       {warp(),
        {"E", 17, 2, 1024, "items per thread, 1 < E <= w"},
        {"n", 0, 0, kMaxKeys, "keys, a multiple of 2wE; 0 = 2wE (two warps)"},
        key_bytes()}},
      {"merge-sort", "a worst-case permutation for a whole CUB-style merge sort", sort_params(256, 17)},
      {"cub-merge-sort", "merge-sort with CUB 13.0's sm_90 tuning: u = 256, E = 17", sort_params(256, 17)},
      {"spaa-merge-sort", "merge-sort with SPAA 2025 Section 5's configuration: u = 512, E = 15", sort_params(512, 15)},
      {"merge-warp", "(--search only) one warp's merge labeling, any |A|, counted in the paper's steps",
       {warp(), {"E", 4, 2, 1024, "items per thread, 1 < E <= w"}}},
  };
  return specs;
}

const ConstructionSpec* find_construction(std::string_view name) {
  for (const ConstructionSpec& s : constructions())
    if (s.name == name) return &s;
  return nullptr;
}

Params resolve_construction_params(const ConstructionSpec& spec, const Params& given) {
  Params out;
  for (const RangedParam& p : spec.params) out[p.name] = p.default_value;
  for (const auto& [name, value] : given) {
    const RangedParam* p = nullptr;
    for (const RangedParam& q : spec.params)
      if (q.name == name) p = &q;
    if (!p) {
      std::string known;
      for (const RangedParam& q : spec.params) known += (known.empty() ? "" : ", ") + q.name;
      throw std::invalid_argument(spec.name + " has no parameter '" + name + "' (parameters: " + known + ")");
    }
    if (value < p->lo || value > p->hi)
      throw std::invalid_argument(name + ": must be an integer in " + std::to_string(p->lo) + ".." +
                                  std::to_string(p->hi) + " (got " + std::to_string(value) + "; " + p->help + ")");
    if (name == "key_bytes" && value != 4 && value != 8)
      throw std::invalid_argument("key_bytes: must be 4 or 8 (got " + std::to_string(value) + ")");
    out[name] = value;
  }
  return out;
}

}  // namespace bankcheck::proofs
