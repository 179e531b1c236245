#pragma once
// Random and adversarial warp requests for the semantic fuzzer of the costs
// (tests/model/cost_invariants_test.cpp on the CPU, kernels/cost_fuzz.cu on
// the GPU; docs/fuzzing.md): every op, every width it may have, masks from
// empty to full (single lanes, one lane per quarter warp, lanes of two
// quarter warps in one row), and destinations and copy sources in the
// shapes the rules tell apart (equal, contiguous, strided, packed into one
// row, permuted in a row, shifted, sharing sectors, random). Deterministic
// for a seed (drawn from inputs::Random). Every active address is aligned
// to its width and below 2^32 (a shared offset, as the capture has it).
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/warp_request.hpp"
#include "sim/inputs/random.hpp"

namespace bankcheck::inputs {

/// One generated request, owning its addresses.
struct FuzzRequest {
  Op op = Op::load;
  unsigned width = 4;
  std::vector<std::uint64_t> addr = std::vector<std::uint64_t>(32, kInactive);
  std::vector<std::uint64_t> source;  ///< empty, or 32 sources (kInactive where addr is)
  std::string shape;                  ///< which mask, destination and source patterns made it

  WarpRequest request() const { return WarpRequest{op, width, addr, source}; }
  std::uint32_t mask() const {
    std::uint32_t m = 0;
    for (unsigned l = 0; l < 32; ++l) m |= addr[l] != kInactive ? 1u << l : 0u;
    return m;
  }
  unsigned active() const { return static_cast<unsigned>(__builtin_popcount(mask())); }
  /// The request as a line of a text trace (docs/trace-format.md), site "fuzz".
  std::string trace_line() const {
    std::string line = "@fuzz " + std::string(op_name(op)) + " " + std::to_string(width);
    auto add = [&](std::uint64_t a) { line += a == kInactive ? " -" : " " + std::to_string(a); };
    for (std::uint64_t a : addr) add(a);
    if (!source.empty()) {
      line += " from";
      for (std::uint64_t s : source) add(s);
    }
    return line;
  }
};

class RandomRequests {
 public:
  explicit RandomRequests(std::uint64_t seed) : rng_(seed) {}

  FuzzRequest next() {
    FuzzRequest r;
    r.op = static_cast<Op>(below(kOpCount));
    std::vector<unsigned> widths;
    for (unsigned w : {1u, 2u, 4u, 8u, 12u, 16u})
      if (is_valid_access(r.op, w)) widths.push_back(w);
    r.width = widths[below(static_cast<unsigned>(widths.size()))];
    const std::uint32_t mask = next_mask(r.shape);
    destinations(r, mask);
    if (has_source(r.op) && below(8) != 0) sources(r);
    return r;
  }

 private:
  unsigned below(unsigned n) { return static_cast<unsigned>(rng_.below(n)); }

  /// Fisher-Yates over [first, last): the same order on every standard library.
  template <class It>
  void shuffle(It first, It last) {
    for (auto n = last - first; n > 1; --n) std::swap(first[n - 1], first[below(static_cast<unsigned>(n))]);
  }

  std::uint32_t next_mask(std::string& shape) {
    const auto random32 = [&] { return static_cast<std::uint32_t>(rng_()); };
    switch (below(10)) {
      case 0: shape = "full"; return ~0u;
      case 1: shape = "empty"; return 0u;
      case 2: shape = "one-lane"; return 1u << below(32);
      case 3: {  // one lane in each of two or more quarter warps: their bytes fit one row
        shape = "lane-per-quarter";
        std::uint32_t m = 0;
        for (unsigned q = 0; q < 32; q += 8)
          if (below(4) != 0) m |= 1u << (q + below(8));
        return m;
      }
      case 4: shape = "lanes-0-8"; return 1u | 1u << 8;
      case 5: shape = "even-lanes"; return 0x55555555u;
      case 6: {
        shape = "first-k";
        const unsigned k = 1 + below(32);
        return k == 32 ? ~0u : (1u << k) - 1;
      }
      case 7: shape = "sparse"; return random32() & random32() & random32();
      case 8: shape = "dense"; return random32() | random32();
      default: shape = "random"; return random32();
    }
  }

  /// An aligned base: a multiple of 128 or of the alignment, small or large.
  std::uint64_t base(unsigned align) {
    const std::uint64_t range = below(2) ? 64 : (1u << 20);
    return below(2) ? 128 * rng_.below(range) : align * rng_.below(range * 32);
  }

