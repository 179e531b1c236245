#include "model/simd_degree.hpp"

#include <algorithm>

#include "model/warp_request.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12's AVX-512 intrinsics start from an intentionally undefined vector
// (`__m512i __Y = __Y;`), which its own -Wuninitialized then reports at every
// inlined use (GCC bug 105593); the values are fully written before use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#define BANKCHECK_HAVE_X86_PATHS 1
#endif

namespace bankcheck {

std::string_view simd_path_name(SimdPath path) {
  switch (path) {
    case SimdPath::none: return "none";
    case SimdPath::avx2: return "avx2";
    case SimdPath::avx512: return "avx512";
  }
  return "?";
}

#ifdef BANKCHECK_HAVE_X86_PATHS
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

// ---------------------------------------------------------------------------
// AVX2: no conflict-detection instruction, so the 32 lanes (four vectors of
// eight 32-bit cells) are compared pairwise through lane rotations, and the
// distinct cells per bank are counted with a bit-sliced adder over one-hot
// bank masks. Branch-free: every request that reaches it costs the same.
#define BANKCHECK_AVX2 __attribute__((target("avx2,popcnt")))

/// Bit-sliced counters: plane k holds bit k of a per-bank count (bank = bit position).
template <int N>
struct Planes {
  __m256i bit[N];
};

/// a + b, plane by plane with a ripple carry; one plane more for the carry out.
template <int N>
BANKCHECK_AVX2 inline Planes<N + 1> add_planes(const Planes<N>& a, const Planes<N>& b) {
  Planes<N + 1> s;
  __m256i carry = _mm256_setzero_si256();
  for (int k = 0; k < N; ++k) {
    const __m256i half = _mm256_xor_si256(a.bit[k], b.bit[k]);
    s.bit[k] = _mm256_xor_si256(half, carry);
    carry = _mm256_or_si256(_mm256_and_si256(a.bit[k], b.bit[k]), _mm256_and_si256(carry, half));
  }
  s.bit[N] = carry;
  return s;
}

/// Adds each vector lane to its partner lane under F (the other 128-bit half, the other pair, the neighbour).
enum class Fold { halves, pairs, neighbours };
template <Fold F, int N>
BANKCHECK_AVX2 inline Planes<N + 1> fold(const Planes<N>& a) {
  Planes<N> b;
  for (int k = 0; k < N; ++k) {
    if constexpr (F == Fold::halves) b.bit[k] = _mm256_permute2x128_si256(a.bit[k], a.bit[k], 1);
    else if constexpr (F == Fold::pairs) b.bit[k] = _mm256_shuffle_epi32(a.bit[k], _MM_SHUFFLE(1, 0, 3, 2));
    else b.bit[k] = _mm256_shuffle_epi32(a.bit[k], _MM_SHUFFLE(2, 3, 0, 1));
  }
  return add_planes(a, b);
}

/// rotation[r] lane t reads lane (t - r) mod 8; later[r]: lanes t >= r,
/// where the lane read is the earlier one of the pair.
/// lane_of[q][t]: the warp lane at position t of vector q (the narrowing
/// below interleaves lanes: a0 a1 b0 b1 | a2 a3 b2 b3).
struct Tables {
  alignas(32) std::int32_t rotation[8][8];
  alignas(32) std::int32_t later[8][8];
  alignas(32) std::int32_t lane_of[4][8];
  constexpr Tables() : rotation{}, later{}, lane_of{} {
    constexpr int order[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    for (int r = 0; r < 8; ++r)
      for (int t = 0; t < 8; ++t) {
        rotation[r][t] = (t - r + 8) % 8;
        later[r][t] = t >= r ? -1 : 0;
      }
    for (int q = 0; q < 4; ++q)
      for (int t = 0; t < 8; ++t) lane_of[q][t] = 8 * q + order[t];
  }
};
constexpr Tables kTables;

BANKCHECK_AVX2 inline __m256i load_row(const std::int32_t (&row)[8]) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(row));
}

