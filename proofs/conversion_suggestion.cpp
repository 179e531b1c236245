#include "proofs/conversion_suggestion.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>

#include "proofs/layout_paste.hpp"
#include "proofs/linear_layout_synthesis.hpp"
#include "proofs/xor_map_search.hpp"
#include "sim/layout/layout_parser.hpp"

namespace bankcheck::proofs {
namespace {

std::uint64_t cs_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("wavefronts past 2^64");
  return r;
}

LayoutCandidate cs_plain(std::uint64_t rows, std::uint64_t cols, bool row_major, std::uint64_t pad) {
  LayoutCandidate c;
  c.family = pad == 0 ? LayoutCandidate::Family::plain : LayoutCandidate::Family::padded;
  c.row_major = row_major, c.pad = pad;
  c.layout.layout = plain_layout(rows, cols, row_major, pad);
  return c;
}

/// Plain and padded tiles, and CuTe swizzles on element offsets (at base 0 a byte swizzle is one of these).
std::vector<ConversionLayout> cs_cute_candidates(const ConversionSpec& s) {
  std::vector<ConversionLayout> out;
  for (bool row_major : {true, false})
    for (std::uint64_t pad = 0; pad * s.element.bytes <= 128; pad = pad == 0 ? 1 : pad * 2)
      out.push_back(ConversionLayout{cs_plain(s.rows, s.cols, row_major, pad), std::nullopt});
  const unsigned n = static_cast<unsigned>(std::countr_zero(s.rows * s.cols));
  for (bool row_major : {true, false})
    for (const layout::Swizzle& sw : swizzles_within(n)) {
      LayoutCandidate c = cs_plain(s.rows, s.cols, row_major, 0);
      c.family = LayoutCandidate::Family::cute_swizzle;
      c.layout.swizzle = sw;
      out.push_back(ConversionLayout{c, std::nullopt});
    }
  return out;
}

struct CsEval {
  std::vector<RegisterAccess> stores, loads;
  std::size_t store = 0, load = 0;  ///< the cheapest of each
  std::uint64_t total = 0, instructions = 0, footprint = 0;
  bool feasible() const { return !stores.empty() && !loads.empty(); }
};

std::size_t cs_best(const std::vector<RegisterAccess>& v) {
  std::size_t b = 0;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (better_access(v[i], v[b])) b = i;
  return b;
}

CsEval cs_evaluate(const ConversionLayout& c, const ConversionSpec& s, const BankModel& model) {
  CsEval out;
  const TileAddresses addr = c.addresses(s.element);
  out.stores = register_accesses(s.from, true, s.element, addr, model);
  out.loads = register_accesses(s.to, false, s.element, addr, model);
  if (!out.feasible()) return out;
  out.store = cs_best(out.stores), out.load = cs_best(out.loads);
  const auto& a = out.stores[out.store].check;
  const auto& b = out.loads[out.load].check;
  out.total = cs_add(a.wavefronts, b.wavefronts);
  out.instructions = cs_add(a.instructions, b.instructions);
  const auto [lo, hi] = std::minmax_element(addr.byte.begin(), addr.byte.end());
  out.footprint = *hi + s.element.bytes - *lo;
  return out;
}

bool cs_modelled(const CsEval& e) {
  return e.stores[e.store].check.not_modelled == 0 && e.loads[e.load].check.not_modelled == 0;
}

std::vector<std::string> cs_permitted(const std::vector<RegisterAccess>& v) {
  std::vector<std::string> out;
  for (const RegisterAccess& a : v)
    out.push_back(a.choice.text() + ": " +
                  (a.check.not_modelled ? std::string("not modelled")
                                        : std::to_string(a.check.wavefronts) + " wavefronts, " +
                                              std::to_string(a.check.instructions) + " instructions"));
  return out;
}

/// The suggestion's printed layout read back and its chosen instructions planned and costed again.
std::string cs_parse_back(const ConversionSuggestion& out, const ConversionSpec& s, const BankModel& model) {
  ConversionLayout back;
  if (out.best.linear) back.linear = parse_linear_shared_layout(out.best.linear->text(), s.rows, s.cols);
  else {
    LayoutCandidate c = *out.best.cute;
    c.layout = layout::parse_shared_layout(out.best.cute->layout.text());
    back.cute = c;
  }
  const TileAddresses addr = back.addresses(s.element);
  for (const auto* side : {&out.store, &out.load}) {
    const auto& regs = side == &out.store ? s.from : s.to;
    const auto k = layout::check_layout(plan_register_access(regs, side->chosen.choice, s.element, addr), model);
    if (k.wavefronts != side->chosen.check.wavefronts || k.instructions != side->chosen.check.instructions)
      throw std::logic_error("bug: the printed layout costs " + std::to_string(k.wavefronts) + " wavefronts for " +
                             side->chosen.choice.text() + ", the search claimed " +
                             std::to_string(side->chosen.check.wavefronts));
  }
  return "parsed back: \"" + out.best.text() + "\" gives the same instructions and wavefronts on both sides";
}

void cs_verdict(ConversionSuggestion& out, const ConversionSpec& s, const BankModel& model) {
  const BankGeometry& g = model.geometry();
  const std::uint64_t per = std::uint64_t{g.banks} * g.bank_bytes, bytes = s.rows * s.cols * s.element.bytes;
  const std::uint64_t ideal = out.store.chosen.check.ideal + out.load.chosen.check.ideal;
  if (per != 0 && g.rows_per_word == 1) {
    out.store.bound = out.load.bound = (bytes + per - 1) / per;
    out.lower_bound = cs_add(out.store.bound, out.load.bound);
    out.bound_argument = "a wavefront serves at most one " + std::to_string(g.bank_bytes) + "-byte cell in each of " +
                         std::to_string(g.banks) + " banks (" + std::to_string(per) + " bytes), and the store and the "
                         "load each move all " + std::to_string(bytes) + " bytes of the tile: at least " +
                         std::to_string(out.store.bound) + " wavefronts each, whatever the layout and the instructions";
  } else out.bound_argument = "no bound: the model's cells are not bank-byte words";
  if (out.lower_bound && *out.lower_bound > out.total)
    throw std::logic_error("bug: the suggestion costs " + std::to_string(out.total) + " wavefronts, below its bound");
  out.optimal = out.lower_bound && *out.lower_bound == out.total;
  out.verdict = out.optimal ? "optimal: " + std::to_string(out.total) +
                                  " wavefronts, the lower bound over every layout and every instruction"
                            : "best found: " + std::to_string(out.total) + " wavefronts; lower bound " +
                                  (out.lower_bound ? std::to_string(*out.lower_bound) : std::string("unknown")) +
                                  " (not met: no proof that another layout or instruction does better)" +
                                  (ideal == out.total ? "; conflict-free for the chosen instructions (their ideal)"
                                                      : "; the chosen instructions' ideal is " + std::to_string(ideal));
}

void cs_paste(ConversionSuggestion& out, const ConversionSpec& s) {
  if (out.best.cute) {
    TileAccesses t;
    t.rows = s.rows, t.cols = s.cols, t.element = s.element;
    const LayoutPaste p = paste_of(*out.best.cute, t);
    out.paste_cute = p.cute, out.paste_triton = p.triton, out.paste_cpp = p.cpp;
    return;
  }
  const LinearSharedLayout& l = *out.best.linear;
  std::string bases = l.text().substr(std::string("offset=").size());
  out.paste_cute = "none: a linear layout that CuTe's Swizzle does not express (the C++ expression below is the layout)";
  out.paste_triton = "SharedLinearLayout(offset_bases=" + bases + ")";
  out.paste_cpp = "(" + l.cpp() + ") * " + std::to_string(s.element.bytes);
}

/// The coordinate at each element offset 2^i, where those bases give every element's address; else none (padding).
std::optional<LinearSharedLayout> cs_linear_form(const TileAddresses& a, unsigned e) {
  const std::uint64_t n = a.rows * a.cols;
  if (!std::has_single_bit(a.rows) || !std::has_single_bit(a.cols)) return std::nullopt;
  std::vector<layout::TileCoord> bases;
  for (std::uint64_t bit = 1; bit < n; bit <<= 1) {
    const auto it = std::find(a.byte.begin(), a.byte.end(), bit * e);
    if (it == a.byte.end()) return std::nullopt;
    const auto i = static_cast<std::uint64_t>(it - a.byte.begin());
    bases.push_back(layout::TileCoord{i / a.cols, i % a.cols});
  }
  try {
    LinearSharedLayout l = linear_layout_of(a.rows, a.cols, bases);
    for (std::uint64_t i = 0; i < n; ++i)
      if (l.offset(i / a.cols, i % a.cols) * e != a.byte[i]) return std::nullopt;
    return l;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace

std::string ConversionLayout::text() const { return linear ? linear->text() : cute->text(); }

unsigned ConversionLayout::simplicity() const { return linear ? 16 : cute->simplicity(); }

TileAddresses ConversionLayout::addresses(const layout::ElementType& e) const {
  TileAddresses out;
  if (linear) {
    out.rows = linear->rows, out.cols = linear->cols;
    out.byte.resize(out.rows * out.cols);
    for (std::uint64_t r = 0; r < out.rows; ++r)
      for (std::uint64_t c = 0; c < out.cols; ++c) out.byte[r * out.cols + c] = linear->offset(r, c) * e.bytes;
    return out;
  }
  out.rows = cute->layout.layout.mode(0).size(), out.cols = cute->layout.layout.mode(1).size();
  out.byte.resize(out.rows * out.cols);
  for (std::uint64_t r = 0; r < out.rows; ++r)
    for (std::uint64_t c = 0; c < out.cols; ++c)
      out.byte[r * out.cols + c] = cute->layout.byte_address(cute->layout.layout(r + c * out.rows), e.bytes, 0);
  return out;
}

ConversionSuggestion suggest_conversion(const ConversionSpec& s, const BankModel& model) {
  if (model.geometry().warp != layout::kLayoutWarp)
    throw std::invalid_argument("the conversion search walks 32-lane warps; the model has warp " +
                                std::to_string(model.geometry().warp));
  // A tile past the H100's 227 KiB of shared memory per block is no layout anyone can use.
  constexpr std::uint64_t kMaxTileBytes = 227 * 1024;
  if (s.rows * s.cols * s.element.bytes > kMaxTileBytes)
    throw std::invalid_argument("tile " + std::to_string(s.rows) + " x " + std::to_string(s.cols) + " of " + s.element.name +
                                " exceeds the 227 KiB (232448 bytes) of shared memory a block can have");
  std::vector<ConversionLayout> all = cs_cute_candidates(s);
  ConversionSuggestion out;
  out.cute_candidates = all.size();
  for (LinearSharedLayout& l : synthesize_linear_layouts(s.rows, s.cols, s.element, s.from, s.to, model.geometry()))
    all.push_back(ConversionLayout{std::nullopt, std::move(l)}), ++out.linear_candidates;
  std::optional<std::tuple<bool, std::uint64_t, std::uint64_t, std::uint64_t, unsigned, std::string>> key;
  CsEval best;
  for (const ConversionLayout& c : all) {
    ++out.candidates;
    CsEval e = cs_evaluate(c, s, model);
    if (!e.feasible()) continue;
    ++out.feasible;
    auto k = std::make_tuple(!cs_modelled(e), e.total, e.instructions, e.footprint, c.simplicity(), c.text());
    if (!key || k < *key) key = k, out.best = c, best = std::move(e);
  }
  if (!key) throw std::invalid_argument("no layout searched permits an instruction for both register layouts");
  if (!cs_modelled(best)) throw std::invalid_argument("the model has no rule for the instructions the registers permit");
  out.store = ConversionSide{best.stores[best.store], cs_permitted(best.stores), std::nullopt, 0};
  out.load = ConversionSide{best.loads[best.load], cs_permitted(best.loads), std::nullopt, 0};
  out.total = best.total, out.instructions = best.instructions, out.footprint = best.footprint;
  const CsEval before = cs_evaluate(all.front(), s, model);  // the plain row-major tile
  if (before.feasible()) {
    out.store.before = before.stores[before.store], out.load.before = before.loads[before.load];
    out.total_before = before.total;
  }
  cs_verdict(out, s, model);
  out.certificate.push_back("enumerated: every instruction of both sides planned from the registers on the layout and "
                            "costed by the " + model.name() + " model (the counts above)");
  out.certificate.push_back(cs_parse_back(out, s, model));
  cs_paste(out, s);
  out.linear_form = out.best.linear ? out.best.linear : cs_linear_form(out.best.addresses(s.element), s.element.bytes);
  return out;
}

}  // namespace bankcheck::proofs
