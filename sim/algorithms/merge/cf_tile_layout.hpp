#pragma once
// CF-Merge's layout ρ(A ∪ π(B)) in the form a kernel uses (SPAA 2025,
// Berney and Sitchinava, "Eliminating Bank Conflicts in GPU Mergesort",
// Sections 3.1-3.3): w and E fixed at compile time. CfLayout
// (sim/algorithms/merge/cf_merge.hpp) is the same layout with runtime w and E.
#include <type_traits>

#include "model/hd.hpp"

namespace bankcheck {

/// gcd(a, b) at compile time (d = gcd(w, E) of Section 3.2).
BANKCHECK_HD constexpr int cf_gcd(int a, int b) {
  while (b != 0) {
    const int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// The CF layout with w and E fixed at compile time: what a kernel uses. The
/// same ρ(A ∪ π(B)) as CfLayout (Sections 3.1-3.3), in 32-bit block slots, so
/// ρ's divisions are by constants (shifts and masks when wE/d is a power of
/// two) instead of the runtime division CfLayout needs.
/// `kW` counts banks in keys: 32 for 4-byte keys, 16 for 8-byte keys (the H100
/// serves 8-byte requests by half-warps of 16 lanes over 16 8-byte bank pairs,
/// docs/bank-model.md, so a half-warp is the "warp" of the paper's proof).
/// A group (a merge of |A| + |B| = count keys) is one layout at block slot
/// `offset`; ρ's partitions count from the block's slot 0 (Section 3.3) and
/// only those wholly below `total` (the block's slots in use, the same for
/// every group of a block) are shifted, so ρ permutes [0, total) whatever the
/// group sizes: the groups of a block never overlap.
/// kWhole: every partition of the block is whole (a full tile of u*E slots,
/// w | u), so `total` is not consulted: in a full tile ρ is then two shifts,
/// an add and a mask when wE/d is a power of two (E = 8, 16 with w = 16, 32),
/// and one shift-and-add where w | E (kPadded).
template <int kW, int kE, bool kWhole = false>
struct CfTileLayout {
  static_assert(kW >= 1 && kE >= 1, "w and E must be positive");
  static constexpr int kD = cf_gcd(kW, kE);
  static constexpr int kPart = kW / kD * kE;  ///< wE/d slots per partition
  /// π is the reversal (b_slot is affine with slope -1): cf_gather_rounds folds it.
  static constexpr bool kBReversed = true;
  int offset = 0;   ///< block slot of logical slot 0
  int count = 0;    ///< |A| + |B|
  int a_count = 0;  ///< |A|
  int total = 0;    ///< block slots in use (a multiple of wE/d for whole tiles)

  /// w | E (d = w, a partition is E slots): shifting partition l circularly by
  /// l mod w puts every slot in the same bank as moving the whole partition l
  /// slots on, that is one unused slot after each partition. A tile is laid
  /// out so, padded: ρ(q) = q + q/E is one shift-and-add where the circular
  /// shift costs a shift, an add and two selects, and a thread's E blocked
  /// slots are consecutive (Run). The banks of whole partitions are the
  /// circular shift's, so Section 3.2's argument holds unchanged; a partial
  /// tile's last partition moves too (the shifted layout leaves it in place),
  /// and a tile of n slots spans n + n/E.
  static constexpr bool kPadded = kD == kW && kD > 1;
  /// Block slots a tile of n logical slots spans (n + n/E when padded).
  BANKCHECK_HD static constexpr int slots(int n) { return kPadded ? n + n / kPart : n; }

  /// π: logical slot of B[y] (B reversed after A).
  BANKCHECK_HD int b_slot(int y) const { return count - 1 - y; }
  /// Logical slot of the p-th key of A then B (p < |A|: A[p], else B[p - |A|]).
  BANKCHECK_HD int input_slot(int p) const { return p < a_count ? p : b_slot(p - a_count); }
  /// ρ: block slot of logical slot p, 0 <= p < count.
  BANKCHECK_HD int rho(int p) const {
    const unsigned q = static_cast<unsigned>(offset + p);
    if constexpr (kD == 1) {
      return static_cast<int>(q);
    } else if constexpr (kPadded) {
      return static_cast<int>(q + q / static_cast<unsigned>(kPart));
    } else {
      constexpr unsigned part = static_cast<unsigned>(kPart);
      const unsigned l = q / part, base = l * part;
      if constexpr (!kWhole)
        if (base + part > static_cast<unsigned>(total)) return static_cast<int>(q);  // partial last partition
      const unsigned shifted = q + l % static_cast<unsigned>(kD);
      if constexpr ((kPart & (kPart - 1)) == 0) {
        // base + (q - base + shift) mod part, with part a power of two: a bit select (one LOP3)
        return static_cast<int>((q & ~(part - 1)) | (shifted & (part - 1)));
      } else {
        const unsigned r = shifted - base;  // < 2 part
        return static_cast<int>(r >= part ? shifted - part : shifted);
      }
    }
  }

  /// E logical slots p0 + s*i, i = 0..E-1, s = +1 or -1, that lie in one
  /// partition of a whole tile: a thread's blocked keys in an in-block round
  /// (groups start at multiples of E and E divides wE/d, so its E slots are
  /// aligned to E). Their partition and its shift are found once:
  /// ρ(p0 + s*i) = base + place(i), and place costs an add and a mask where ρ
  /// costs a shift, an add and two selects (nothing but s*i where d = 1 or the
  /// tile is padded); a caller moves its array to `base` once
  /// (SharedArray::at) and indexes it by place(i).
  struct Run {
    int base = 0;   ///< block slot of the partition's first slot (of p0 when d = 1 or padded)
    int first = 0;  ///< p0's place after the shift, + wE/d when s = -1 (so that first + s*i >= 0)
    int step = 1;   ///< s

    BANKCHECK_HD int place(int i) const {
      if constexpr (kD == 1 || kPadded) {
        return step * i;
      } else {
        const unsigned at = static_cast<unsigned>(first + step * i);  // < 2 wE/d
        if constexpr ((kPart & (kPart - 1)) == 0)
          return static_cast<int>(at & static_cast<unsigned>(kPart - 1));
        else
          return static_cast<int>(at >= static_cast<unsigned>(kPart) ? at - kPart : at);
      }
    }
  };
  static_assert(kPart % kE == 0, "E divides wE/d: an E-aligned run lies in one partition");

  /// Algorithm 1's rounds of one thread in a whole padded tile (cf_gather_rounds'
  /// slots, found with two selects a round instead of ρ of each logical slot).
  /// With k = a_i mod E, round j reads logical slot X + t, t = (j - k) mod E, X
  /// = a_i or π(b_i + E - 1); where E divides the group's offset, |A| + |B| and
  /// the diagonal, both X are k mod E, so X + t = (X - k) + j + E [j < k] and,
  /// ρ(q) being q + q/E, the block slot is ρ(X - k) + j + (E + 1) [j < k].
  /// Bit j of `from_a` says which X round j uses. E <= 64 (one mask word).
  struct Gather {
    using Mask = std::conditional_t<(kE > 32), unsigned long long, unsigned>;
    int a_base = 0;      ///< ρ(a_i - k)
    int b_base = 0;      ///< ρ(π(b_i + E - 1) - k)
    int wrap = kE + 1;   ///< added to the rounds j < k
    int k = 0;           ///< a_i mod E
    Mask from_a = 0;     ///< bit j: round j reads A_i

    /// Round j's block slot less j (a kernel adds j as a constant offset).
    BANKCHECK_HD int base(int j) const {
      const int x = ((from_a >> j) & 1u) != 0 ? a_base : b_base;
      return j < k ? x + wrap : x;
    }
    BANKCHECK_HD int slot(int j) const { return base(j) + j; }
    /// The same rounds in units of 1/`bytes` slot (base(j) in bytes for a key of `bytes` bytes).
    BANKCHECK_HD Gather scaled(int bytes) const {
      Gather g = *this;
      g.a_base *= bytes;
      g.b_base *= bytes;
      g.wrap *= bytes;
      return g;
    }
  };
  /// @pre kPadded and kWhole; E divides offset, count and diag; the round's
  ///      A_i = A[a_i, a_i + a_len) and B_i = B[diag - a_i, diag - a_i + E - a_len).
  BANKCHECK_HD Gather gather(int a_i, int a_len, int diag) const {
    static_assert(kPadded && kWhole, "the selects need ρ(q) = q + q/E over whole partitions");
    static_assert(kE <= 64, "one mask word");
    using Mask = typename Gather::Mask;
    Gather g;
    g.k = static_cast<int>(static_cast<unsigned>(a_i) % static_cast<unsigned>(kE));
    g.a_base = rho(a_i - g.k);
    g.b_base = rho(b_slot(diag - a_i + kE - 1) - g.k);
    constexpr Mask kAll = kE == 8 * static_cast<int>(sizeof(Mask)) ? ~Mask{0} : (Mask{1} << kE) - 1;
    const Mask run = a_len >= kE ? kAll : (Mask{1} << a_len) - 1;  // rounds t = 0..a_len-1 read A_i
    g.from_a = g.k == 0 ? run : ((run << g.k) | (run >> (kE - g.k))) & kAll;  // round j = t + k mod E
    return g;
  }
  /// @pre kWhole; offset + the run's lowest slot is a multiple of E; s = +1 or -1.
  BANKCHECK_HD Run run(int p0, int s) const {
    static_assert(kWhole, "a partial tile's last partition is not shifted: use rho");
    const unsigned q = static_cast<unsigned>(offset + p0);
    Run r;
    r.step = s;
    if constexpr (kD == 1) {
      r.base = static_cast<int>(q);
    } else if constexpr (kPadded) {
      r.base = rho(p0);
    } else {
      constexpr unsigned part = static_cast<unsigned>(kPart);
      const unsigned l = q / part;
      r.base = static_cast<int>(l * part);
      r.first = static_cast<int>((q - l * part + l % static_cast<unsigned>(kD)) % part) + (s < 0 ? kPart : 0);
    }
    return r;
  }
};

}  // namespace bankcheck
