// The layout suggestion (proofs/layout_suggestion.hpp, docs/layout.md
// "Suggesting a layout"): a tile, its element type and every access that
// touches it; the layout with the fewest wavefronts, its verdict, per-access
// rows and the forms to paste, as `bankcheck layout --suggest --json` gives them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "proofs/layout_suggestion.hpp"
#include "python/bindings.hpp"
#include "sim/layout/layout_parser.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bankcheck::python {
namespace {

/// "64x64" -> rows, cols.
void parse_tile(const std::string& tile, proofs::SuggestSpec& spec) {
  const std::size_t x = tile.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument("no x");
    std::size_t used = 0;
    spec.rows = std::stoull(tile.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("rows");
    spec.cols = std::stoull(tile.substr(x + 1), &used);
    if (used != tile.size() - x - 1) throw std::invalid_argument("cols");
  } catch (const std::exception&) {
    throw std::invalid_argument("tile: expected \"ROWSxCOLS\" (e.g. \"64x64\"), got \"" + tile + "\"");
  }
  if (spec.rows == 0 || spec.cols == 0 || spec.rows > 999999 || spec.cols > 999999)
    throw std::invalid_argument("tile: each extent 1..999999, got \"" + tile + "\"");
}

nb::object check_of(const std::optional<layout::LayoutCheck>& k) {
  if (!k) return nb::none();
  const bool m = k->not_modelled == 0;
  nb::dict d;
  d["instructions"] = k->instructions;
  d["wavefronts"] = m ? nb::cast(k->wavefronts) : nb::none();
  d["ideal"] = m ? nb::cast(k->ideal) : nb::none();
  d["conflicts"] = m ? nb::cast(k->conflicts) : nb::none();
  d["modelled"] = m;
  return d;
}

nb::dict suggestion_of(const proofs::LayoutSuggestion& s) {
  nb::dict d;
  d["before"] = s.before ? nb::cast(s.before->text()) : nb::none();
  d["layout"] = s.best.text();
  d["family"] = std::string(proofs::LayoutCandidate::family_name(s.best.family));
  d["wavefronts"] = s.total;
  d["wavefronts_before"] = s.total_before ? nb::cast(*s.total_before) : nb::none();
  d["shared_bytes"] = s.footprint;
  d["lower_bound"] = s.lower_bound ? nb::cast(*s.lower_bound) : nb::none();
  d["optimal"] = s.optimal;
  d["verdict"] = s.verdict;
  nb::list rows;
  for (const auto& r : s.rows) {
    nb::dict row;
    row["access"] = r.access;
    row["weight"] = r.weight;
    row["costed"] = r.costed;
    row["before"] = check_of(r.before);
    row["after"] = check_of(r.after);
    row["lower_bound"] = r.costed ? nb::cast(r.bound.wavefronts) : nb::none();
    row["symbolic"] = r.costed ? nb::cast(r.symbolic) : nb::none();
    rows.append(row);
  }
  d["accesses"] = rows;
  d["cute"] = s.paste.cute;
  d["triton"] = s.paste.triton;
  d["cpp"] = s.paste.cpp;
  d["certificate"] = s.certificate;
  return d;
}

}  // namespace

void bind_suggest(nb::module_& m) {
  m.def(
      "suggest",
      [](const std::vector<std::string>& accesses, const std::string& dtype, std::optional<std::string> layout_text,
         std::optional<std::string> tile, std::uint64_t base, std::string_view model) {
        if (layout_text.has_value() == tile.has_value())
          throw std::invalid_argument("suggest takes the layout in use or tile=\"ROWSxCOLS\", one of them");
        if (accesses.empty()) throw std::invalid_argument("suggest needs at least one access");
        proofs::SuggestSpec spec;
        if (layout_text) spec.given = layout::parse_shared_layout(*layout_text);
        else parse_tile(*tile, spec);
        if (!dtype.empty()) spec.element = layout::parse_element_type(dtype);
        else if (spec.given && spec.given->pointer_bits) spec.element = layout::element_type_of_bits(*spec.given->pointer_bits);
        else throw std::invalid_argument("dtype: needed unless the layout has smem_ptr[Nb]");
        spec.base = base;
        for (const std::string& a : accesses) spec.accesses.push_back(proofs::parse_suggest_access(a));
        const BankModel bank_model = make_preset(model, layout::kLayoutWarp);
        return suggestion_of(proofs::suggest_layout(spec, bank_model));
      },
      "accesses"_a, "dtype"_a, "layout"_a = nb::none(), "tile"_a = nb::none(), "base"_a = 0, "model"_a = "sm90",
      "The layout of a tile with the fewest wavefronts over every access that touches it (docs/layout.md, "
      "\"Suggesting a layout\"): accesses as `bankcheck layout --suggest --access` takes them (\"st.32\", "
      "\"ld.32,along=0,weight=2\", \"ldmatrix.x4.trans\", \"tma.128B\", ...), the tile as the layout in use "
      "(layout=, also the 'before') or tile=\"ROWSxCOLS\". Returns a dict: layout, verdict, optimal, wavefronts, "
      "lower_bound, accesses (before/after per access), cute, triton, cpp, certificate.");
}

}  // namespace bankcheck::python
