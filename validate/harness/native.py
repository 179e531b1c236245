"""The bankcheck Python module, through which validate/ reads what Nsight
Compute and the disassemblers print: the capture's C++ readers of ncu pages,
kernel names and SASS text (capture/host/ncu/ncu_page.hpp, launch/kernel_name.hpp,
sass/sass_instruction.hpp), never a second reading in Python.

It is the one Python imports as it stands (PYTHONPATH, which ctest sets to
build/python/, or an installed one: `pip install .`), else the one in the
repository's build-gpu/python/ (the GPU machine's, carried by
`validate/capture/build_carry.sh python`) or build/python/ (the main build's,
scripts/setup.sh) built for the running Python.
"""
import importlib
import importlib.machinery
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load():
    try:
        return importlib.import_module("bankcheck")
    except ImportError:
        pass
    for folder in (ROOT / "build-gpu" / "python", ROOT / "build" / "python"):
        # only a module built for this Python: its file name carries the ABI ("cpython-312-...")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / ("bankcheck" + suffix)
            if path.is_file():
                spec = importlib.util.spec_from_file_location("bankcheck", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules["bankcheck"] = module
                return module
    raise ImportError("the bankcheck Python module is not importable by Python "
                      f"{sys.version_info.major}.{sys.version_info.minor}: scripts/setup.sh builds it into "
                      "build/python/ (it needs nanobind, which setup fetches, and Python's headers); "
                      "`bash validate/capture/build_carry.sh python` builds the GPU machine's into build-gpu/python/")


bankcheck = _load()
