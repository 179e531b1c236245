#pragma once
// The conflict degree of one phase of a warp request: the number the bank
// model prices a phase by (docs/bank-model.md). A lane's access of `width`
// bytes touches the cells that hold its bytes; cell c lies in bank
// c mod banks, in that bank's word (c / banks) / rows_per_word (Kepler's
// 4-byte mode: two rows of cells per bank word). Lanes that touch one bank
// word are served together (multicast); a bank serves its distinct words
// one pass each. The phase costs the largest number of distinct words one
// bank must serve; 0 when no lane is active.
//
// conflict_degree() below is the one definition, written to be read rather
// than to be fast. The implementations the model runs are defined as equal
// to it and are tested against it:
//  * the scalar passes of model/phase_rules.cpp (degree_of_phase), any geometry
//    (tests/model/phase_rules_test.cpp);
//  * the SIMD kernels of model/simd_degree.hpp, power-of-two geometries with
//    one cell per lane (tests/model/simd_degree_test.cpp);
//  * sm90::phase_degree of model/sm90_phases.hpp, the H100's geometry,
//    on the host and the GPU (tests/model/conflict_degree_test.cpp).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "model/warp_request.hpp"

namespace bankcheck {

/// Where the bytes of an access lie: cells, banks and bank words.
struct WordLayout {
  std::uint64_t cell_bytes = 4;     ///< bytes per cell, >= 1
  std::uint64_t banks = 32;         ///< >= 1
  std::uint64_t rows_per_word = 1;  ///< rows of cells that share one bank word, >= 1
};

/// One bank word: its bank, and which of that bank's words it is.
struct BankWord {
  std::uint64_t bank = 0;
  std::uint64_t key = 0;  ///< the word within the bank: distinct keys serialize, equal keys multicast
  friend bool operator<(const BankWord& a, const BankWord& b) {
    return a.bank != b.bank ? a.bank < b.bank : a.key < b.key;
  }
  friend bool operator==(const BankWord& a, const BankWord& b) { return a.bank == b.bank && a.key == b.key; }
};

/// The bank words a lane's access of `width` bytes at byte address `addr`
/// touches, passed to f in address order.
template <class F>
void for_each_bank_word(const WordLayout& g, unsigned width, std::uint64_t addr, F&& f) {
  const std::uint64_t first = addr / g.cell_bytes;
  const std::uint64_t count = width <= g.cell_bytes ? 1 : width / g.cell_bytes;
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::uint64_t cell = first + k;
    f(BankWord{cell % g.banks, cell / g.banks / g.rows_per_word});
  }
}

/// The distinct bank words the active lanes of `addr` (kInactive: idle)
/// touch, sorted by bank, then key, into `out` (its old contents dropped).
inline void distinct_bank_words(const WordLayout& g, unsigned width, std::span<const std::uint64_t> addr,
                                std::vector<BankWord>& out) {
  out.clear();
  for (const std::uint64_t a : addr)
    if (a != kInactive) for_each_bank_word(g, width, a, [&](const BankWord& w) { out.push_back(w); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

/// The conflict degree of the lanes of `addr` (kInactive: idle) served as
/// one phase: the definition above.
inline std::uint32_t conflict_degree(const WordLayout& g, unsigned width, std::span<const std::uint64_t> addr) {
  thread_local std::vector<BankWord> words;  // reused: the model's general path calls this once per phase
  distinct_bank_words(g, width, addr, words);
  std::uint32_t most = 0, run = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    run = i > 0 && words[i].bank == words[i - 1].bank ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

}  // namespace bankcheck
