#include "proofs/layout_suggestion.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "proofs/layout_symbolic.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/xor_map_search.hpp"
#include "proofs/xor_synthesis.hpp"
#include "sim/layout/layout_parser.hpp"

namespace bankcheck::proofs {
namespace {

using Family = LayoutCandidate::Family;

[[noreturn]] void bad_access(std::string_view text, const std::string& why) {
  throw std::invalid_argument("access '" + std::string(text) + "': " + why + "; expected " +
                              std::string(kSuggestAccessNames));
}

LayoutCandidate plain(const TileAccesses& t, bool row_major, std::uint64_t pad = 0) {
  LayoutCandidate c;
  c.family = pad == 0 ? Family::plain : Family::padded;
  c.row_major = row_major;
  c.pad = pad;
  c.layout.layout = plain_layout(t.rows, t.cols, row_major, pad);
  return c;
}

std::vector<LayoutCandidate> swizzle_candidates(const TileAccesses& t, std::string& notes) {
  std::vector<LayoutCandidate> out;
  const std::uint64_t n = t.rows * t.cols;
  if (!nt::is_power_of_two(n)) {
    notes += "no CuTe swizzles or XOR maps: the tile's size is not a power of two; ";
    return out;
  }
  const unsigned shift = nt::log2_floor(t.element.bytes);
  for (bool row_major : {true, false})
    for (layout::SwizzleUnit unit : {layout::SwizzleUnit::element, layout::SwizzleUnit::byte}) {
      const bool bytes = unit == layout::SwizzleUnit::byte;
      if (bytes && row_major) notes += "byte swizzles equal to element swizzles at this base costed once; ";
      for (const layout::Swizzle& sw : swizzles_within(nt::log2_floor(n) + (bytes ? shift : 0))) {
        if (bytes && sw.base < static_cast<int>(shift)) continue;  // it would split an element
        // On a base aligned past its bits, a byte swizzle is the element swizzle Sw<B,M-log2(bytes),S>: cost it once.
        const std::uint64_t top = std::uint64_t{1} << (sw.base + std::abs(sw.shift) + sw.bits);
        if (bytes && (t.base & (top - 1)) == 0) continue;
        LayoutCandidate c = plain(t, row_major);
        c.family = Family::cute_swizzle;
        c.layout.swizzle = sw;
        c.layout.unit = unit;
        if (bytes) c.layout.pointer_bits = t.element.bytes * 8;
        out.push_back(std::move(c));
      }
    }
  return out;
}

/// CuTe's K-major atoms of `mode` (1 32B, 2 64B, 3 128B) tiled over the tile, or none where they do not fit.
std::optional<LayoutCandidate> atom_candidate(const TileAccesses& t, int mode) {
  if (mode == 0) return plain(t, true);
  const std::uint64_t span = std::uint64_t{16} << mode, row_bytes = t.cols * t.element.bytes;
  if (row_bytes % span != 0 || t.rows % 8 != 0 || span % t.element.bytes != 0) return std::nullopt;
  LayoutCandidate c = plain(t, true);
  c.family = Family::tma_atom;
  c.atom_mode = mode;
  const auto w = static_cast<std::int64_t>(span / t.element.bytes), r = static_cast<std::int64_t>(t.rows);
  if (row_bytes != span) {
    using layout::IntTuple;
    const IntTuple shape{0, {IntTuple{r, {}}, IntTuple{0, {IntTuple{w, {}}, IntTuple{static_cast<std::int64_t>(row_bytes / span), {}}}}}};
    const IntTuple stride{0, {IntTuple{w, {}}, IntTuple{0, {IntTuple{1, {}}, IntTuple{r * w, {}}}}}};
    c.layout.layout = layout::CuteLayout(shape, stride);
  }
  c.layout.swizzle = layout::Swizzle{mode, 4, 3};
  c.layout.unit = layout::SwizzleUnit::byte;
  c.layout.pointer_bits = t.element.bytes * 8;
  return c;
}

struct Resolved {
  TileAccesses tile;
  std::optional<LayoutCandidate> given;
  unsigned modes = 0xF;
  bool constrained = false;
  std::vector<SuggestRow> constraint_rows;
};

/// Fix each access's vector mode on the layout in use (else row-, else column-major).
void resolve_along(Resolved& r) {
  for (std::size_t i = 0; i < r.tile.accesses.size(); ++i) {
    CostedAccess& a = r.tile.accesses[i];
    if (a.along) continue;
    std::string why;
    for (const LayoutCandidate& ref : {r.given.value_or(plain(r.tile, true)), plain(r.tile, true), plain(r.tile, false)}) {
      try {
        a.along = plan_candidate(ref, r.tile, i).along;
        break;
      } catch (const std::invalid_argument& e) {
        if (why.empty()) why = e.what();
      }
    }
    if (!a.along) throw std::invalid_argument(a.text + ": no layout of the tile serves it: " + why);
  }
}

Resolved resolve(const SuggestSpec& spec) {
  Resolved r;
  r.tile.element = spec.element;
  r.tile.base = spec.base;
  if (spec.given) {
    if (spec.given->layout.rank() != 2)
      throw std::invalid_argument("--suggest takes a tile of rank 2 (rows, columns); " + spec.given->layout.text() +
                                  " has rank " + std::to_string(spec.given->layout.rank()));
    r.tile.rows = spec.given->layout.mode(0).size();
    r.tile.cols = spec.given->layout.mode(1).size();
    if (spec.given->pointer_address) r.tile.base = *spec.given->pointer_address;
    LayoutCandidate g;
    g.family = Family::given;
    g.layout = *spec.given;
    r.given = g;
  } else {
    r.tile.rows = spec.rows, r.tile.cols = spec.cols;
    r.given = plain(r.tile, true);  // without a layout in use, "before" is the tile row-major
    r.given->family = Family::given;
  }
  if (r.tile.rows == 0 || r.tile.cols == 0) throw std::invalid_argument("--suggest needs a tile: a layout or --tile RxC");
  // A tile past the H100's 227 KiB of shared memory per block is no layout anyone can use.
  constexpr std::uint64_t kMaxTileBytes = 227 * 1024;
  if (r.tile.rows > kMaxTileBytes || r.tile.cols > kMaxTileBytes ||
      r.tile.rows * r.tile.cols * r.tile.element.bytes > kMaxTileBytes)
    throw std::invalid_argument("tile " + std::to_string(r.tile.rows) + " x " + std::to_string(r.tile.cols) + " of " +
                                r.tile.element.name + " exceeds the 227 KiB (232448 bytes) of shared memory a block can have");
  static const char* mode_names[] = {"none", "32B", "64B", "128B"};
  for (const SuggestAccess& a : spec.accesses) {
    if (a.role == SuggestAccess::Role::costed) {
      r.tile.accesses.push_back(a.costed);
      continue;
    }
    r.constrained = true;
    r.modes &= a.modes;
    SuggestRow row;
    row.access = a.text;
    row.costed = false;
    std::string admits;
    for (int m = 0; m < 4; ++m)
      if ((a.modes >> m) & 1) admits += (admits.empty() ? "" : ", ") + std::string(mode_names[m]);
    row.note = "constraint: swizzle " + admits + (a.role == SuggestAccess::Role::tma
                   ? "; not costed: the model has no bank rule for TMA writes"
                   : "; not costed: the H100 counts every wgmma at its ideal whatever the layout (rule 8)");
    r.constraint_rows.push_back(row);
  }
  if (r.tile.accesses.empty()) throw std::invalid_argument("--suggest needs at least one costed access (ld, st, ldmatrix, ...)");
  resolve_along(r);
  return r;
}


std::vector<LayoutCandidate> candidates(const Resolved& r, const BankModel& model, SuggestSearched& searched) {
  std::vector<LayoutCandidate> out;
  const TileAccesses& t = r.tile;
  if (r.constrained) {
    for (int m = 0; m < 4; ++m)
      if ((r.modes >> m) & 1)
        if (auto c = atom_candidate(t, m)) out.push_back(std::move(*c)), ++searched.atoms;
    if (out.empty())
      throw std::invalid_argument("no layout the TMA box / wgmma operand admit fits the tile: a swizzled atom needs rows "
                                  "in multiples of 8 and rows of a multiple of the swizzle's width (32, 64, 128 bytes)");
    searched.notes += "only the layouts the TMA box / wgmma operand admit (K-major atoms, rows of the swizzle's width); ";
    return out;
  }
  for (bool row_major : {true, false}) {
    out.push_back(plain(t, row_major)), ++searched.plain;
    for (std::uint64_t pad = 1; pad * t.element.bytes <= 128; pad *= 2) out.push_back(plain(t, row_major, pad)), ++searched.padded;
  }
  for (LayoutCandidate& c : swizzle_candidates(t, searched.notes)) out.push_back(std::move(c)), ++searched.swizzles;
  if (!nt::is_power_of_two(t.rows * t.cols)) return out;
  for (bool row_major : {true, false}) {
    XorSynthesis x = synthesize_xor_maps(plain(t, row_major), t, model);
    searched.xor_evaluations += x.evaluations;
    if (!x.skipped.empty() && row_major) searched.notes += x.skipped + "; ";
    for (LayoutCandidate& c : x.candidates) out.push_back(std::move(c)), ++searched.xor_maps;
  }
  return out;
}

/// The weighted lower bound, on the plain layout that keeps the widest access's vectors whole.
std::optional<std::uint64_t> lower_bound(const TileAccesses& t, const BankModel& model, std::vector<SuggestRow>& rows) {
  std::size_t widest = 0;
  for (std::size_t i = 1; i < t.accesses.size(); ++i)
    if (t.accesses[i].kind.bytes > t.accesses[widest].kind.bytes) widest = i;
  const unsigned pinned = std::max(t.element.bytes, t.accesses[widest].kind.bytes);
  const LayoutCandidate ref = plain(t, *t.accesses[widest].along == 1);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    try {
      rows[i].bound = access_lower_bound(layout::check_layout(plan_candidate(ref, t, i), model), pinned, model.geometry());
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    total += t.accesses[i].weight * rows[i].bound.wavefronts;
  }
  return total;
}

/// The suggestion's proofs: its printed layout parsed back and costed again,
/// and the symbolic degree per access, each held to the enumeration.
std::vector<std::string> certify(const LayoutCandidate& best, const CandidateCost& cost, const TileAccesses& t,
                                 const BankModel& model, std::vector<SuggestRow>& rows) {
  std::vector<std::string> lines;
  lines.push_back("enumerated: every instruction of every access planned on the layout and costed by the " +
                  model.name() + " model (the counts above)");
  if (best.family != Family::xor_map) {
    const layout::SharedLayout parsed = layout::parse_shared_layout(best.layout.text());
    for (std::size_t i = 0; i < t.accesses.size(); ++i) {
      const CostedAccess& a = t.accesses[i];
      const auto k = layout::check_layout(layout::plan_layout_access(parsed, t.element, a.kind, a.along, t.base), model);
      if (k.wavefronts != cost.checks[i].wavefronts)
        throw std::logic_error("bug: the printed layout costs " + std::to_string(k.wavefronts) + " wavefronts for " +
                               a.text + ", the search claimed " + std::to_string(cost.checks[i].wavefronts));
    }
    lines.push_back("parsed back: \"" + best.layout.text() + "\" gives the same wavefronts for every access");
  }
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    LayoutCandidate unmapped = best;
    unmapped.map = {};
    const layout::LayoutAccess plan = plan_candidate(unmapped, t, i);
    LayoutLinearMap lin = derive_layout_linear_map(plan, t.base);
    if (lin.status == LayoutLinearMap::Status::linear && !best.map.is_identity()) {
      lin.constant = t.base ^ best.map.apply(lin.constant ^ t.base);
      for (AddressBit& b : lin.bits) b.column = best.map.apply(b.column);
    }
    const LayoutSymbolic proof = prove_layout_degree(plan, lin, model);
    const std::string disagreement = symbolic_disagreement(proof, cost.checks[i]);
    if (!disagreement.empty()) throw std::logic_error("bug: symbolic proof and enumeration differ for " + t.accesses[i].text + ": " + disagreement);
    rows[i].symbolic = proof.text();
  }
  return lines;
}

}  // namespace