/// The largest per-bank count of the one-hot bank masks x[0..3] (32 lanes).
BANKCHECK_AVX2 inline std::uint32_t max_bank_count(const __m256i (&x)[4]) {
  // Add the four vectors bit-sliced (a full adder, then a half adder), then
  // fold the eight vector lanes into one: six planes of per-bank counts up to 32.
  const __m256i x01 = _mm256_xor_si256(x[0], x[1]);
  const __m256i sum3 = _mm256_xor_si256(x01, x[2]);
  const __m256i carry3 = _mm256_or_si256(_mm256_and_si256(x[0], x[1]), _mm256_and_si256(x[2], x01));
  const __m256i carry4 = _mm256_and_si256(sum3, x[3]);
  const Planes<3> lanes{{_mm256_xor_si256(sum3, x[3]), _mm256_xor_si256(carry3, carry4), _mm256_and_si256(carry3, carry4)}};
  const Planes<6> total = fold<Fold::neighbours>(fold<Fold::pairs>(fold<Fold::halves>(lanes)));
  // The largest count: from the top plane down, keep the banks with a one.
  std::uint32_t banks = ~std::uint32_t{0}, count = 0;
  // Counts under 8 (nearly every random request) skip the top three planes.
  const __m256i top = _mm256_or_si256(_mm256_or_si256(total.bit[5], total.bit[4]), total.bit[3]);
  for (int k = _mm256_testz_si256(top, top) ? 2 : 5; k >= 0; --k) {
    const std::uint32_t with_bit = banks & static_cast<std::uint32_t>(_mm256_cvtsi256_si32(total.bit[k]));
    const std::uint32_t take = with_bit != 0 ? ~std::uint32_t{0} : 0;
    banks = (with_bit & take) | (banks & ~take);
    count |= take & (1u << k);
  }
  return count;
}

/// Conflict degree of a full warp whose cells are c0 + l*s (mod 2^32) for
/// lanes l = 0..31 (columns, strides, broadcast), or 0 when they are not,
/// or when the cells might repeat (s a multiple of 2^28).
/// @pre bank_mask + 1 is a power of two <= 32; bank words are single cells.
BANKCHECK_AVX2 inline std::uint32_t affine_degree(const __m256i (&cell)[4], std::uint32_t bank_mask) {
  const auto c0 = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(cell[0]));            // lane 0
  const std::uint32_t s = static_cast<std::uint32_t>(_mm256_extract_epi32(cell[0], 1)) - c0;  // lane 1
  const __m256i base = _mm256_set1_epi32(static_cast<int>(c0)), step = _mm256_set1_epi32(static_cast<int>(s));
  __m256i off = _mm256_setzero_si256();
  for (int q = 0; q < 4; ++q) {
    const __m256i expected = _mm256_add_epi32(base, _mm256_mullo_epi32(load_row(kTables.lane_of[q]), step));
    off = _mm256_or_si256(off, _mm256_xor_si256(cell[q], expected));
  }
  if (!_mm256_testz_si256(off, off)) return 0;
  if (s == 0) return 1;                    // one cell for all: multicast
  if ((s & 0x0FFFFFFFu) == 0) return 0;    // l*s could wrap onto an earlier cell: not decided here
  // The cells are pairwise different, and lanes l and l + P share a bank,
  // P = banks / gcd(s, banks): each bank hit holds 32 / P of them.
  const std::uint32_t banks = bank_mask + 1, r = s & bank_mask;
  const std::uint32_t gcd = r == 0 ? banks : (r & (0u - r));  // banks is a power of two
  return 32 * gcd / banks;
}

#define BANKCHECK_AVX2_STEP BANKCHECK_AVX2 inline __attribute__((always_inline))  // degree_avx2's steps: in registers

