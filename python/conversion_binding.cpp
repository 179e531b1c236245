// The conversion suggestion (proofs/conversion_suggestion.hpp, docs/layout.md
// "Choosing the instructions"): two register layouts, a tile and its element
// type; the layout and the instructions of both sides, as
// `bankcheck layout --suggest --from --to --json` gives them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "model/bank_model.hpp"
#include "proofs/conversion_suggestion.hpp"
#include "python/bindings.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bankcheck::python {
namespace {

nb::dict side_of(const proofs::ConversionSide& s) {
  nb::dict d;
  d["instruction"] = s.chosen.choice.kind.name();
  d["choice"] = s.chosen.choice.text();
  d["inner_registers"] = s.chosen.choice.inner;
  d["trans_pair"] = s.chosen.choice.trans_pair < 0 ? nb::none() : nb::cast(s.chosen.choice.trans_pair);
  d["matrix_registers"] = s.chosen.choice.matrix;
  d["outer_registers"] = s.chosen.choice.outer;
  d["instructions"] = s.chosen.check.instructions;
  d["wavefronts"] = s.chosen.check.wavefronts;
  d["ideal"] = s.chosen.check.ideal;
  d["lower_bound"] = s.bound;
  d["permitted"] = s.permitted;
  return d;
}

}  // namespace

void bind_conversion(nb::module_& m) {
  m.def(
      "suggest_conversion",
      [](const std::string& src, const std::string& dst, const std::string& dtype, const std::string& tile,
         std::string_view model) {
        proofs::ConversionSpec spec;
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
        if (spec.rows == 0 || spec.cols == 0 || spec.rows * spec.cols > 999999)
          throw std::invalid_argument("tile: at most 999999 elements, each extent at least 1, got \"" + tile + "\"");
        spec.element = layout::parse_element_type(dtype);
        spec.from = layout::parse_register_layout(src, spec.rows, spec.cols);
        spec.to = layout::parse_register_layout(dst, spec.rows, spec.cols);
        const proofs::ConversionSuggestion s = proofs::suggest_conversion(spec, make_preset(model, layout::kLayoutWarp));
        nb::dict d;
        d["layout"] = s.best.text();
        d["offset_bases"] = s.linear_form ? nb::cast(s.linear_form->text()) : nb::none();
        d["store"] = side_of(s.store);
        d["load"] = side_of(s.load);
        d["wavefronts"] = s.total;
        d["wavefronts_before"] = s.total_before;
        d["instructions"] = s.instructions;
        d["shared_bytes"] = s.footprint;
        d["lower_bound"] = s.lower_bound ? nb::cast(*s.lower_bound) : nb::none();
        d["optimal"] = s.optimal;
        d["verdict"] = s.verdict;
        d["cute"] = s.paste_cute;
        d["triton"] = s.paste_triton;
        d["cpp"] = s.paste_cpp;
        d["certificate"] = s.certificate;
        return d;
      },
      "src"_a, "dst"_a, "dtype"_a, "tile"_a, "model"_a = "sm90",
      "The shared layout and the instructions of both sides for a tile moved from the register layout src to dst "
      "(docs/layout.md, \"Choosing the instructions\"): register layouts as `bankcheck layout --from` takes them "
      "(\"register=[[0,1],...] lane=[...] warp=[...]\"), tile=\"ROWSxCOLS\". Returns a dict: layout, offset_bases, "
      "store and load (instruction, registers, wavefronts, permitted), wavefronts, lower_bound, optimal, verdict, "
      "cute, triton, cpp, certificate.");
}

}  // namespace bankcheck::python
