#include "model/simd_degree.hpp"

#include <algorithm>

#include "model/warp_request.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BANKCHECK_HAVE_AVX512_PATH 1
#endif

namespace bankcheck {

#ifdef BANKCHECK_HAVE_AVX512_PATH
namespace {

#define BANKCHECK_AVX512 __attribute__((target("avx512f,avx512cd,avx512bw,avx512dq,avx512vl,avx512vpopcntdq")))

// A 32-lane warp is two 16-lane vectors, x0 (lanes 0-15) and x1 (16-31).
// vpconflictd compares each lane with the earlier lanes of one vector; the
// lanes of x1 are compared with those of x0 through four mixed vectors
// [eight lanes of x0 | eight lanes of x1], whose upper eight lanes then see
// eight x0 lanes as "earlier" ones.
constexpr int kMixLoLo = _MM_SHUFFLE(1, 0, 1, 0);  // x0 lanes 0-7,  x1 lanes 0-7
constexpr int kMixHiLo = _MM_SHUFFLE(1, 0, 3, 2);  // x0 lanes 8-15, x1 lanes 0-7
constexpr int kMixLoHi = _MM_SHUFFLE(3, 2, 1, 0);  // x0 lanes 0-7,  x1 lanes 8-15
constexpr int kMixHiHi = _MM_SHUFFLE(3, 2, 3, 2);  // x0 lanes 8-15, x1 lanes 8-15

/// Per lane of x1: the earlier-lane bits of conflict(mix), keeping only
/// the x0 lanes in `x0_lanes` (bit k = lane k of the eight x0 lanes mixed in).
template <int Mix>
BANKCHECK_AVX512 inline __m512i cross_bits(__m512i x0, __m512i x1, std::uint32_t x0_lanes) {
  const __m512i mixed = _mm512_shuffle_i32x4(x0, x1, Mix);
  constexpr int shift = (Mix == kMixHiLo || Mix == kMixHiHi) ? 8 : 0;
  return _mm512_and_si512(_mm512_conflict_epi32(mixed), _mm512_set1_epi32(static_cast<int>((x0_lanes >> shift) & 0xff)));
}

/// Lanes of x1 whose value equals one of the x0 lanes in `x0_lanes`.
BANKCHECK_AVX512 inline std::uint32_t x1_matches_x0(__m512i x0, __m512i x1, std::uint32_t x0_lanes) {
  const __m512i lo_half = _mm512_or_si512(cross_bits<kMixLoLo>(x0, x1, x0_lanes), cross_bits<kMixHiLo>(x0, x1, x0_lanes));
  const __m512i hi_half = _mm512_or_si512(cross_bits<kMixLoHi>(x0, x1, x0_lanes), cross_bits<kMixHiHi>(x0, x1, x0_lanes));
  const std::uint32_t lo = _mm512_test_epi32_mask(lo_half, lo_half);  // lanes 8-15 stand for x1 lanes 0-7
  const std::uint32_t hi = _mm512_test_epi32_mask(hi_half, hi_half);  // lanes 8-15 stand for x1 lanes 8-15
  return ((lo >> 8) & 0xff) | (hi & 0xff00);
}

/// Per lane of x1: how many of the x0 lanes in `x0_lanes` hold its value.
BANKCHECK_AVX512 inline __m512i x1_counts_in_x0(__m512i x0, __m512i x1, std::uint32_t x0_lanes) {
  const __m512i lo_half = _mm512_add_epi32(_mm512_popcnt_epi32(cross_bits<kMixLoLo>(x0, x1, x0_lanes)),
                                           _mm512_popcnt_epi32(cross_bits<kMixHiLo>(x0, x1, x0_lanes)));
  const __m512i hi_half = _mm512_add_epi32(_mm512_popcnt_epi32(cross_bits<kMixLoHi>(x0, x1, x0_lanes)),
                                           _mm512_popcnt_epi32(cross_bits<kMixHiHi>(x0, x1, x0_lanes)));
  const __m512i lo_down = _mm512_shuffle_i32x4(lo_half, lo_half, _MM_SHUFFLE(3, 2, 3, 2));  // lanes 8-15 -> 0-7
  return _mm512_mask_blend_epi32(0xff00, lo_down, hi_half);
}

/// Lanes of one 16-lane vector with an earlier lane in `lanes` holding the same value.
BANKCHECK_AVX512 inline std::uint32_t earlier_match(__m512i x, std::uint32_t lanes) {
  const __m512i c = _mm512_and_si512(_mm512_conflict_epi32(x), _mm512_set1_epi32(static_cast<int>(lanes)));
  return _mm512_test_epi32_mask(c, c);
}

/// @pre addr holds 32 lanes (idle ones kInactive).
BANKCHECK_AVX512 std::uint32_t degree_avx512(const std::uint64_t* addr, const CellKeyMap& map) {
  const __m512i inactive = _mm512_set1_epi64(-1);
  const __m512i high_half = _mm512_set1_epi64(static_cast<long long>(0xffffffff00000000ull));
  const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(map.cell_shift));
  __m512i cells[4];  // u64 cell indices, eight lanes each
  std::uint32_t active = 0, too_wide = 0;
  for (int q = 0; q < 4; ++q) {
    // Plain loads: masked loads cost several times more on some cores.
    const __m512i a = _mm512_loadu_si512(addr + 8 * q);
    const __mmask8 on = _mm512_cmpneq_epu64_mask(a, inactive);
    cells[q] = _mm512_srl_epi64(a, shift);
    too_wide |= _mm512_mask_test_epi64_mask(on, cells[q], high_half);
    active |= std::uint32_t{on} << (8 * q);
  }
  if (too_wide != 0) return kNoSimdDegree;
  if (active == 0) return 0;
  // Narrow to 32 bits in registers: the low dwords of 16 u64 lanes
  // (vpmovqd to memory is slow on some cores).
  const __m512i low_dwords = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i word_mask = _mm512_set1_epi32(static_cast<int>(~map.word_row_bits));
  const __m512i x0 = _mm512_and_si512(_mm512_permutex2var_epi32(cells[0], low_dwords, cells[1]), word_mask);
  const __m512i x1 = _mm512_and_si512(_mm512_permutex2var_epi32(cells[2], low_dwords, cells[3]), word_mask);
  const std::uint32_t act0 = active & 0xffff, act1 = active >> 16;
  const __m512i bank_mask = _mm512_set1_epi32(static_cast<int>(map.bank_mask));
  const __m512i b0 = _mm512_and_si512(x0, bank_mask), b1 = _mm512_and_si512(x1, bank_mask);

