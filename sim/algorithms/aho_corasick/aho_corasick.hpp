#pragma once
// Aho-Corasick matching over text staged in shared memory, with the two
// stagings of "Optimizing shared memory for pattern matching" (the Korean
// Aho-Corasick bank-conflict paper, Sec. 2, experiments SM-1 and SM-2):
//   SM-1: the block loads its text coalesced (word g by thread g mod threads)
//         and stores it as is, so thread t's chunk of C bytes is contiguous:
//         its j-th word sits at t*C/4 + j. Lanes reading their j-th words hit
//         banks (t*C/4 + j) mod w: GCD(C/4, w)-way.
//   SM-2: the loaded words are stored so that thread t's j-th word sits at
//         j*threads + t ("stored alternately ... at addresses mapped to the
//         same bank", Figures 3-4): every lane scans its own bank,
//         conflict-free in the scan. The coalesced staging stores pay instead:
//         a warp's words belong to one chunk (when C/4 >= w) and all land in
//         bank (chunk mod w), w-way.
//   skewed: (ours, not the paper's) word j of thread t at j*threads +
//         (t + j*skew) mod threads: the scan still reads distinct banks
//         ((t + j*skew) mod w) and, with skew = w / (C/4) when C/4 divides w
//         (1 when C/4 >= w), a warp's staging stores (w/(C/4) chunks times C/4
//         words, or w words of one chunk) cover every bank once: conflict-free
//         in both phases when threads is a multiple of w and C/4 divides w or
//         is a multiple of it.
// Threads read whole 4-byte words and match their 4 bytes. The automaton
// (a full DFA: goto plus failure links) lives in global memory, as in the
// paper. Each thread counts the occurrences that start in its chunk, reading
// on into the next chunk for (longest pattern - 1) bytes, so the counts of
// all threads sum to the occurrences in the whole text.
// Phases: 0 stage the text; 1 match.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/algorithms/block_algorithm.hpp"  // and model/hd.hpp

namespace bankcheck {

enum class TextStaging : int { sm1, sm2, skewed };

inline TextStaging parse_text_staging(std::string_view name) {
  if (name == "sm1" || name == "SM-1") return TextStaging::sm1;
  if (name == "sm2" || name == "SM-2") return TextStaging::sm2;
  if (name == "skewed") return TextStaging::skewed;
  throw std::invalid_argument("staging must be sm1, sm2 or skewed (got '" + std::string(name) + "')");
}

/// A byte-alphabet Aho-Corasick automaton as a full transition table.
struct AcAutomaton {
  std::vector<std::int32_t> next;            ///< states * 256
  std::vector<std::uint32_t> out_begin;      ///< per state, into out_length (states + 1 entries)
  std::vector<std::uint32_t> out_length;     ///< lengths of the patterns ending at each state
  std::uint32_t longest = 0;

  std::size_t states() const { return out_begin.empty() ? 0 : out_begin.size() - 1; }
};

/// Build the automaton (Aho & Corasick 1975: trie, BFS failure links, outputs merged along them).
/// @throws std::invalid_argument on an empty pattern list or an empty pattern.
inline AcAutomaton build_aho_corasick(const std::vector<std::string>& patterns) {
  if (patterns.empty()) throw std::invalid_argument("aho-corasick: need at least one pattern");
  std::vector<std::array<std::int32_t, 256>> go(1);
  go[0].fill(-1);
  std::vector<std::vector<std::uint32_t>> out(1);
  std::uint32_t longest = 0;
  for (const auto& p : patterns) {
    if (p.empty()) throw std::invalid_argument("aho-corasick: patterns must be non-empty");
    longest = std::max<std::uint32_t>(longest, static_cast<std::uint32_t>(p.size()));
    std::int32_t s = 0;
    for (unsigned char c : p) {
      if (go[s][c] < 0) {
        go[s][c] = static_cast<std::int32_t>(go.size());
        go.emplace_back();
        go.back().fill(-1);
        out.emplace_back();
      }
      s = go[s][c];
    }
    out[s].push_back(static_cast<std::uint32_t>(p.size()));
  }
  std::vector<std::int32_t> fail(go.size(), 0);
  std::queue<std::int32_t> bfs;
  for (int c = 0; c < 256; ++c) {
    if (go[0][c] < 0) go[0][c] = 0;
    else bfs.push(go[0][c]);
  }
  while (!bfs.empty()) {
    const std::int32_t s = bfs.front();
    bfs.pop();
    out[s].insert(out[s].end(), out[fail[s]].begin(), out[fail[s]].end());
    for (int c = 0; c < 256; ++c) {
      const std::int32_t t = go[s][c];
      if (t < 0) {
        go[s][c] = go[fail[s]][c];
      } else {
        fail[t] = go[fail[s]][c];
        bfs.push(t);
      }
    }
  }
  AcAutomaton a;
  a.longest = longest;
  a.next.reserve(go.size() * 256);
  for (const auto& row : go) a.next.insert(a.next.end(), row.begin(), row.end());
  a.out_begin.push_back(0);
  for (const auto& o : out) {
    a.out_length.insert(a.out_length.end(), o.begin(), o.end());
    a.out_begin.push_back(static_cast<std::uint32_t>(a.out_length.size()));
  }
  return a;
}

struct AhoCorasick {
  static constexpr const char* kName = "aho";
  enum Site : int { kStage, kScan };
  static constexpr const char* kSiteNames[2] = {"stage", "scan"};
  static constexpr int kPhases = 2;

