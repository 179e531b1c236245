#include "sim/algorithms/extra_algorithms.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "sim/algorithms/aho_corasick/aho_corasick.hpp"
#include "sim/algorithms/sigmod/bitonic_sort.hpp"
#include "sim/algorithms/sigmod/css_tree.hpp"
#include "sim/algorithms/sigmod/prefix_scan.hpp"
#include "sim/algorithms/sigmod/split_histogram.hpp"
#include "sim/algorithms/strided/strided_access.hpp"
#include "sim/algorithms/transpose/transpose.hpp"

namespace bankcheck {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}
std::string num(std::int64_t v) { return std::to_string(v); }
unsigned u32(const Params& p, std::string_view name) { return static_cast<unsigned>(param(p, name)); }

void require_range(const Params& p, std::string_view name, std::int64_t lo, std::int64_t hi) {
  const auto v = param(p, name);
  require(v >= lo && v <= hi,
          std::string(name) + " must be in " + num(lo) + ".." + num(hi) + " (got " + num(v) + ")");
}
bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

void no_file(const InputChoice& in, std::string_view algo) {
  require(in.kind != InputChoice::Kind::file, std::string(algo) + " takes no input file (use random or worst)");
}

template <class Algo>
void run_block(const Algo& algo, std::size_t shared_bytes, unsigned threads, unsigned w, InstructionListener& out) {
  BlockRecorder recorder(shared_bytes);
  recorder.run(algo, threads, w, out);
}

Prediction conflict_free(std::string formula, std::vector<std::string> sites) {
  Prediction pr;
  pr.formula = std::move(formula);
  pr.quantity = "conflicts";
  pr.sites = std::move(sites);
  pr.value = 0;
  pr.model = "dmm";
  return pr;
}

unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

// For algorithms whose addresses do not depend on the data, `--input worst`
// runs the random input: every input replays the same counts (tested).
constexpr const char* kDataOblivious = "any input: the addresses do not depend on the data (every input costs the same)";

// ---------------------------------------------------------------- strided

