#pragma once
// Conflict degree of one phase with SIMD: the hot path of BankModel::cost
// for 1-, 2- and 4-byte requests. Two exact implementations, the faster one
// picked at run time by timing both: AVX-512 (vpconflictd) and AVX2
// (rotation compares plus a bit-sliced per-bank counter).
//
// Assumptions, up front:
//  * at most 32 lanes, each touching exactly one cell (width <= cell bytes);
//  * the bank count and the rows sharing a bank word are powers of two, so
//    bank = cell & (banks - 1) and "same bank word" = equal cells once the
//    row bits inside the word are cleared; AVX2 also needs banks <= 32;
//  * every active cell index fits in 32 bits (any real shared memory does).
// Outside these, or on a CPU without the path's instructions, simd_degree()
// answers kNoSimdDegree and the caller takes the scalar path. The answer is
// the conflict degree as model/conflict_degree.hpp defines it: the largest
// count of distinct bank words one bank must serve (0 when no lane is active).
#include <cstdint>
#include <string_view>
#include <vector>

namespace bankcheck {

/// How byte addresses map to cells, banks and bank words.
struct CellKeyMap {
  unsigned cell_shift = 2;          ///< log2 of the cell bytes
  std::uint32_t bank_mask = 31;     ///< banks - 1, banks a power of two
  std::uint32_t word_row_bits = 0;  ///< cell bits naming the row inside a shared bank word (cleared to compare words)
};

inline constexpr std::uint32_t kNoSimdDegree = ~std::uint32_t{0};

enum class SimdPath : std::uint8_t { none, avx2, avx512 };

std::string_view simd_path_name(SimdPath path);

/// True when this CPU has the instructions the path needs (none: always).
bool simd_path_available(SimdPath path);

/// The fastest available path on this CPU, measured once (a fraction of a
/// millisecond) on a fixed mix of request shapes, since a CPU with AVX-512
/// may run its vpconflictd slower than AVX2's compares; BANKCHECK_SIMD=none,
/// avx2 or avx512 chooses instead (where available). The default of
/// simd_degree(); every path gives the same answers.
SimdPath best_simd_path();

/// Every path this CPU can run, none excluded (for tests and benchmarks).
std::vector<SimdPath> available_simd_paths();

/// A path's kernel for exactly 32 lanes: what simd_degree(addr, 32, map,
/// path) runs once its checks pass. Callers that cost many requests of one
/// shape resolve it once and call it without further dispatch; it may
/// still answer kNoSimdDegree (a cell index over 32 bits).
using DegreeKernel = std::uint32_t (*)(const std::uint64_t* addr, const CellKeyMap& map);

/// A kernel with the map it was resolved for.
struct SinglePhasePlan {
  DegreeKernel kernel = nullptr;
  CellKeyMap map;
};

/// The kernel for `map` on `path`, or nullptr where the path does not apply
/// to the map or this CPU lacks it.
DegreeKernel simd_degree_kernel(const CellKeyMap& map, SimdPath path = best_simd_path());

/// @pre lanes <= 32; addr[l] == kInactive for idle lanes; active addresses are multiples of the width.
/// @post the conflict degree, or kNoSimdDegree when the path does not apply (see above) or is not available.
std::uint32_t simd_degree(const std::uint64_t* addr, unsigned lanes, const CellKeyMap& map,
                          SimdPath path = best_simd_path());

}  // namespace bankcheck
