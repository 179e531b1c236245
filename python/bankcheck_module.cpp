// The Python module `bankcheck` (docs/python.md).
#include "python/bindings.hpp"

NB_MODULE(bankcheck, m) {
  m.doc() = "Exact shared-memory bank conflict counts under measured bank models (docs/python.md)";
  bankcheck::python::bind_errors(m);
  bankcheck::python::bind_model(m);
  bankcheck::python::bind_replay(m);
  bankcheck::python::bind_layout(m);
  bankcheck::python::bind_suggest(m);
  bankcheck::python::bind_conversion(m);
  bankcheck::python::bind_readers(m);
}
