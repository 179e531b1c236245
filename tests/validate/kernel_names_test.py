#!/usr/bin/env python3
"""validate/harness/kernel_names.py (the C++ rule, through the Python module)
against the committed pages.

base_name must give the function of every row of tests/data/kernel_names/
base_names.tsv, the rows tests/capture/host/launch/kernel_name_test.cpp holds the
C++'s kernel_base_name to: the module must hand Python the C++'s answers. The probe rows
of that file are checked here against the archive they come from (the probe
program's launch list names the function, ncu's raw page the launch), and
is_function must tell each probe from the probes whose names extend its own
(probe_ldsm_x1 / probe_ldsm_x1_trans). mangled_base_name must give the name
the wgmma probe generator mangled, and, where c++filt is installed, c++filt's
demangling cut to its base name for every mangled name on the committed
wgmma page."""
import csv
import gzip
import io
import os
import shutil
import subprocess
import tarfile
import unittest

from repo_root import ROOT
from validate.harness import ncu_csv
from validate.harness.kernel_names import base_name, display_name, is_function, is_mangled, mangled_base_name
from validate.sm90.sm90a import descriptor_truth, make_wgmma_probes

TABLE = os.path.join(ROOT, "tests", "data", "kernel_names", "base_names.tsv")
PROBES = os.path.join(ROOT, "validate", "results", "h100-2026-11-23", "probes", "probes.tar.gz")
WGMMA_PAGE = os.path.join(ROOT, "validate", "results", "h100-2026-11-27", "wgmma-blind", "wgmma.sass.csv.gz")


def table():
    with open(TABLE) as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f if not line.startswith("#")]


def probe_pairs():
    """Distinct (function, ncu's name) of the probe run, in launch order: launch list against raw page."""
    pairs = []
    with tarfile.open(PROBES) as t:
        for m in sorted(n for n in t.getnames() if n.startswith("results/ncu/") and n.endswith(".launches.txt")):
            step = m[:-len(".launches.txt")]
            launches = [line.split("\t") for line in t.extractfile(m).read().decode().splitlines() if line.strip()]
            raw = ncu_csv.raw_rows(io.TextIOWrapper(t.extractfile(step + ".raw.csv"), newline=""))
            pairs += [(launch[1], r["Kernel Name"]) for launch, r in zip(launches, raw) if len(launch) > 1]
    return list(dict.fromkeys(pairs))


class KernelNames(unittest.TestCase):
    def test_every_row_of_the_shared_table(self):
        rows = table()
        self.assertGreaterEqual(len(rows), 75)
        for function, name, _ in rows:
            self.assertEqual(base_name(name), function, name)
            self.assertTrue(is_function(function, name), name)

    def test_the_probe_rows_are_the_archive(self):
        self.assertEqual([(f, n) for f, n, src in table() if src == "h100-2026-11-23/probes"], probe_pairs())

    def test_a_probe_is_not_the_probe_its_name_extends(self):
        rows = table()
        checked = 0
        for short in {f for f, _, _ in rows}:
            for function, name, _ in rows:
                if function != short and function.startswith(short):
                    self.assertFalse(is_function(short, name), f"{short} against {name}")
                    checked += 1
        self.assertGreater(checked, 0)

    def test_mangled_names_of_the_wgmma_probes(self):
        idents = ["wg_" + p[0].replace("-", "_") for s in (make_wgmma_probes.probes(), make_wgmma_probes.blind_probes(),
                                                          make_wgmma_probes.int8_probes()) for p in s]
        self.assertGreater(len(idents), 50)
        for ident in idents:
            self.assertEqual(mangled_base_name(descriptor_truth.mangled(ident)), ident)
        self.assertEqual(mangled_base_name("_ZN2ns1kIiEEvT_"), "k")  # scoped: c++filt's "void ns::k<int>(int)"
        self.assertEqual(mangled_base_name("matmul_kernel"), "matmul_kernel")

    def test_mangled_names_on_the_page_as_the_cpp_reads_them(self):
        with gzip.open(WGMMA_PAGE, "rt", newline="") as f:
            names = sorted({row[1] for row in csv.reader(f) if len(row) > 1 and row[0] == "Kernel Name"})
        self.assertGreater(len(names), 20)
        if not shutil.which("c++filt"):
            print("skipped: no c++filt: the page's mangled names are not demangled the C++'s way")
            return
        demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                                   check=True).stdout.splitlines()
        for name, d in zip(names, demangled):
            self.assertEqual(mangled_base_name(name), base_name(d), name)

    def test_is_mangled_as_the_cpp(self):
        self.assertTrue(is_mangled("_ZN2ns1kIiEEvT_"))
        self.assertFalse(is_mangled("matmul_kernel"))
        self.assertFalse(is_mangled("_Z"))

    def test_display_name(self):
        self.assertEqual(display_name("void ns::(anonymous namespace)::k<T>(float*)"), "ns::k")
        self.assertEqual(display_name("matmul_kernel"), "matmul_kernel")
        self.assertEqual(display_name("<unnamed>::gms_kernel(int)"), "<unnamed>::gms_kernel")


if __name__ == "__main__":
    unittest.main()