AlgorithmSpec strided_spec() {
  AlgorithmSpec s;
  s.name = "strided";
  s.worst_case = kDataOblivious;
  s.description = "thread t reads element t*stride (SPAA 2025 Figure 1; conflict-free iff GCD(stride, w) = 1)";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"stride", 1, "elements between neighbouring threads, 1..65536"},
              {"u", 32, "threads, 1..1024"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "stride", 1, 65536);
    require_range(p, "u", 1, 1024);
  };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "strided");
    StridedAccess a{u32(p, "u"), u32(p, "stride")};
    std::vector<int> got(a.threads, -1);
    a.out = got.data();
    BlockRecorder recorder(a.shared_bytes());
    auto sh = recorder.shared();
    for (std::size_t i = 0; i < a.elements(); ++i) {  // element i holds i
      const int v = static_cast<int>(i);
      std::memcpy(sh.data() + i * sizeof(int), &v, sizeof v);
    }
    recorder.run(a, a.threads, u32(p, "w"), out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "thread t read element t*stride";
    o.output_ok = true;
    for (unsigned t = 0; t < a.threads; ++t) o.output_ok &= got[t] == static_cast<int>(t * a.stride);
    o.blocks = 1;
    o.items = a.threads;
    const unsigned w = u32(p, "w");
    if (a.threads % w == 0) {
      // SPAA 2025 Lemma 1 and its converse: lanes t*s fall in w/g banks, g = GCD(s, w) each.
      Prediction pr;
      pr.formula = "GCD(stride, w) wavefronts per warp (SPAA 2025 Lemma 1)";
      pr.quantity = "wavefronts";
      pr.value = static_cast<std::uint64_t>(gcd(a.stride, w)) * (a.threads / w);
      pr.model = "dmm";
      o.prediction = pr;
    }
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- transpose

AlgorithmSpec transpose_spec(std::string name, TransposeLayout layout, std::string description) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = std::move(description);
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"tile", 32, "tile side (tile*tile threads), 1..32; a power of two for the swizzled layout"}};
  s.validate = [layout](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "tile", 1, 32);
    Transpose<int>{u32(p, "tile"), layout}.validate();
  };
  s.drive = [layout](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "transpose");
    const unsigned tile = u32(p, "tile"), w = u32(p, "w");
    std::vector<int> a(tile * tile), b(tile * tile, -1);
    std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
    for (auto& v : a) v = static_cast<int>(rng() % 1000);
    Transpose<int> t{tile, layout, a.data(), b.data()};
    run_block(t, t.shared_bytes(), t.threads(), w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out[c][r] == in[r][c]";
    o.output_ok = true;
    for (unsigned r = 0; r < tile; ++r)
      for (unsigned c = 0; c < tile; ++c) o.output_ok &= b[c * tile + r] == a[r * tile + c];
    o.blocks = 1;
    o.items = tile * tile;
    if (tile == w) {
      if (layout == TransposeLayout::plain) {
        Prediction pr;
        pr.formula = "plain tile, tile = w: each column read is w-way, w(w-1) conflicts per tile";
        pr.quantity = "conflicts";
        pr.sites = {"transpose.read_column"};
        pr.value = std::uint64_t{w} * (w - 1);
        pr.model = "dmm";
        o.prediction = pr;
      } else {
        o.prediction = conflict_free("padded / XOR-swizzled tile, tile = w: conflict-free", {});
      }
    }
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- scan

AlgorithmSpec scan_spec(std::string name, bool padded) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = padded ? "Blelloch exclusive scan, slots padded by i / w (GPU Gems 3 ch. 39)"
                         : "Blelloch exclusive scan (up-sweep/down-sweep), unpadded";
  s.params = {{"w", 32, "warp size = banks, 1..1024"}, {"n", 64, "elements, a power of two in 2..4096 (n/2 threads)"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "n", 2, 4096);
    require(power_of_two(param(p, "n")), "n must be a power of two (got " + num(param(p, "n")) + ")");
  };
  s.drive = [padded](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned n = u32(p, "n"), w = u32(p, "w");
    std::vector<int> a(n), b(n, -1);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == n, in.path + ": scan needs exactly n = " + num(n) + " integers (got " + num(v.size()) + ")");
      for (unsigned i = 0; i < n; ++i) {
        require(v[i] >= -1000000 && v[i] <= 1000000, in.path + ": values must be in -10^6..10^6");
        a[i] = static_cast<int>(v[i]);
      }
    } else {
      std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
      for (auto& v : a) v = static_cast<int>(rng() % 100);
    }
    PrefixScan<int> sc{n, padded ? w : 0u, a.data(), b.data()};
    run_block(sc, sc.shared_bytes(), sc.threads(), w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out == std::exclusive_scan(in)";
    std::vector<int> e(n);
    std::exclusive_scan(a.begin(), a.end(), e.begin(), 0);
    o.output_ok = e == b;
    o.blocks = 1;
    o.items = n;
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- bitonic

AlgorithmSpec bitonic_spec() {
  AlgorithmSpec s;
  s.name = "bitonic";
  s.worst_case = kDataOblivious;
  s.description = "bitonic sort in shared memory (SIGMOD 2008 Sec. 3.2); 2-way in stages with j < w";
  s.params = {{"w", 32, "warp size = banks, 1..1024"}, {"n", 256, "keys, a power of two in 2..4096 (n/2 threads)"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "n", 2, 4096);
    require(power_of_two(param(p, "n")), "n must be a power of two (got " + num(param(p, "n")) + ")");
  };
  s.drive = [](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned n = u32(p, "n"), w = u32(p, "w");
    std::vector<int> a(n), b(n, -1);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == n, in.path + ": bitonic needs exactly n = " + num(n) + " integers (got " + num(v.size()) + ")");
      for (unsigned i = 0; i < n; ++i) {
        require(v[i] >= INT32_MIN && v[i] <= INT32_MAX, in.path + ": values must fit 32 bits");
        a[i] = static_cast<int>(v[i]);
      }
    } else {
      std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
      for (auto& v : a) v = static_cast<int>(rng() % 100000);
    }
    BitonicSort<int> bs{n, a.data(), b.data()};
    run_block(bs, bs.shared_bytes(), bs.threads(), w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "out == std::sort(in)";
    std::sort(a.begin(), a.end());
    o.output_ok = a == b;
    o.blocks = 1;
    o.items = n;
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- split histogram

AlgorithmSpec split_spec(std::string name, HistogramLayout layout) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = "every key in partition 0 (thread-major: lane t hits t*F, GCD(F, w)-way)";
  s.description = layout == HistogramLayout::interleaved
                      ? "SIGMOD 2008 split, thread histograms at p*threads + t (conflict-free)"
                      : "SIGMOD 2008 split, thread histograms at t*F + p (GCD(F, w)-way on equal keys)";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"u", 64, "threads, 1..1024"},
              {"fanout", 16, "partitions F, 1..4096"},
              {"per_thread", 8, "keys per thread, 1..4096"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "u", 1, 1024);
    require_range(p, "fanout", 1, 4096);
    require_range(p, "per_thread", 1, 4096);
    require(param(p, "u") * param(p, "fanout") <= (1 << 22), "u * fanout must be at most 2^22 counters");
  };
  s.drive = [layout](const Params& p, const InputChoice& in, InstructionListener& out) {
    const unsigned u = u32(p, "u"), f = u32(p, "fanout"), per = u32(p, "per_thread"), w = u32(p, "w");
    std::vector<unsigned> keys(std::size_t{u} * per);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == keys.size(), in.path + ": split needs u * per_thread = " + num(keys.size()) + " keys");
      for (std::size_t i = 0; i < keys.size(); ++i) {
        require(v[i] >= 0 && v[i] <= UINT32_MAX, in.path + ": keys must be in 0..2^32-1");
        keys[i] = static_cast<unsigned>(v[i]);
      }
    } else if (in.kind == InputChoice::Kind::worst) {
      std::fill(keys.begin(), keys.end(), 0u);  // one partition: lanes t hit t*F (thread_major)
    } else {
      std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
      for (auto& k : keys) k = rng();
    }
    std::vector<unsigned> hist(std::size_t{u} * f, 0);
    SplitHistogram h{u, f, per, layout, keys.data(), hist.data()};
    run_block(h, h.shared_bytes(), u, w, out);
    std::vector<unsigned> expect(hist.size(), 0);
    for (unsigned t = 0; t < u; ++t)
      for (unsigned i = 0; i < per; ++i) ++expect[std::size_t{keys[std::size_t{t} * per + i] % f} * u + t];
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "L[p*u + t] == #keys of thread t in partition p";
    o.output_ok = expect == hist;
    o.blocks = 1;
    o.items = keys.size();
    if (layout == HistogramLayout::interleaved && u % w == 0)
      o.prediction = conflict_free("L-order histograms (SIGMOD 2008 Algorithm 1): lane t stays in bank t", {});
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- CSS tree