/// Step 1: the low dwords of the 32 cells and the active lanes' masks. False
/// when an active cell needs more than 32 bits (not decided here).
BANKCHECK_AVX2_STEP bool load_cells(const std::uint64_t* addr, const CellKeyMap& map, __m256i (&cell)[4],
                                    __m256i (&on)[4], std::uint32_t& active) {
  const __m256i idle64 = _mm256_set1_epi64x(-1);
  const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(map.cell_shift));
  __m256i high = _mm256_setzero_si256();
  active = 0;
  for (int q = 0; q < 4; ++q) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 8 * q));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 8 * q + 4));
    const __m256i off_a = _mm256_cmpeq_epi64(a, idle64), off_b = _mm256_cmpeq_epi64(b, idle64);
    const __m256i ca = _mm256_srl_epi64(a, shift), cb = _mm256_srl_epi64(b, shift);
    high = _mm256_or_si256(high, _mm256_or_si256(_mm256_andnot_si256(off_a, ca), _mm256_andnot_si256(off_b, cb)));
    // The low dwords of the eight cells, in the order a0 a1 b0 b1 | a2 a3 b2 b3
    // (kTables.lane_of): the degree does not depend on lane order.
    cell[q] = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(ca), _mm256_castsi256_ps(cb), 0x88));
    const __m256i off = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(off_a), _mm256_castsi256_ps(off_b), 0x88));
    on[q] = _mm256_xor_si256(off, _mm256_set1_epi32(-1));
    active |= static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(on[q]))) << (8 * q);
  }
  return _mm256_testz_si256(high, _mm256_set1_epi64x(static_cast<long long>(0xffffffff00000000ull)));
}

/// Step 2: whether the active lanes touch pairwise different banks (most
/// requests do): one bit per active lane's bank tells.
BANKCHECK_AVX2_STEP bool distinct_banks(const __m256i (&cell)[4], const __m256i (&on)[4], std::uint32_t active,
                                        const CellKeyMap& map) {
  const __m256i bank_mask = _mm256_set1_epi32(static_cast<int>(map.bank_mask)), one = _mm256_set1_epi32(1);
  __m256i hits[4];
  for (int q = 0; q < 4; ++q) hits[q] = _mm256_and_si256(on[q], _mm256_sllv_epi32(one, _mm256_and_si256(cell[q], bank_mask)));
  __m256i hit = _mm256_or_si256(_mm256_or_si256(hits[0], hits[1]), _mm256_or_si256(hits[2], hits[3]));
  hit = _mm256_or_si256(hit, _mm256_permute2x128_si256(hit, hit, 1));
  hit = _mm256_or_si256(hit, _mm256_shuffle_epi32(hit, _MM_SHUFFLE(1, 0, 3, 2)));
  hit = _mm256_or_si256(hit, _mm256_shuffle_epi32(hit, _MM_SHUFFLE(2, 3, 0, 1)));
  return __builtin_popcount(static_cast<std::uint32_t>(_mm256_cvtsi256_si32(hit))) == __builtin_popcount(active);
}

/// Step 4, the general case: the most lanes of distinct bank words in one bank.
BANKCHECK_AVX2_STEP std::uint32_t general_degree(__m256i (&cell)[4], const __m256i (&on)[4], std::uint32_t active,
                                                 const CellKeyMap& map) {
  // Idle lanes take the cell of the first active lane: the set of distinct
  // cells (and of banks) stays that of the active lanes, so nothing below
  // needs the active mask again.
  if (active != ~std::uint32_t{0}) {
    alignas(32) std::uint32_t cells[32];
    for (int q = 0; q < 4; ++q) _mm256_store_si256(reinterpret_cast<__m256i*>(cells + 8 * q), cell[q]);
    const __m256i fill = _mm256_set1_epi32(static_cast<int>(cells[__builtin_ctz(active)]));
    for (int q = 0; q < 4; ++q) cell[q] = _mm256_blendv_epi8(fill, cell[q], on[q]);
  }
  const __m256i bank_mask = _mm256_set1_epi32(static_cast<int>(map.bank_mask)), one = _mm256_set1_epi32(1);
  const __m256i word_mask = _mm256_set1_epi32(static_cast<int>(~map.word_row_bits));
  __m256i key[4], onehot[4];
  for (int q = 0; q < 4; ++q) {
    key[q] = _mm256_and_si256(cell[q], word_mask);
    onehot[q] = _mm256_sllv_epi32(one, _mm256_and_si256(cell[q], bank_mask));
  }

  // Keep the first lane of each bank word (the others multicast): a lane is
  // a duplicate when an earlier lane (vector j < q, or lane t - r of its own
  // vector) holds the same word.
  __m256i dup[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
  // Fully unrolled: the rotation indices become constants and nothing spills.
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j)
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      const __m256i rotated = r == 0 ? key[j] : _mm256_permutevar8x32_epi32(key[j], load_row(kTables.rotation[r]));
      if (r > 0)
        dup[j] = _mm256_or_si256(dup[j], _mm256_and_si256(_mm256_cmpeq_epi32(key[j], rotated), load_row(kTables.later[r])));
#pragma GCC unroll 3
      for (int q = j + 1; q < 4; ++q) dup[q] = _mm256_or_si256(dup[q], _mm256_cmpeq_epi32(key[q], rotated));
    }

  // Count the kept lanes per bank.
  const __m256i kept[4] = {_mm256_andnot_si256(dup[0], onehot[0]), _mm256_andnot_si256(dup[1], onehot[1]),
                           _mm256_andnot_si256(dup[2], onehot[2]), _mm256_andnot_si256(dup[3], onehot[3])};
  return max_bank_count(kept);
}