SuggestAccess parse_suggest_access(std::string_view text) {
  SuggestAccess a;
  a.text = std::string(text);
  const std::size_t comma = text.find(',');
  const std::string_view kind = text.substr(0, comma);
  if (kind == "tma" || kind.substr(0, 4) == "tma." || kind == "wgmma") {
    if (comma != std::string_view::npos) bad_access(text, "tma and wgmma take no options");
    a.role = kind == "wgmma" ? SuggestAccess::Role::wgmma : SuggestAccess::Role::tma;
    static const std::string_view modes[] = {"tma.none", "tma.32B", "tma.64B", "tma.128B"};
    for (unsigned m = 0; m < 4; ++m)
      if (kind == modes[m]) a.modes = 1u << m;
    if (kind.substr(0, 4) == "tma." && a.modes == 0xF) bad_access(text, "a TMA swizzle mode is none, 32B, 64B or 128B");
    return a;
  }
  a.costed.kind = layout::parse_access_kind(kind);
  a.costed.text = a.text;
  for (std::size_t at = comma; at != std::string_view::npos;) {
    const std::size_t next = text.find(',', at + 1);
    const std::string_view opt = text.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
    if (opt == "along=0" || opt == "along=1") a.costed.along = static_cast<unsigned>(opt.back() - '0');
    else if (opt.substr(0, 7) == "weight=") {
      const std::string n(opt.substr(7));
      if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos || std::stoull(n) == 0)
        bad_access(text, "weight is an integer from 1 to 999999999");
      a.costed.weight = std::stoull(n);
    } else bad_access(text, "unknown option '" + std::string(opt) + "'");
    at = next;
  }
  return a;
}