  // Most requests touch pairwise different banks: one bit per bank tells.
  if (map.bank_mask < 32) {
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i bits = _mm512_or_si512(_mm512_maskz_sllv_epi32(static_cast<__mmask16>(act0), one, b0),
                                         _mm512_maskz_sllv_epi32(static_cast<__mmask16>(act1), one, b1));
    const auto banks_hit = static_cast<std::uint32_t>(_mm512_reduce_or_epi32(bits));
    if (__builtin_popcount(banks_hit) == __builtin_popcount(active)) return 1;
  }

  // Step 1: keep the first lane of each bank word (the others multicast).
  const std::uint32_t first0 = act0 & ~earlier_match(x0, act0);
  const std::uint32_t first1 = act1 & ~(earlier_match(x1, act1) | x1_matches_x0(x0, x1, act0));

  // Step 2: per kept lane, the kept lanes before it in its bank; the last
  // one of a bank sees all others, so the maximum + 1 is the degree.
  const __m512i before0 = _mm512_popcnt_epi32(
      _mm512_and_si512(_mm512_conflict_epi32(b0), _mm512_set1_epi32(static_cast<int>(first0))));
  const __m512i before1 = _mm512_add_epi32(
      _mm512_popcnt_epi32(_mm512_and_si512(_mm512_conflict_epi32(b1), _mm512_set1_epi32(static_cast<int>(first1)))),
      x1_counts_in_x0(b0, b1, first0));
  const __m512i most = _mm512_max_epu32(_mm512_maskz_mov_epi32(static_cast<__mmask16>(first0), before0),
                                        _mm512_maskz_mov_epi32(static_cast<__mmask16>(first1), before1));
  return _mm512_reduce_max_epu32(most) + 1;
}

}  // namespace

bool simd_degree_available() {
  static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                                __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq");
  return available;
}

std::uint32_t simd_degree(const std::uint64_t* addr, unsigned lanes, const CellKeyMap& map) {
  if (lanes > 32 || map.cell_shift > 31 || !simd_degree_available()) return kNoSimdDegree;
  if (lanes == 32) return degree_avx512(addr, map);
  std::uint64_t padded[32];  // smaller warps: the missing lanes are idle
  std::copy_n(addr, lanes, padded);
  std::fill(padded + lanes, padded + 32, kInactive);
  return degree_avx512(padded, map);
}

#else

bool simd_degree_available() { return false; }
std::uint32_t simd_degree(const std::uint64_t*, unsigned, const CellKeyMap&) { return kNoSimdDegree; }

#endif

}  // namespace bankcheck