/// @pre addr holds 32 lanes (idle ones kInactive); map.bank_mask < 32.
BANKCHECK_AVX2 std::uint32_t degree_avx2(const std::uint64_t* addr, const CellKeyMap& map) {
  __m256i cell[4], on[4];
  std::uint32_t active;
  if (!load_cells(addr, map, cell, on, active)) return kNoSimdDegree;
  if (active == 0) return 0;
  if (distinct_banks(cell, on, active, map)) return 1;
  // Step 3: evenly spaced cells (columns, strides, one broadcast cell): a formula.
  if (active == ~std::uint32_t{0} && map.word_row_bits == 0)
    if (const std::uint32_t d = affine_degree(cell, map.bank_mask); d != 0) return d;
  return general_degree(cell, on, active, map);
}

/// The CPU's SIMD features, read once. This may run during static
/// initialisation (phase_rules.cpp resolves its path then), possibly before
/// libgcc's own CPU detection: GCC asks for __builtin_cpu_init() there.
struct CpuPaths {
  bool avx2 = false, avx512 = false;
};
const CpuPaths& cpu_paths() {
  static const CpuPaths paths = [] {
    __builtin_cpu_init();
    CpuPaths p;
    p.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    p.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq");
    return p;
  }();
  return paths;
}

}  // namespace

bool simd_path_available(SimdPath path) {
  switch (path) {
    case SimdPath::none: return true;
    case SimdPath::avx2: return cpu_paths().avx2;
    case SimdPath::avx512: return cpu_paths().avx512;
  }
  return false;
}

DegreeKernel simd_degree_kernel(const CellKeyMap& map, SimdPath path) {
  if (map.cell_shift > 31 || path == SimdPath::none || !simd_path_available(path)) return nullptr;
  if (path == SimdPath::avx2 && map.bank_mask >= 32) return nullptr;
  return path == SimdPath::avx512 ? degree_avx512 : degree_avx2;
}

std::uint32_t simd_degree(const std::uint64_t* addr, unsigned lanes, const CellKeyMap& map, SimdPath path) {
  const DegreeKernel kernel = lanes <= 32 ? simd_degree_kernel(map, path) : nullptr;
  if (kernel == nullptr) return kNoSimdDegree;
  if (lanes < 32) {  // smaller warps: the missing lanes are idle
    std::uint64_t padded[32];
    std::copy_n(addr, lanes, padded);
    std::fill(padded + lanes, padded + 32, kInactive);
    return kernel(padded, map);
  }
  return kernel(addr, map);
}

#else

bool simd_path_available(SimdPath path) { return path == SimdPath::none; }
DegreeKernel simd_degree_kernel(const CellKeyMap&, SimdPath) { return nullptr; }
std::uint32_t simd_degree(const std::uint64_t*, unsigned, const CellKeyMap&, SimdPath) { return kNoSimdDegree; }

#endif

std::vector<SimdPath> available_simd_paths() {
  std::vector<SimdPath> paths;
  for (SimdPath p : {SimdPath::none, SimdPath::avx2, SimdPath::avx512})
    if (simd_path_available(p)) paths.push_back(p);
  return paths;
}

}  // namespace bankcheck
