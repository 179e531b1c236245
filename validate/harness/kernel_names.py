"""Kernel names as Nsight Compute and the disassemblers print them, for the
scripts that tell which function a launch ran: the capture's C++ rules
(capture/host/launch/kernel_name.hpp, through the Python module:
harness/native.py), held to tests/data/kernel_names/base_names.tsv, names
from committed ncu pages, by the C++ test and tests/validate/kernel_names_test.py.

  base_name(printed)        the function's bare name, no scope, template
                            arguments, parameters or return type:
                            "void ns::f<int>(T1)" -> "f" (ncu's
                            --kernel-name-base function)
  is_function(fn, printed)  whether ncu's name of a launch is the function fn
                            (not merely one whose name starts with fn)
  is_mangled(name)          an Itanium-mangled name ("_Z...")
  mangled_base_name(name)   the bare name of a mangled name, as cuobjdump
                            prints kernels (demangled by the C++ ABI's
                            demangler); any other name whole
  display_name(printed)     "ns::k": scope and name without the return type,
                            template arguments, parameters and anonymous
                            scopes, for a table's column (a spelling for
                            people, which no C++ reader needs)
"""
from validate.harness.native import bankcheck

ANONYMOUS = "(anonymous namespace)"

base_name = bankcheck.kernel_names.base_name
is_mangled = bankcheck.kernel_names.is_mangled


def is_function(fn, printed):
    """Is ncu's name of a launch the function fn (probe_ldsm_x1 is not probe_ldsm_x1_trans)?"""
    return base_name(printed) == fn


def mangled_base_name(name):
    """"_Z12probe_ld32_aPj" -> "probe_ld32_a"; a name that is not mangled whole."""
    return base_name(bankcheck.kernel_names.demangle(name)) if is_mangled(name) else name


def display_name(printed):
    """"void ns::(anonymous namespace)::k<T>(float*)" as "ns::k"."""
    name = printed[5:] if printed.startswith("void ") else printed
    name = name.replace(ANONYMOUS + "::", "")
    cut = [i for i in (name.find("<"), name.find("(")) if i > 0]
    return name[:min(cut)] if cut else name
