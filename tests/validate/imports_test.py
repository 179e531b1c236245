#!/usr/bin/env python3
"""Every Python module under validate/ loads both ways a script runs there,
each in a fresh interpreter, without running its main:

  as a module   `python3 -m validate.harness.table1` from the repository root:
                only the root on sys.path, the module found through the
                packages' __init__.py files;
  as a file     (a script: a module with a main block) `python3
                validate/harness/table1.py` from any folder: Python puts the
                script's own folder first on sys.path, and a script that
                imports validate.* must put the root there itself (the line
                validate/__init__.py gives).

Also: every folder holding a module has its __init__.py (without one Python
still imports the folder, as a namespace package, so only this check sees it);
no Python file under validate/ or tests/validate/ reaches into a folder with
sys.path.insert or .append (tests/validate/repo_root.py, which puts the root
there for the tests, is the one place that may); and every assignment to
sys.path[0] under validate/ is that one line.

A module whose third-party import is missing here (torch, triton, matplotlib,
numpy: the GPU machine has them) is compiled only and said "skipped". The
captured programs under validate/capture/programs/ run their GPU work when
loaded: compiled only."""
import os
import py_compile
import re
import subprocess
import sys
import tempfile

from repo_root import ROOT

THIRD_PARTY = ("torch", "triton", "matplotlib", "numpy")
PROGRAMS = os.path.join("validate", "capture", "programs")
GUARD = 'sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]'
PATH_EDIT = re.compile(r"sys\.path\.(insert|append)\(")
SHARED_PATH_EDIT = os.path.join("tests", "validate", "repo_root.py")


def python_files(top):
    """Repository-relative paths of the .py files under top (validate/results/ left out)."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and os.path.join(folder, d) !=
                         os.path.join(ROOT, "validate", "results"))
        out += [os.path.relpath(os.path.join(folder, f), ROOT) for f in sorted(files) if f.endswith(".py")]
    return out


def module_name(rel):
    parts = rel[:-len(".py")].split(os.sep)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def load(code, cwd):
    """(exit code, last line of stderr) of a fresh interpreter running code in cwd."""
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    return r.returncode, lines[-1] if lines else ""


def missing_third_party(message):
    m = re.match(r"ModuleNotFoundError: No module named '([\w.]+)'", message)
    return m and m.group(1).split(".")[0] in THIRD_PARTY and m.group(1).split(".")[0]


def is_script(path):
    return re.search(r"^if __name__ == .__main__.:", open(path).read(), re.M) is not None


def check_module(rel, elsewhere):
    """[failure] of loading rel both ways; None when a third-party module is missing."""
    name, path = module_name(rel), os.path.join(ROOT, rel)
    ways = {"as a module": (f"import importlib; importlib.import_module({name!r})", ROOT),
            "as a file": (f"import runpy, sys; sys.path[0] = {os.path.dirname(path)!r}; "
                          f"runpy.run_path({path!r}, run_name='imports_test')", elsewhere)}
    if not is_script(path):
        del ways["as a file"]
    failures = []
    for way, (code, cwd) in ways.items():
        rc, message = load(code, cwd)
        if rc != 0 and missing_third_party(message):
            return None
        if rc != 0:
            failures.append(f"{rel}: loading it {way} fails: {message}")
    return failures


def check_layout(files):
    failures = []
    for rel in files:
        folder = os.path.dirname(rel)
        while folder and not rel.startswith(PROGRAMS + os.sep):
            if not os.path.isfile(os.path.join(ROOT, folder, "__init__.py")):
                failures.append(f"{folder}/ holds {rel} but has no __init__.py")
            folder = os.path.dirname(folder)
    for rel in files + python_files(os.path.join("tests", "validate")):
        if rel in (SHARED_PATH_EDIT, os.path.relpath(os.path.abspath(__file__), ROOT)):
            continue
        for n, line in enumerate(open(os.path.join(ROOT, rel)), 1):
            if PATH_EDIT.search(line):
                failures.append(f"{rel}:{n}: edits sys.path; import validate.* instead")
            if re.search(r"sys\.path\[", line) and line.strip() != GUARD:
                failures.append(f"{rel}:{n}: sets sys.path[0] otherwise than validate/__init__.py's line")
    return sorted(set(failures))


def main():
    files = python_files("validate")
    failures = check_layout(files)
    loaded, scripts, skipped = 0, 0, []
    with tempfile.TemporaryDirectory() as elsewhere:
        for rel in files:
            py_compile.compile(os.path.join(ROOT, rel), cfile=os.path.join(elsewhere, "compiled.pyc"), doraise=True)
            if rel.startswith(PROGRAMS + os.sep):
                skipped.append(f"{rel} (a captured program)")
                continue
            got = check_module(rel, elsewhere)
            if got is None:
                skipped.append(f"{rel} (needs one of {', '.join(THIRD_PARTY)})")
            else:
                failures += got
                loaded += 1
                scripts += is_script(os.path.join(ROOT, rel))
    for s in skipped:
        print(f"skipped: loading {s}; compiled only")
    for f in failures:
        print("FAIL:", f)
    print(f"validate/ imports: {loaded} modules loaded ({scripts} scripts also as a file), {len(skipped)} compiled only, "
          f"{len(failures)} failures")
    return 1 if failures or not loaded else 0


if __name__ == "__main__":
    sys.exit(main())
