#pragma once
// The parts of the Python module, one per library area; bankcheck_module.cpp
// calls each. A binding converts between Python and the library's types and
// calls one library function: no counting happens here.
#include <nanobind/nanobind.h>

#include <stdexcept>

namespace bankcheck::python {

/// ValueError for bad input (std::invalid_argument, TraceError), and NotModelledError.
void bind_errors(nanobind::module_& m);
/// presets(), Model, Cost.
void bind_model(nanobind::module_& m);
/// replay(path), replay_text(text), trace_records(text): a text trace read by the library's reader.
void bind_replay(nanobind::module_& m);
/// layout(layout, dtype, access, model), LayoutReport.
void bind_layout(nanobind::module_& m);
/// suggest(accesses, dtype, layout | tile, base, model): the layout suggestion.
void bind_suggest(nanobind::module_& m);
void bind_conversion(nanobind::module_& m);
/// ncu.*, kernel_names.*, sass_parts: the capture's readers of ncu pages, kernel names and SASS text.
void bind_readers(nanobind::module_& m);

/// Thrown for a request the model has no rule for, so that Python gets
/// NotModelledError instead of a number.
struct NotModelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace bankcheck::python