AlgorithmSpec css_spec(std::string name, bool pad) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = "lane t descends into root child t mod (m+1) (m-way probes when m = w, unpadded)";
  s.description = pad ? "CSS-tree search, nodes of m keys padded to m+1 slots"
                      : "CSS-tree search (SIGMOD 2008 INLJ), nodes of m keys packed level by level";
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"m", 32, "keys per node, 1..256"},
              {"levels", 2, "tree levels, 1..8 (the tree holds (m+1)^levels - 1 keys)"},
              {"u", 32, "threads = queries per block, 1..1024"}};
  s.validate = [pad](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "m", 1, 256);
    require_range(p, "levels", 1, 8);
    require_range(p, "u", 1, 1024);
    CssTreeSearch<int> c;
    c.keys_per_node = u32(p, "m");
    c.levels = u32(p, "levels");
    c.pad = pad;
    c.threads = u32(p, "u");
    c.validate();
  };
  s.drive = [pad](const Params& p, const InputChoice& in, InstructionListener& out) {
    CssTreeSearch<int> c;
    c.keys_per_node = u32(p, "m");
    c.levels = u32(p, "levels");
    c.pad = pad;
    c.threads = u32(p, "u");
    const unsigned w = u32(p, "w"), m = c.keys_per_node;
    std::vector<int> sorted(c.keys());
    for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<int>(2 * i + 1);
    const auto tree = build_css_tree(sorted, m, c.levels);
    std::vector<int> q(c.threads);
    if (in.kind == InputChoice::Kind::file) {
      const auto v = input_integers(in);
      require(v.size() == q.size(), in.path + ": css needs u = " + num(q.size()) + " queries");
      for (std::size_t i = 0; i < q.size(); ++i) {
        require(v[i] >= INT32_MIN && v[i] <= INT32_MAX, in.path + ": queries must fit 32 bits");
        q[i] = static_cast<int>(v[i]);
      }
    } else if (in.kind == InputChoice::Kind::worst) {
      // Lane t descends into child (t mod (m+1)) of the root: distinct level-1 nodes whose
      // key i all sit in bank i when m = w.
      std::size_t child_keys = sorted.size() / (m + 1);  // keys under one root child
      for (unsigned t = 0; t < c.threads; ++t)
        q[t] = sorted[(t % (m + 1)) * (child_keys + 1)];
    } else {
      std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
      for (auto& v : q) v = static_cast<int>(rng() % (2 * sorted.size() + 2));
    }
    std::vector<std::uint32_t> rank(c.threads, 0);
    c.tree = tree.data();
    c.queries = q.data();
    c.rank = rank.data();
    run_block(c, c.shared_bytes(), c.threads, w, out);
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "rank == std::lower_bound(keys, q) - keys";
    o.output_ok = true;
    for (unsigned t = 0; t < c.threads; ++t)
      o.output_ok &= rank[t] == static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), q[t]) -
                                                          sorted.begin());
    o.blocks = 1;
    o.items = c.threads;
    return o;
  };
  return s;
}

// ---------------------------------------------------------------- Aho-Corasick

