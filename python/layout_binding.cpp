// The layout checker (sim/layout/layout_check.hpp, docs/layout.md): a CuTe
// layout, an element type and an access kind, every warp instruction that
// covers the tile costed by the model; the report as rows and dicts.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>

#include "model/bank_model.hpp"
#include "python/bindings.hpp"
#include "sim/layout/layout_check.hpp"
#include "sim/layout/layout_explanation.hpp"
#include "sim/replay/replay.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bankcheck::python {
namespace {

struct LayoutReport {
  layout::LayoutCheck check;
  BankModel model;
};

nb::object cost_or_none(bool modelled, std::uint64_t value) { return modelled ? nb::cast(value) : nb::none(); }

nb::list rows_of(const LayoutReport& r) {
  nb::list rows;
  for (std::size_t i = 0; i < r.check.access.instructions.size(); ++i) {
    const layout::LayoutInstruction& ins = r.check.access.instructions[i];
    const RequestCost& c = r.check.costs[i];
    nb::dict row;
    row["index"] = i;
    row["site"] = ins.site;
    row["tile"] = ins.tile;
    row["op"] = std::string(op_name(ins.op));
    row["width"] = ins.width;
    row["active"] = active_lanes(ins.request());
    row["wavefronts"] = cost_or_none(c.modelled, c.wavefronts);
    row["ideal"] = cost_or_none(c.modelled, c.ideal);
    row["conflicts"] = cost_or_none(c.modelled, c.conflicts());
    row["degree"] = cost_or_none(c.modelled, c.degree);
    row["modelled"] = c.modelled;
    rows.append(row);
  }
  return rows;
}

nb::dict totals_of(const layout::LayoutCheck& c) {
  nb::dict d;
  d["instructions"] = c.instructions;
  d["not_modelled"] = c.not_modelled;
  d["wavefronts"] = c.wavefronts;
  d["ideal"] = c.ideal;
  d["conflicts"] = c.conflicts;
  d["worst_degree"] = c.worst_degree;
  return d;
}

/// The worst instruction, its bank and lanes (the model's culprit) and the words that explain them.
nb::object worst_of(const LayoutReport& r) {
  if (!r.check.worst) return nb::none();
  const std::size_t i = *r.check.worst;
  const layout::LayoutInstruction& ins = r.check.access.instructions[i];
  const ConflictCulprit culprit = r.model.culprit(ins.request());
  nb::dict d;
  d["index"] = i;
  d["site"] = ins.site;
  d["wavefronts"] = r.check.costs[i].wavefronts;
  d["conflicts"] = r.check.costs[i].conflicts();
  d["degree"] = r.check.costs[i].degree;
  d["bank"] = culprit.lanes.empty() ? nb::none() : nb::cast(culprit.bank);
  d["lanes"] = culprit.lanes;
  d["explanation"] = culprit.lanes.empty() ? std::vector<std::string>{}
                                           : layout::explain_conflict(r.check.access, r.model.geometry(), i,
                                                                      culprit.lanes, culprit.bank);
  return d;
}

/// What was checked, the totals and the worst conflict, as lines (an assertion's message).
std::string explanation_of(const LayoutReport& r) {
  std::string text;
  for (const std::string& line : layout::describe_access(r.check.access)) text += line + "\n";
  text += "model  " + r.model.describe() + "\n";
  const auto& c = r.check;
  text += std::to_string(c.instructions) + " instructions, " + std::to_string(c.wavefronts) + " wavefronts, " +
          std::to_string(c.conflicts) + " conflicts" +
          (c.not_modelled ? ", " + std::to_string(c.not_modelled) + " not modelled" : std::string()) + "\n";
  const nb::object worst = worst_of(r);
  if (!worst.is_none())
    for (const auto& line : nb::cast<std::vector<std::string>>(worst["explanation"])) text += line + "\n";
  return text;
}

}  // namespace

void bind_layout(nb::module_& m) {
  nb::class_<LayoutReport>(m, "LayoutReport", "The bank conflicts of a shared layout under one access kind.")
      .def_prop_ro("conflict_free", [](const LayoutReport& r) { return r.check.conflict_free(); },
                   "No conflict and every instruction modelled.")
      .def_prop_ro("rows", &rows_of, "One dict per warp instruction (costs None where not modelled).")
      .def_prop_ro("totals", [](const LayoutReport& r) { return totals_of(r.check); })
      .def_prop_ro("worst", &worst_of,
                   "The first instruction of the worst degree (>= 2): bank, lanes and the explanation; None if none.")
      .def_prop_ro("explanation", &explanation_of, "What was checked, the totals and the worst conflict, as text.")
      .def_prop_ro("along", [](const LayoutReport& r) { return r.check.access.along; }, "The vector mode (0 or 1).")
      .def("__repr__", [](const LayoutReport& r) {
        return "LayoutReport(instructions=" + std::to_string(r.check.instructions) +
               ", wavefronts=" + std::to_string(r.check.wavefronts) +
               ", conflicts=" + std::to_string(r.check.conflicts) +
               ", conflict_free=" + (r.check.conflict_free() ? "True" : "False") + ")";
      });

  m.def(
      "layout",
      [](const std::string& layout_text, const std::string& dtype, const std::string& access, std::string_view model,
         std::optional<unsigned> along, std::uint64_t base) {
        layout::LayoutAccessSpec spec;
        spec.layout = layout_text;
        spec.element = dtype;
        spec.access = access;
        spec.along = along;
        spec.base = base;
        BankModel bank_model = make_preset(model, layout::kLayoutWarp);
        layout::LayoutCheck check = layout::check_layout(spec, bank_model);
        return LayoutReport{std::move(check), std::move(bank_model)};
      },
      "layout"_a, "dtype"_a, "access"_a, "model"_a = "sm90", "along"_a = nb::none(), "base"_a = 0,
      "Check a CuTe layout (as cute::print writes it, e.g. \"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)\") with an element "
      "type (fp16, bf16, tf32, ...; \"\" takes smem_ptr[Nb]'s) and an access (ld.128, ldmatrix.x4[.trans], "
      "stmatrix.x4, cp.async.16, ...; docs/layout.md). along: the vector mode (None: columns, else rows); base: the "
      "tile's byte address.");
}

}  // namespace bankcheck::python