  unsigned threads = 32;
  unsigned chunk = 64;  ///< bytes per thread C, a multiple of 4
  TextStaging staging = TextStaging::sm1;
  unsigned skew = 1;    ///< skewed staging: word j of thread t in column (t + j*skew) mod threads
  const std::uint32_t* text = nullptr;  ///< threads * chunk / 4 words (little-endian bytes)
  const std::int32_t* next = nullptr;   ///< AcAutomaton::next
  const std::uint32_t* out_begin = nullptr;
  const std::uint32_t* out_length = nullptr;
  std::uint32_t longest = 1;            ///< longest pattern, bytes
  std::uint32_t* matches = nullptr;     ///< matches[t]: occurrences starting in chunk t

  void validate() const {
    if (threads == 0 || threads > 1024)
      throw std::invalid_argument("aho: threads must be in [1, 1024] (got " + std::to_string(threads) + ")");
    if (chunk == 0 || chunk % 4 != 0 || chunk > 4096)
      throw std::invalid_argument("aho: chunk must be a multiple of 4 in [4, 4096] bytes (got " +
                                  std::to_string(chunk) + ")");
    if (longest == 0) throw std::invalid_argument("aho: longest pattern must be >= 1 byte");
    if (skew == 0) throw std::invalid_argument("aho: skew must be >= 1 (got 0)");
  }
  BANKCHECK_HD std::size_t words() const { return std::size_t{threads} * (chunk / 4); }
  BANKCHECK_HD std::size_t shared_bytes() const { return words() * 4; }

  /// Word index in shared memory of word j of thread t's chunk.
  BANKCHECK_HD std::size_t slot(unsigned t, std::size_t j) const {
    switch (staging) {
      case TextStaging::sm2: return j * threads + t;
      case TextStaging::skewed: return j * threads + (t + j * skew) % threads;
      default: return std::size_t{t} * (chunk / 4) + j;
    }
  }

  template <class Smem>
  BANKCHECK_HD void phase(int k, int tid, Smem& smem) const {
    const unsigned t = static_cast<unsigned>(tid);
    const std::size_t per = chunk / 4;
    if (k == 0) {
      // Coalesced staging: word g of the block's text is loaded by thread g mod threads.
      for (std::size_t g = t; g < words(); g += threads)
        smem.template store<std::uint32_t>(kStage, slot(static_cast<unsigned>(g / per), g % per), text[g]);
      return;
    }
    // Scan own chunk, then (longest - 1) bytes of the following chunks.
    const std::size_t begin = std::size_t{t} * chunk;
    const std::size_t block_end = std::size_t{threads} * chunk;
    const std::size_t end = begin + chunk + longest - 1 < block_end ? begin + chunk + longest - 1 : block_end;
    std::int32_t state = 0;
    std::uint32_t count = 0;
    for (std::size_t word = begin / 4; word * 4 < end; ++word) {
      const std::uint32_t v = smem.template load<std::uint32_t>(
          kScan, slot(static_cast<unsigned>(word / per), word % per));
      for (unsigned b = 0; b < 4 && word * 4 + b < end; ++b) {
        const std::size_t pos = word * 4 + b;
        state = next[static_cast<std::size_t>(state) * 256 + ((v >> (8 * b)) & 0xffu)];
        for (std::uint32_t o = out_begin[state]; o < out_begin[state + 1]; ++o)
          if (pos + 1 - out_length[o] < begin + chunk) ++count;  // starts in this chunk
      }
    }
    matches[t] = count;
  }
};

/// The skew that makes the skewed staging conflict-free on w banks for chunks of
/// `chunk` bytes: w / (chunk/4) when chunk/4 divides w, else 1.
BANKCHECK_HD_INLINE unsigned aho_skew_for(unsigned w, unsigned chunk) {
  const unsigned per = chunk / 4;
  return per != 0 && per < w && w % per == 0 ? w / per : 1;
}

static_assert(BlockAlgorithm<AhoCorasick>);

}  // namespace bankcheck