  void destinations(FuzzRequest& r, std::uint32_t mask) {
    const unsigned align = access_alignment(r.width);
    const unsigned elem = r.width == kTripleWordWidth ? 16 : r.width;  // 12-byte lanes 16 apart, or not
    const std::uint64_t b = base(align);
    std::array<std::uint64_t, 32> a{};
    std::string shape;
    switch (below(9)) {
      case 0: shape = "equal"; a.fill(b); break;
      case 1: shape = "contiguous"; for (unsigned l = 0; l < 32; ++l) a[l] = b + elem * l; break;
      case 2: {
        shape = "strided";
        const std::uint64_t k = below(41);
        for (unsigned l = 0; l < 32; ++l) a[l] = b + k * align * l;
        break;
      }
      case 3: {  // active lanes packed one after another: two quarter warps' lanes in one row
        shape = "packed";
        unsigned n = 0;
        for (unsigned l = 0; l < 32; ++l) a[l] = b + elem * ((mask >> l) & 1u ? n++ : 0);
        break;
      }
      case 4: {
        shape = "permuted";
        for (unsigned l = 0; l < 32; ++l) a[l] = b + elem * l;
        shuffle(a.begin(), a.begin() + 8 * (1 + below(4)));
        break;
      }
      case 5: {
        shape = "column";
        for (unsigned l = 0; l < 32; ++l) a[l] = b + 128 * std::uint64_t{below(4) + 1} * l;
        break;
      }
      case 6: shape = "pairs"; for (unsigned l = 0; l < 32; ++l) a[l] = b + elem * (l / 2); break;
      default: {
        shape = "window";
        const unsigned window = std::array<unsigned, 5>{1, 4, 33, 300, 12288}[below(5)];
        for (unsigned l = 0; l < 32; ++l) a[l] = b + align * rng_.below(window);
      }
    }
    for (unsigned l = 0; l < 32; ++l) r.addr[l] = (mask >> l) & 1u ? a[l] : kInactive;
    r.shape += " " + shape;
  }

  /// A copy's sources: 16-byte chunks of one or more lines in the shapes of
  /// rule 6b (whole sectors, permuted in a line, shifted, shared, split).
  void sources(FuzzRequest& r) {
    const std::uint64_t b = 4096 * (1 + rng_.below(4096));
    const unsigned w = r.width;
    std::array<std::uint64_t, 32> s{};
    std::string shape;
    switch (below(8)) {
      case 0: shape = "src-equal"; s.fill(b); break;
      case 1: shape = "src-lane-order"; for (unsigned l = 0; l < 32; ++l) s[l] = b + w * l; break;
      case 2: {  // as the destination, moved by whole lines
        shape = "src-as-dst";
        for (unsigned l = 0; l < 32; ++l) s[l] = r.addr[l] == kInactive ? b : b + r.addr[l];
        break;
      }
      case 3: {
        shape = "src-shifted";
        const std::uint64_t by = w * (1 + below(8));
        for (unsigned l = 0; l < 32; ++l) s[l] = b + by + w * l;
        break;
      }
      case 4: {  // lanes 2k and 2k+1 share a sector, in either order
        shape = "src-sector-pairs";
        for (unsigned l = 0; l < 32; ++l) s[l] = b + 32 * (l / 2) + (below(2) ? 16 * (l % 2) : 16 * (1 - l % 2));
        break;
      }
      case 5: {
        shape = "src-permuted-line";
        for (unsigned l = 0; l < 32; ++l) s[l] = b + w * l;
        for (unsigned q = 0; q < 32; q += 8) shuffle(s.begin() + q, s.begin() + q + 8);
        break;
      }
      case 6: {
        shape = "src-lines-apart";
        const std::uint64_t gap = 128 * (1 + below(32));
        for (unsigned l = 0; l < 32; ++l) s[l] = b + gap * (l / 8) + w * (l % 8);
        break;
      }
      default: {
        shape = "src-random";
        for (unsigned l = 0; l < 32; ++l) s[l] = b + w * rng_.below(64);
      }
    }
    r.source.assign(32, kInactive);
    for (unsigned l = 0; l < 32; ++l)
      if (r.addr[l] != kInactive) r.source[l] = s[l];
    r.shape += " " + shape;
  }

  Random rng_;
};

}  // namespace bankcheck::inputs
