// Errors: what the library throws for bad input reaches Python as
// ValueError with the library's message. nanobind maps std::invalid_argument
// so already; a malformed trace is a TraceError, a std::runtime_error, which
// would otherwise be a RuntimeError.
#include <nanobind/nanobind.h>

#include "python/bindings.hpp"
#include "sim/trace/trace_error.hpp"

namespace nb = nanobind;

namespace bankcheck::python {

void bind_errors(nb::module_& m) {
  nb::exception<TraceError>(m, "TraceError", PyExc_ValueError)
      .attr("__doc__") = "A malformed or unreadable trace (a ValueError); the message names the file and line.";
  nb::exception<NotModelled>(m, "NotModelledError")
      .attr("__doc__") = "The model has no rule for this access kind: it is not costed, never counted as conflict-free.";
}

}  // namespace bankcheck::python
