#pragma once
// Conflict degree of one phase with AVX-512 conflict detection: the hot path
// of BankModel::cost for 1-, 2- and 4-byte requests.
//
// Assumptions, up front:
//  * at most 32 lanes, each touching exactly one cell (width <= cell bytes);
//  * the bank count and the rows sharing a bank word are powers of two, so
//    bank = cell & (banks - 1) and "same bank word" = equal cells once the
//    row bits inside the word are cleared;
//  * every active cell index fits in 32 bits (any real shared memory does).
// Outside these, or on a CPU without AVX-512 (F, CD, BW, DQ, VL, VPOPCNTDQ),
// simd_degree() answers kNoSimdDegree and the caller takes the scalar path.
// The answer is the same number the scalar path computes: the largest count
// of distinct bank words one bank must serve (0 when no lane is active).
#include <cstdint>

namespace bankcheck {

/// How byte addresses map to cells, banks and bank words.
struct CellKeyMap {
  unsigned cell_shift = 2;          ///< log2 of the cell bytes
  std::uint32_t bank_mask = 31;     ///< banks - 1, banks a power of two
  std::uint32_t word_row_bits = 0;  ///< cell bits naming the row inside a shared bank word (cleared to compare words)
};

inline constexpr std::uint32_t kNoSimdDegree = ~std::uint32_t{0};

/// True when this CPU runs the AVX-512 path.
bool simd_degree_available();

/// @pre lanes <= 32; addr[l] == kInactive for idle lanes; active addresses are multiples of the width.
/// @post the conflict degree, or kNoSimdDegree when the path does not apply (see above).
std::uint32_t simd_degree(const std::uint64_t* addr, unsigned lanes, const CellKeyMap& map);

}  // namespace bankcheck
