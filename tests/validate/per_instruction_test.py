#!/usr/bin/env python3
"""Tests of validate/harness/per_instruction.py on the per-instruction data
measured on the H100 (validate/results/h100-2026-11-22/per-instruction/:
ncu SourceCounters and nvdisasm -gi from the 2026-11-22 run, GPU and command
in environment.txt there): the mapping must reproduce the hardware's
per-site counts where the model and the hardware agree, report a changed
prediction as a mismatch naming its SASS, and report line-info splits as
sets; it must exit 1 unless every site is equal, read an enum as C++ numbers
it (never pairing two lists by position), and stop at a site the program
emitted that its reading of the headers cannot name."""
import csv
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from repo_root import ROOT
from validate.harness import per_instruction

DATA = os.path.join(ROOT, "validate", "results", "h100-2026-11-22", "per-instruction")
SCRIPT = os.path.join(ROOT, "validate", "harness", "per_instruction.py")


def run(program, work, predicted=None):
    """Runs the script on the committed data of one program; returns (exit code, stdout, rows)."""
    for suffix in ("sass.csv", "gi.txt"):
        with gzip.open(os.path.join(DATA, f"{program}.{suffix}.gz"), "rb") as src, \
                open(os.path.join(work, f"{program}.{suffix}"), "wb") as dst:
            shutil.copyfileobj(src, dst)
    out_csv = os.path.join(work, f"{program}.out.csv")
    p = subprocess.run([sys.executable, SCRIPT, "--title", program,
                        "--sass", os.path.join(work, f"{program}.sass.csv"),
                        "--disasm", os.path.join(work, f"{program}.gi.txt"),
                        "--manifest", os.path.join(DATA, f"{program}.manifest.csv"),
                        "--predicted-sites", predicted or os.path.join(DATA, f"{program}.predicted_sites.csv"),
                        "--repo", ROOT, "--csv", out_csv, "--markdown", os.path.join(work, f"{program}.out.md")],
                       capture_output=True, text=True)
    with open(out_csv, newline="") as f:
        return p.returncode, p.stdout, list(csv.DictReader(f))


class PerInstruction(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_transpose_and_aho_corasick_match_every_site(self):
        for program, sites in (("transpose", 12), ("aho_corasick", 18)):
            code, _, rows = run(program, self.work)
            self.assertEqual(code, 0)
            self.assertEqual(len(rows), sites)
            for r in rows:
                self.assertEqual(r["predicted_wavefronts"], r["measured_wavefronts"], r)
                self.assertTrue(r["sass"].strip(), r)  # every site found its instructions

    def test_a_changed_prediction_is_a_mismatch_that_names_its_sass(self):
        changed = os.path.join(self.work, "changed.csv")
        with open(os.path.join(DATA, "transpose.predicted_sites.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        rows[0]["wavefronts"] = str(int(rows[0]["wavefronts"]) + 1)
        with open(changed, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        code, stdout, out = run("transpose", self.work, changed)
        self.assertEqual(code, 1)
        bad = [r for r in out if r["wavefronts_equal"] == "0"]
        self.assertEqual(len(bad), 1)
        self.assertEqual((bad[0]["case"], bad[0]["site"]), (rows[0]["case"], rows[0]["site"]))
        self.assertRegex(bad[0]["sass"], r"\b(LDS|STS)")
        self.assertIn("1 differ", stdout)

    def test_scan_loads_split_by_line_info_agree_as_a_set(self):
        # nvcc gave both stores of scan's if-converted load pair (prefix_scan.hpp
        # lines 55-56) line 55: per site they differ, as a set they agree.
        code, _, rows = run("sigmod", self.work)
        self.assertEqual(code, 1)  # equal as a set is not equal per site
        scan = [r for r in rows if r["case"].startswith("scan/") and r["site"] in ("scan.load_a", "scan.load_b")]
        self.assertTrue(scan)
        for r in scan:
            self.assertEqual(r["group_equal"], "1", r)
        self.assertTrue(any(r["wavefronts_equal"] == "0" for r in scan))
        self.assertFalse(any(r["group_equal"] == "0" for r in rows))

    def test_a_site_the_program_emitted_that_no_header_names_is_a_problem(self):
        renamed = os.path.join(self.work, "renamed.csv")
        with open(os.path.join(DATA, "transpose.predicted_sites.csv"), newline="") as f:
            text = f.read()
        self.assertIn("transpose.read_column", text)
        with open(renamed, "w", newline="") as f:
            f.write(text.replace("transpose.read_column", "transpose.read_col"))
        code, stdout, _ = run("transpose", self.work, renamed)
        self.assertEqual(code, 1)
        self.assertIn("no header table read here names: transpose.read_col", stdout)


class SiteTables(unittest.TestCase):
    def table(self, text):
        problems = []
        found = per_instruction.SiteTable.structs(text.split("\n"), "h.hpp", problems)
        return {name: t for _, name, t in found}, problems

    def test_values_as_cpp_numbers_them(self):
        tables, problems = self.table('static constexpr const char* kName = "x";\n'
                                      'enum Site : int { c = 2, a = 0, b };\n'
                                      'static constexpr const char* kSiteNames[3] = {"first", "second", "third"};')
        self.assertEqual(problems, [])
        self.assertEqual(tables["x"], {"a": "first", "b": "second", "c": "third"})

    def test_an_enum_and_names_that_differ_in_length_are_a_problem_not_truncated(self):
        tables, problems = self.table('static constexpr const char* kName = "x";\n'
                                      'enum Site : int { a, b, c };\n'
                                      'static constexpr const char* kSiteNames[2] = {"a", "b"};')
        self.assertEqual(tables, {})
        self.assertEqual(len(problems), 1)
        self.assertIn("h.hpp:1", problems[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