AlgorithmSpec aho_spec(std::string name, TextStaging staging, std::string description) {
  AlgorithmSpec s;
  s.name = std::move(name);
  s.worst_case = kDataOblivious;
  s.description = std::move(description);
  s.params = {{"w", 32, "warp size = banks, 1..1024"},
              {"u", 32, "threads, 1..1024"},
              {"chunk", 64, "text bytes per thread, a multiple of 4 in 4..4096"},
              {"patterns", 16, "patterns (random substrings of the text), 1..10000"},
              {"pattern_len", 6, "longest pattern, 1..64 bytes"}};
  s.validate = [](const Params& p) {
    require_range(p, "w", 1, 1024);
    require_range(p, "u", 1, 1024);
    require_range(p, "chunk", 4, 4096);
    require(param(p, "chunk") % 4 == 0, "chunk must be a multiple of 4 (got " + num(param(p, "chunk")) + ")");
    require_range(p, "patterns", 1, 10000);
    require_range(p, "pattern_len", 1, 64);
  };
  s.drive = [staging](const Params& p, const InputChoice& in, InstructionListener& out) {
    no_file(in, "aho");
    const unsigned u = u32(p, "u"), chunk = u32(p, "chunk"), w = u32(p, "w");
    std::mt19937 rng(static_cast<std::uint32_t>(in.seed));
    std::string text(std::size_t{u} * chunk, 'a');
    for (auto& ch : text) ch = "acgt"[rng() % 4];
    std::vector<std::string> patterns;
    const unsigned longest = std::min<unsigned>(u32(p, "pattern_len"), static_cast<unsigned>(text.size()));
    for (unsigned i = 0; i < u32(p, "patterns"); ++i) {
      const std::size_t len = 1 + rng() % longest;
      patterns.push_back(text.substr(rng() % (text.size() - len + 1), len));
    }
    const AcAutomaton ac = build_aho_corasick(patterns);
    std::vector<std::uint32_t> words(text.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i)
      for (unsigned b = 0; b < 4; ++b)
        words[i] |= std::uint32_t{static_cast<unsigned char>(text[4 * i + b])} << (8 * b);
    std::vector<std::uint32_t> matches(u, 0);
    AhoCorasick a{u, chunk, staging, aho_skew_for(w, chunk), words.data(), ac.next.data(), ac.out_begin.data(),
                  ac.out_length.data(), ac.longest, matches.data()};
    run_block(a, a.shared_bytes(), u, w, out);
    std::uint64_t expect = 0, got = 0;
    for (const auto& pat : patterns)
      for (std::size_t i = 0; i + pat.size() <= text.size(); ++i) expect += text.compare(i, pat.size(), pat) == 0;
    for (auto m : matches) got += m;
    AlgorithmOutcome o;
    o.output_checked = true;
    o.check = "total matches == naive search of every pattern (" + std::to_string(expect) + ")";
    o.output_ok = got == expect;
    o.blocks = 1;
    o.items = text.size();
    const unsigned per = chunk / 4;
    if (staging == TextStaging::sm2 && u % w == 0)
      o.prediction = conflict_free("each thread scans its own bank (SM-2, Sec. 2, Figs. 3-4)", {"aho.scan"});
    if (staging == TextStaging::skewed && u % w == 0 && (w % per == 0 || per % w == 0))
      o.prediction = conflict_free("skewed staging: every warp instruction covers distinct banks", {});
    return o;
  };
  return s;
}

}  // namespace

std::vector<AlgorithmSpec> extra_algorithm_specs() {
  std::vector<AlgorithmSpec> v;
  v.push_back(strided_spec());
  v.push_back(transpose_spec("transpose", TransposeLayout::plain, "tiled transpose, tile[r][c] at r*tile + c"));
  v.push_back(transpose_spec("transpose-padded", TransposeLayout::padded,
                             "tiled transpose, rows padded to tile + 1 (conflict-free column reads)"));
  v.push_back(transpose_spec("transpose-swizzled", TransposeLayout::swizzled,
                             "tiled transpose, tile[r][c] at r*tile + (c xor r)"));
  v.push_back(scan_spec("scan", false));
  v.push_back(scan_spec("scan-padded", true));
  v.push_back(bitonic_spec());
  v.push_back(split_spec("split", HistogramLayout::interleaved));
  v.push_back(split_spec("split-thread-major", HistogramLayout::thread_major));
  v.push_back(css_spec("css", false));
  v.push_back(css_spec("css-padded", true));
  v.push_back(aho_spec("aho-sm1", TextStaging::sm1, "Aho-Corasick, SM-1: each thread's chunk contiguous"));
  v.push_back(aho_spec("aho-sm2", TextStaging::sm2, "Aho-Corasick, SM-2: each thread's words in one bank"));
  v.push_back(aho_spec("aho-skewed", TextStaging::skewed,
                       "Aho-Corasick, SM-2 with a skew of w/(chunk/4): conflict-free staging and scan (ours)"));
  return v;
}

}  // namespace bankcheck
