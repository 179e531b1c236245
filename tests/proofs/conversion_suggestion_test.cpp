// Choosing the instructions with the layout (proofs/conversion_suggestion.hpp):
// every count is held to an enumeration done here with this file's own code
// (the printed linear layout inverted by brute force over every offset, each
// instruction's lane addresses derived from PTX's fragment rules, each phase's
// wavefronts counted as the most distinct 4-byte words one bank serves), to
// numbers derived by hand from those rules, and to the bandwidth bound (a
// wavefront moves at most 128 bytes).
#include "proofs/conversion_suggestion.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/layout/layout_parser.hpp"

namespace conversion_suggestion_test {

using namespace bankcheck;
using namespace bankcheck::proofs;
using layout::RegisterLayout;
using layout::TileCoord;

namespace {

const BankModel& sm90() {
  static const BankModel m = make_preset("sm90", 32);
  return m;
}

// Triton 3.6's register layouts of the two 64x64 transposes (validate/suggest/triton_pairs/cases.py via linear.py).
const char* kF32Rows = "register=[[0,1],[0,2],[8,0],[16,0],[32,0]] lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] warp=[[2,0],[4,0]]";
const char* kF16Rows = "register=[[0,1],[0,2],[0,4],[16,0],[32,0]] lane=[[0,8],[0,16],[0,32],[1,0],[2,0]] warp=[[4,0],[8,0]]";
const char* kColumn = "register=[[32,0],[0,4],[0,8],[0,16],[0,32]] lane=[[1,0],[2,0],[4,0],[8,0],[16,0]] warp=[[0,1],[0,2]]";

TileCoord walk(const RegisterLayout& r, std::uint64_t g, std::uint64_t l, std::uint64_t w) {
  TileCoord c;
  for (std::size_t i = 0; i < r.reg.size(); ++i)
    if (g >> i & 1) c.row ^= r.reg[i].row, c.col ^= r.reg[i].col;
  for (std::size_t i = 0; i < 5; ++i)
    if (l >> i & 1) c.row ^= r.lane[i].row, c.col ^= r.lane[i].col;
  for (std::size_t i = 0; i < r.warp.size(); ++i)
    if (w >> i & 1) c.row ^= r.warp[i].row, c.col ^= r.warp[i].col;
  return c;
}

std::uint64_t put(std::uint64_t v, const std::vector<unsigned>& at) {
  std::uint64_t r = 0;
  for (std::size_t i = 0; i < at.size(); ++i) r |= (v >> i & 1) << at[i];
  return r;
}

/// Byte address of (row, col): the printed bases "offset=[[r,c],...]" applied to every offset, inverted by brute force.
std::vector<std::uint64_t> addresses_of_text(const std::string& text, std::uint64_t rows, std::uint64_t cols, unsigned e) {
  std::vector<TileCoord> bases;
  for (std::size_t at = text.find("[[") + 1; text[at] == '['; at = text.find('[', at + 1)) {
    const std::size_t comma = text.find(',', at);
    bases.push_back({std::stoull(text.substr(at + 1)), std::stoull(text.substr(comma + 1))});
    if (text[text.find(']', at) + 1] == ']') break;
  }
  std::vector<std::uint64_t> out(rows * cols, ~std::uint64_t{0});
  for (std::uint64_t o = 0; o < rows * cols; ++o) {
    TileCoord c;
    for (std::size_t i = 0; i < bases.size(); ++i)
      if (o >> i & 1) c.row ^= bases[i].row, c.col ^= bases[i].col;
    REQUIRE(out[c.row * cols + c.col] == ~std::uint64_t{0});  // a bijection
    out[c.row * cols + c.col] = o * e;
  }
  return out;
}

struct Ins {
  bool matrix = false;
  unsigned width = 0;
  std::vector<std::uint64_t> addr = std::vector<std::uint64_t>(32, ~std::uint64_t{0});
};

/// Every instruction of a choice, from PTX's rules; CHECKs that each byte moved is the register's element.
std::vector<Ins> derive(const RegisterLayout& r, const InstructionChoice& c, const std::vector<std::uint64_t>& a,
                        std::uint64_t cols, unsigned e) {
  auto A = [&](std::uint64_t g, std::uint64_t l, std::uint64_t w) {
    const TileCoord t = walk(r, g, l, w);
    return a[t.row * cols + t.col];
  };
  std::vector<Ins> out;
  for (std::uint64_t w = 0; w < (std::uint64_t{1} << r.warp.size()); ++w)
    for (std::uint64_t o = 0; o < (std::uint64_t{1} << c.outer.size()); ++o) {
      Ins ins;
      ins.matrix = c.kind.is_matrix();
      ins.width = c.kind.bytes;
      const std::uint64_t g0 = put(o, c.outer);
      if (!ins.matrix) {
        for (unsigned l = 0; l < 32; ++l) {
          ins.addr[l] = A(g0, l, w);
          CHECK(ins.addr[l] % ins.width == 0);
          for (std::uint64_t t = 0; t < ins.width / e; ++t) CHECK(A(g0 | put(t, c.inner), l, w) == ins.addr[l] + t * e);
        }
      }
      for (std::uint64_t j = 0; ins.matrix && j < c.kind.matrices; ++j) {
        const std::uint64_t gj = g0 | put(j, c.matrix);
        for (unsigned row = 0; row < 8; ++row) {
          // non-trans: row `row` is lanes 4 row + t, word t, the word's elements the inner registers;
          // .trans: lane 4 i + t holds column i of rows 2t (register pair 0) and 2t + 1 (pair 1).
          const std::uint64_t g = c.kind.trans ? gj | (std::uint64_t{row & 1} << c.trans_pair) : gj;
          const std::uint64_t base = c.kind.trans ? A(g, row >> 1, w) : A(g, 4 * row, w);
          ins.addr[8 * j + row] = base;
          CHECK(base % 16 == 0);
          for (unsigned i = 0; i < 8 && c.kind.trans; ++i) CHECK(A(g, 4 * i + (row >> 1), w) == base + 2 * i);
          for (unsigned t = 0; t < 4 && !c.kind.trans; ++t)
            for (std::uint64_t p = 0; p < 4 / e; ++p) CHECK(A(g | put(p, c.inner), 4 * row + t, w) == base + 4 * t + e * p);
        }
      }
      out.push_back(ins);
    }
  return out;
}

/// Wavefronts: per phase (a matrix; else 32 lanes up to 4 bytes, 16 of 8, 8 of 16), the most distinct words in one bank.
std::uint64_t count(const std::vector<Ins>& v) {
  std::uint64_t total = 0;
  for (const Ins& ins : v) {
    const unsigned per = ins.matrix ? 8 : ins.width <= 4 ? 32 : 128 / ins.width;
    for (unsigned p = 0; p < 32; p += per) {
      std::map<std::uint64_t, std::set<std::uint64_t>> bank;
      for (unsigned l = p; l < p + per; ++l)
        if (ins.addr[l] != ~std::uint64_t{0})
          for (std::uint64_t wd = ins.addr[l] / 4; wd <= (ins.addr[l] + ins.width - 1) / 4; ++wd) bank[wd % 32].insert(wd);
      std::size_t most = 0;
      for (const auto& [b, words] : bank) most = std::max(most, words.size());
      total += most;
    }
  }
  return total;
}

ConversionSpec spec_of(const char* from, const char* to, std::uint64_t rows, std::uint64_t cols, const char* type) {
  ConversionSpec s;
  s.rows = rows, s.cols = cols, s.element = layout::parse_element_type(type);
  s.from = layout::parse_register_layout(from, rows, cols);
  s.to = layout::parse_register_layout(to, rows, cols);
  return s;
}

/// The library's planned lane addresses equal the ones derived here, instruction by instruction.
void same_addresses(const std::vector<Ins>& mine, const RegisterAccess& theirs) {
  REQUIRE(mine.size() == theirs.check.access.instructions.size());
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (unsigned l = 0; l < 32; ++l) {
      const std::uint64_t a = theirs.check.access.instructions[i].addr[l];
      CHECK(mine[i].addr[l] == (a == kInactive ? ~std::uint64_t{0} : a));
    }
}

/// The suggestion's counts, recounted here from its printed layout.
void recount(const ConversionSuggestion& s, const ConversionSpec& spec) {
  std::vector<std::uint64_t> a;
  if (s.best.linear) a = addresses_of_text(s.best.linear->text(), spec.rows, spec.cols, spec.element.bytes);
  else {
    const layout::SharedLayout l = layout::parse_shared_layout(s.best.cute->layout.text());
    for (std::uint64_t r = 0; r < spec.rows; ++r)
      for (std::uint64_t c = 0; c < spec.cols; ++c) a.push_back(l.byte_address(l.layout(r + c * spec.rows), spec.element.bytes, 0));
  }
  const std::vector<Ins> st = derive(spec.from, s.store.chosen.choice, a, spec.cols, spec.element.bytes);
  const std::vector<Ins> ld = derive(spec.to, s.load.chosen.choice, a, spec.cols, spec.element.bytes);
  CHECK(count(st) == s.store.chosen.check.wavefronts);
  CHECK(count(ld) == s.load.chosen.check.wavefronts);
  same_addresses(st, s.store.chosen);
  same_addresses(ld, s.load.chosen);
  CHECK(s.total == s.store.chosen.check.wavefronts + s.load.chosen.check.wavefronts);
}

/// A register layout of random independent bases (often plain coordinate bits), `warps` warp bits, 5 lane bits.
std::string random_regs(std::mt19937_64& rng, unsigned n, unsigned cb, std::uint64_t cols, unsigned warps) {
  std::vector<std::uint64_t> basis;
  while (basis.size() < n) {
    std::uint64_t v = rng() & ((std::uint64_t{1} << n) - 1);
    if (rng() % 2) v = std::uint64_t{1} << (rng() % n);
    std::vector<std::uint64_t> all = basis;
    all.push_back(v);
    std::set<std::uint64_t> span{0};
    for (std::uint64_t b : all) {
      std::set<std::uint64_t> more = span;
      for (std::uint64_t x : span) more.insert(x ^ b);
      span = more;
    }
    if (span.size() == (std::size_t{1} << all.size())) basis.push_back(v);
  }
  auto coord = [&](std::uint64_t v) { return "[" + std::to_string(v >> cb) + "," + std::to_string(v & (cols - 1)) + "]"; };
  std::string t = "register=[";
  for (unsigned i = 0; i < n - 5 - warps; ++i) t += (i ? "," : "") + coord(basis[i]);
  t += "] lane=[";
  for (unsigned i = 0; i < 5; ++i) t += (i ? "," : "") + coord(basis[n - 5 - warps + i]);
  t += "] warp=[";
  for (unsigned i = 0; i < warps; ++i) t += (i ? "," : "") + coord(basis[n - warps + i]);
  return t + "]";
}

}  // namespace

TEST_CASE("conversion: what the fp32 transpose's registers permit on the plain row-major tile, counted by hand") {
  const ConversionSpec s = spec_of(kF32Rows, kColumn, 64, 64, "f32");
  TileAddresses a{64, 64, {}};
  for (std::uint64_t i = 0; i < 4096; ++i) a.byte.push_back(4 * i);
  std::map<std::string, std::uint64_t> stores, loads;
  for (const RegisterAccess& x : register_accesses(s.from, true, s.element, a, sm90())) {
    stores[x.choice.kind.name()] = x.check.wavefronts;
    CHECK(count(derive(s.from, x.choice, a.byte, 64, 4)) == x.check.wavefronts);
    same_addresses(derive(s.from, x.choice, a.byte, 64, 4), x);
  }
  for (const RegisterAccess& x : register_accesses(s.to, false, s.element, a, sm90())) {
    loads[x.choice.kind.name()] = x.check.wavefronts;
    CHECK(count(derive(s.to, x.choice, a.byte, 64, 4)) == x.check.wavefronts);
  }
  // Registers 0, 1 are columns +1, +2: vectors up to 16 bytes; lane bit 0 steps 16 bytes, so no stmatrix word.
  // st.128: 8 lanes a phase cover 128 contiguous bytes: 4 a warp instruction, 32 of them. st.64: 16 lanes 16 bytes
  // apart, lanes k and k+8 share banks: 2 x 2, 64 instructions. st.32: two rows of 16 lanes 16 bytes apart: 8
  // banks with 4 words each, 128 instructions. The loads: lanes down a column, 256 bytes apart: one bank, 32-way.
  CHECK(stores == std::map<std::string, std::uint64_t>{{"st.32", 512}, {"st.64", 256}, {"st.128", 128}});
  CHECK(loads == std::map<std::string, std::uint64_t>{{"ld.32", 4096}});
}

TEST_CASE("conversion: the 64x64 transposes meet the bandwidth bound, as Triton's convert_layout does") {
  struct Case {
    const char *from, *type;
    std::uint64_t rows, cols, bytes;
  };
  const Case cases[] = {{kF32Rows, "f32", 64, 64, 16384}, {kF16Rows, "fp16", 64, 64, 8192}};
  for (const Case& c : cases) {
    CAPTURE(c.type);
    const ConversionSpec s = spec_of(c.from, kColumn, c.rows, c.cols, c.type);
    const ConversionSuggestion g = suggest_conversion(s, sm90());
    recount(g, s);
    // Each side moves every byte; a wavefront moves at most 32 banks x 4 bytes.
    CHECK(g.store.chosen.check.wavefronts == c.bytes / 128);
    CHECK(g.load.chosen.check.wavefronts == c.bytes / 128);
    CHECK(g.lower_bound == 2 * c.bytes / 128);
    CHECK(g.optimal);
    CHECK(g.verdict.rfind("optimal:", 0) == 0);
    // 16-byte instructions on both sides: the fewest instructions that reach it.
    CHECK(g.store.chosen.check.instructions + g.load.chosen.check.instructions == 2 * c.bytes / 512);
    CHECK(g.best.linear.has_value());
    CHECK(g.paste_triton.rfind("SharedLinearLayout(offset_bases=[[", 0) == 0);
  }
}

TEST_CASE("conversion: a 32x32 fp32 transpose with scalar lanes") {
  const ConversionSpec s =
      spec_of("register=[[4,0],[8,0],[16,0]] lane=[[0,1],[0,2],[0,4],[0,8],[0,16]] warp=[[1,0],[2,0]]",
              "register=[[0,4],[0,8],[0,16]] lane=[[1,0],[2,0],[4,0],[8,0],[16,0]] warp=[[0,1],[0,2]]", 32, 32, "f32");
  const ConversionSuggestion g = suggest_conversion(s, sm90());
  recount(g, s);
  CHECK(g.total == 64);  // 4096 bytes a side, 128 a wavefront
  CHECK(g.optimal);
}

TEST_CASE("conversion: random register layouts, counts recounted here, never worse than scalars on a plain tile") {
  std::mt19937_64 rng(45);
  struct Shape {
    std::uint64_t rows, cols;
    const char* type;
    unsigned e;
  };
  const Shape shapes[] = {{32, 16, "f32", 4}, {16, 64, "fp16", 2}, {32, 32, "fp16", 2}, {32, 64, "int8", 1}, {16, 32, "f32", 4}};
  int cases = 0, optimal = 0;
  for (int k = 0; k < 40; ++k) {
    const Shape& sh = shapes[k % 5];
    const unsigned cb = static_cast<unsigned>(std::countr_zero(sh.cols)), n = cb + static_cast<unsigned>(std::countr_zero(sh.rows));
    const unsigned warps = static_cast<unsigned>(rng() % 3);
    const std::string from = random_regs(rng, n, cb, sh.cols, warps), to = random_regs(rng, n, cb, sh.cols, warps);
    CAPTURE(from);
    CAPTURE(to);
    const ConversionSpec s = spec_of(from.c_str(), to.c_str(), sh.rows, sh.cols, sh.type);
    ++cases;
    const ConversionSuggestion g = suggest_conversion(s, sm90());
    recount(g, s);
    const std::uint64_t bytes = sh.rows * sh.cols * sh.e, bound = 2 * ((bytes + 127) / 128);
    CHECK(g.lower_bound == bound);
    CHECK(g.total >= bound);
    optimal += g.total == bound;
    // Scalars are permitted on any layout: on row- and column-major, counted here, the suggestion is no worse.
    for (bool row_major : {true, false}) {
      std::vector<std::uint64_t> a(sh.rows * sh.cols);
      for (std::uint64_t r = 0; r < sh.rows; ++r)
        for (std::uint64_t c = 0; c < sh.cols; ++c) a[r * sh.cols + c] = sh.e * (row_major ? r * sh.cols + c : c * sh.rows + r);
      InstructionChoice st, ld;
      st.kind.family = layout::AccessKind::Family::store, st.kind.bytes = sh.e;
      ld.kind.family = layout::AccessKind::Family::load, ld.kind.bytes = sh.e;
      for (unsigned b = 0; b < s.from.reg.size(); ++b) st.outer.push_back(b);
      for (unsigned b = 0; b < s.to.reg.size(); ++b) ld.outer.push_back(b);
      CHECK(g.total <= count(derive(s.from, st, a, sh.cols, sh.e)) + count(derive(s.to, ld, a, sh.cols, sh.e)));
    }
  }
  CHECK(cases == 40);
  MESSAGE(cases << " random conversions, " << optimal << " at the bandwidth bound");
}

TEST_CASE("conversion: linear layouts: the inverse by elimination equals brute force; the text reads back") {
  const std::vector<TileCoord> bases{{0, 4}, {0, 8}, {0, 16}, {1, 32}, {2, 0}, {0, 1}, {1, 0}, {0, 2}, {4, 0}, {8, 0}, {16, 0}, {32, 0}};
  const LinearSharedLayout l = linear_layout_of(64, 64, bases);
  const std::vector<std::uint64_t> brute = addresses_of_text(l.text(), 64, 64, 1);
  for (std::uint64_t r = 0; r < 64; ++r)
    for (std::uint64_t c = 0; c < 64; ++c) CHECK(l.offset(r, c) == brute[r * 64 + c]);
  CHECK(parse_linear_shared_layout(l.text(), 64, 64).image == l.image);
  CHECK_THROWS_WITH_AS(linear_layout_of(64, 64, std::vector<TileCoord>(12, {0, 1})), doctest::Contains("not independent"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_linear_shared_layout("offset=[[0,1],[0,2]", 2, 2), doctest::Contains("column"),
                       std::invalid_argument);
}

}  // namespace conversion_suggestion_test