LayoutSuggestion suggest_layout(const SuggestSpec& spec, const BankModel& model) {
  const Resolved r = resolve(spec);
  LayoutSuggestion out;
  out.tile = r.tile;
  const TileAccesses& t = out.tile;
  std::optional<std::tuple<std::uint64_t, std::uint64_t, unsigned, bool, std::string>> key;
  CandidateCost best_cost;
  std::string first_why;
  for (const LayoutCandidate& c : candidates(r, model, out.searched)) {
    ++out.searched.candidates;
    CandidateCost k = cost_candidate(c, t, model);
    if (!k.feasible) {
      if (c.family == Family::plain || c.family == Family::tma_atom) first_why += (first_why.empty() ? "" : "; ") + c.text() + ": " + k.why;
      continue;
    }
    ++out.searched.feasible;
    auto ck = std::make_tuple(k.weighted, k.footprint, c.simplicity(), !c.row_major, c.text());
    if (!key || ck < *key) key = ck, out.best = c, best_cost = std::move(k);
  }
  if (!key) throw std::invalid_argument("no layout searched serves every access (" + first_why + ")");
  out.total = best_cost.weighted;
  out.footprint = best_cost.footprint;
  out.rows.resize(t.accesses.size());
  for (std::size_t i = 0; i < t.accesses.size(); ++i) {
    out.rows[i].access = t.accesses[i].text;
    out.rows[i].weight = t.accesses[i].weight;
    out.rows[i].after = best_cost.checks[i];
  }
  if (r.given) {
    out.before = r.given;
    const CandidateCost b = cost_candidate(*r.given, t, model);
    if (b.feasible) {
      out.total_before = b.weighted;
      out.footprint_before = b.footprint;
      for (std::size_t i = 0; i < t.accesses.size(); ++i) out.rows[i].before = b.checks[i];
    }
  }
  out.lower_bound = lower_bound(t, model, out.rows);
  if (out.lower_bound && *out.lower_bound > out.total)
    throw std::logic_error("bug: the suggestion costs " + std::to_string(out.total) + " wavefronts, below its lower bound " +
                           std::to_string(*out.lower_bound));
  out.certificate = certify(out.best, best_cost, t, model, out.rows);
  for (SuggestRow& row : std::vector<SuggestRow>(r.constraint_rows)) out.rows.push_back(row);
  const bool meets = out.lower_bound && *out.lower_bound == out.total;
  out.optimal = meets || r.constrained;
  std::uint64_t ideal = 0;
  for (std::size_t i = 0; i < t.accesses.size(); ++i) ideal += t.accesses[i].weight * best_cost.checks[i].ideal;
  const std::string none_free = out.lower_bound && *out.lower_bound > ideal
                                    ? "; no conflict-free layout exists: the bound exceeds the ideal " + std::to_string(ideal)
                                    : "";
  out.verdict = meets ? "optimal: " + std::to_string(out.total) + " wavefronts, the lower bound" + none_free
                : r.constrained ? "optimal among the " + std::to_string(out.searched.feasible) +
                                      (out.searched.feasible == 1 ? " layout" : " layouts") +
                                      " the TMA box / wgmma operand admit (all costed): " + std::to_string(out.total) + " wavefronts"
                : "best found: " + std::to_string(out.total) + " wavefronts; lower bound " +
                      (out.lower_bound ? std::to_string(*out.lower_bound) : std::string("unknown")) +
                      " (not met: no proof that a layout outside the search does better)";
  out.paste = paste_of(out.best, t);
  return out;
}

}  // namespace bankcheck::proofs
