"""Kernel names as Nsight Compute and the disassemblers print them: the one
Python home of the name rules, for the scripts that tell which function a
launch ran.

  base_name(printed)        the function's bare name, no scope, template
                            arguments, parameters or return type:
                            "void ns::f<int>(T1)" -> "f" (ncu's
                            --kernel-name-base function). The C++ rule is
                            capture/host/launch/kernel_name.hpp's kernel_base_name;
                            this is the same scan, and
                            tests/validate/kernel_names_test.py holds the two
                            to the same cases (tests/data/kernel_names/
                            base_names.tsv, which the C++ test reads too)
  is_function(fn, printed)  whether ncu's name of a launch is the function fn
                            (not merely one whose name starts with fn)
  is_mangled(name)          an Itanium-mangled name ("_Z..."), as the C++'s
                            is_mangled_name
  mangled_base_name(name)   the bare name of an unscoped mangled name
                            ("_Z<length><name>...", as cuobjdump prints a
                            kernel outside any namespace); any other name is
                            returned whole: scoped mangled names are not
                            modelled here (the C++ demangles them with the C++
                            ABI's demangler, which Python lacks)
  display_name(printed)     "ns::k": scope and name without the return type,
                            template arguments, parameters and anonymous
                            scopes, for a table's column

Only the standard library is used.
"""
import re

ANONYMOUS = "(anonymous namespace)"


def without_parameters(printed):
    """The name up to the first '(' outside template brackets that opens
    neither c++filt's "(anonymous namespace)" nor a template argument's cast."""
    depth, i = 0, 0
    while i < len(printed):
        c = printed[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0:
            if printed.startswith(ANONYMOUS, i):
                i += len(ANONYMOUS)
                continue
            return printed[:i]
        i += 1
    return printed


def base_name(printed):
    """The function's bare name: "void ns::f<int>(T1)" -> "f"."""
    depth, plain = 0, []
    for c in without_parameters(printed):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            plain.append(c)
    name = "".join(plain)
    name = name[name.rfind(" ") + 1:]  # the last word: after the return type
    scope = name.rfind("::")
    return name[scope + 2:] if scope >= 0 else name


def is_function(fn, printed):
    """Is ncu's name of a launch the function fn (probe_ldsm_x1 is not probe_ldsm_x1_trans)?"""
    return base_name(printed) == fn


def is_mangled(name):
    return len(name) > 2 and name.startswith("_Z")


def mangled_base_name(name):
    """"_Z12probe_ld32_aPj" -> "probe_ld32_a"; a name not of the form _Z<length><name> whole."""
    m = re.match(r"_Z(\d+)", name)
    if not m:
        return name
    return name[m.end():m.end() + int(m.group(1))]


def display_name(printed):
    """"void ns::(anonymous namespace)::k<T>(float*)" as "ns::k"."""
    name = printed[5:] if printed.startswith("void ") else printed
    name = name.replace(ANONYMOUS + "::", "")
    cut = [i for i in (name.find("<"), name.find("(")) if i > 0]
    return name[:min(cut)] if cut else name
