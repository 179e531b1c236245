// The bank model: presets, and the cost of one warp request given as
// per-lane byte addresses (None for an idle lane).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "python/bindings.hpp"
#include "sim/trace/request_input.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bankcheck::python {
namespace {

using Lanes = std::vector<std::optional<std::uint64_t>>;

/// A request built from Python lists, owning the addresses its spans view.
struct PyRequest {
  std::vector<std::uint64_t> addr, source;
  WarpRequest request;

  PyRequest(const BankModel& model, const Lanes& addresses, unsigned width, std::string_view op,
            const std::optional<Lanes>& sources) {
    auto unpack = [](const Lanes& lanes) {
      std::vector<std::uint64_t> out;
      out.reserve(lanes.size());
      for (const auto& a : lanes) out.push_back(a ? *a : kInactive);
      return out;
    };
    addr = unpack(addresses);
    if (sources) source = unpack(*sources);
    request = WarpRequest{parse_op(op), width, addr, source};
    check_request(request, model.geometry().warp);
  }
};

constexpr const char* kRequestDoc =
    "addresses: one byte address per lane (the model's warp size of them), None for an idle lane; "
    "width: bytes per lane; op: the trace token (ld, st, atom, ldsm, stsm, cpasync, cpasync.cg, ...; "
    "docs/trace-format.md); sources: a copy's global source per lane (ZERO_FILL for a lane that reads nothing).";

RequestCost cost_of(const BankModel& model, const Lanes& addresses, unsigned width, std::string_view op,
                    const std::optional<Lanes>& sources) {
  const PyRequest r(model, addresses, width, op, sources);
  const RequestCost cost = model.cost(r.request);
  if (!cost.modelled)
    throw NotModelled(model.name() + " has no rule for " + std::string(op_name(r.request.op)) + " " +
                      std::to_string(width) + " here: not modelled (docs/bank-model.md)");
  return cost;
}

void bind_cost(nb::module_& m) {
  nb::class_<RequestCost>(m, "Cost", "What one warp request costs (wavefronts == ideal + conflicts).")
      .def_ro("wavefronts", &RequestCost::wavefronts, "serialized passes of the banks")
      .def_ro("ideal", &RequestCost::ideal, "passes the request needs with no bank conflict")
      .def_prop_ro("conflicts", &RequestCost::conflicts, "wavefronts - ideal, as Nsight Compute counts them")
      .def_ro("degree", &RequestCost::degree, "k of the worst k-way conflict in one phase (1: none)")
      .def("__repr__", [](const RequestCost& c) {
        return "Cost(wavefronts=" + std::to_string(c.wavefronts) + ", ideal=" + std::to_string(c.ideal) +
               ", conflicts=" + std::to_string(c.conflicts()) + ", degree=" + std::to_string(c.degree) + ")";
      });
}

void bind_bank_model(nb::module_& m) {
  nb::class_<BankModel>(m, "Model", "A bank model (docs/bank-model.md).")
      .def(nb::new_([](std::string_view preset, unsigned warp, unsigned banks) {
             return make_preset(preset, warp, banks);
           }),
           "preset"_a = "sm90", "warp"_a = 32, "banks"_a = 0,
           "A preset by name (presets()); banks sets the DMM's bank count (0: the warp size).")
      .def_static("custom", &make_custom, "banks"_a, "bank_bytes"_a, "warp"_a,
                  "A custom model: any banks >= 1, bank_bytes in 1, 2, 4, 8, 16, warp >= 1.")
      .def_prop_ro("name", &BankModel::name)
      .def_prop_ro("banks", [](const BankModel& b) { return b.geometry().banks; })
      .def_prop_ro("bank_bytes", [](const BankModel& b) { return b.geometry().bank_bytes; })
      .def_prop_ro("warp", [](const BankModel& b) { return b.geometry().warp; })
      .def("describe", &BankModel::describe, "One line: the preset and its assumptions.")
      .def("models", [](const BankModel& b, std::string_view op, unsigned width) { return b.models(parse_op(op), width); },
           "op"_a, "width"_a, "Whether requests of this op and width are costed.")
      .def("cost", &cost_of, "addresses"_a, "width"_a = 4, "op"_a = "ld", "sources"_a = nb::none(),
           (std::string("The cost of one warp request; raises NotModelledError where the model has no rule. ") +
            kRequestDoc)
               .c_str())
      .def(
          "culprit",
          [](const BankModel& b, const Lanes& addresses, unsigned width, std::string_view op,
             const std::optional<Lanes>& sources) {
            const PyRequest r(b, addresses, width, op, sources);
            const ConflictCulprit c = b.culprit(r.request);
            nb::dict d;
            d["bank"] = c.bank;
            d["lanes"] = c.lanes;
            d["cells"] = c.cells;
            d["unit"] = c.unit == ConflictCulprit::Unit::cells ? "cells" : "lanes";
            return d;
          },
          "addresses"_a, "width"_a = 4, "op"_a = "ld", "sources"_a = nb::none(),
          "The bank and lanes of the worst conflict (lanes empty when there is none).")
      .def(
          "bank_words",
          [](const BankModel& b, const Lanes& addresses, unsigned width, std::string_view op) {
            return b.bank_words(PyRequest(b, addresses, width, op, std::nullopt).request);
          },
          "addresses"_a, "width"_a = 4, "op"_a = "ld",
          "Per bank, the distinct words it serves, summed over the request's phases.")
      .def("__repr__", [](const BankModel& b) { return "Model('" + b.name() + "')"; });
}

}  // namespace

void bind_model(nb::module_& m) {
  m.attr("ZERO_FILL") = kZeroFill;
  m.def(
      "presets",
      [] {
        const auto names = preset_names();
        return std::vector<std::string>(names.begin(), names.end());
      },
      "The preset names Model accepts: dmm, sm90 (the measured H100), kepler-4B, kepler-8B.");
  bind_cost(m);
  bind_bank_model(m);
}

}  // namespace bankcheck::python
