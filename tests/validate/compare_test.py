#!/usr/bin/env python3
"""Tests of validate/harness/launch_compare.py on launch-level data measured on the
H100 (validate/results/h100-2026-11-22/: the predictions, manifests and ncu
tables of the 2026-11-22 run, GPU and commands in its README). The script
must exit 0 only when every (case, op, quantity) is equal and every launch
is paired: transpose as measured passes; a changed prediction, a profiled
kernel or a manifest row too many or too few, and PBS as measured (24 of its
132 wavefront pairs differ) exit 1 and say why."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "validate", "results", "h100-2026-11-22")
SCRIPT = os.path.join(ROOT, "validate", "harness", "launch_compare.py")


def run(program, work, predicted=None, manifest=None, ncu=None):
    """Runs the script; returns (exit code, stdout, output rows)."""
    out_csv = os.path.join(work, f"{program}.out.csv")
    p = subprocess.run([sys.executable, SCRIPT, "--title", program,
                        "--predicted", predicted or os.path.join(DATA, f"{program}.predicted.csv"),
                        "--manifest", manifest or os.path.join(DATA, f"{program}.manifest.csv"),
                        "--ncu", ncu or os.path.join(DATA, f"{program}.ncu.csv"),
                        "--csv", out_csv, "--markdown", os.path.join(work, f"{program}.out.md")],
                       capture_output=True, text=True)
    with open(out_csv, newline="") as f:
        return p.returncode, p.stdout, list(csv.DictReader(f))


def ncu_kernel_lines(path):
    """(lines before the first kernel row, kernel rows) of an ncu raw CSV."""
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    rows = [i for i, l in enumerate(lines) if l.startswith('"') and l.split(",")[0].strip('"').isdigit()]
    return lines, rows


class Compare(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(dir=os.environ.get("TMPDIR"))

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_transpose_as_measured_is_equal_everywhere_and_exits_0(self):
        code, stdout, rows = run("transpose", self.work)
        self.assertEqual(code, 0, stdout)
        self.assertEqual(len(rows), 6 * 2 * 3)  # 6 launches x ld, st x instructions, wavefronts, conflicts
        self.assertTrue(all(r["match"] == "True" for r in rows))

    def test_a_changed_prediction_exits_1(self):
        changed = os.path.join(self.work, "changed.csv")
        with open(os.path.join(DATA, "transpose.predicted.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        rows[0]["ld_wavefronts"] = str(int(rows[0]["ld_wavefronts"]) + 1)
        with open(changed, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        code, stdout, out = run("transpose", self.work, predicted=changed)
        self.assertEqual(code, 1)
        self.assertIn("FAILED: 1 mismatches", stdout)
        self.assertEqual(sum(r["match"] == "False" for r in out), 1)

    def test_a_missing_profiled_kernel_is_named_and_exits_1(self):
        lines, kernels = ncu_kernel_lines(os.path.join(DATA, "transpose.ncu.csv"))
        self.assertEqual(len(kernels), 6)
        short = os.path.join(self.work, "short.ncu.csv")
        with open(short, "w") as f:
            f.writelines(l for i, l in enumerate(lines) if i != kernels[-1])
        code, stdout, out = run("transpose", self.work, ncu=short)
        self.assertEqual(code, 1)
        self.assertIn("launch 5 (", stdout)
        self.assertIn("has no profiled kernel", stdout)
        self.assertEqual(len(out), 5 * 2 * 3)  # the five paired launches are still compared

    def test_a_kernel_without_a_manifest_row_is_named_and_exits_1(self):
        short = os.path.join(self.work, "short.manifest.csv")
        with open(os.path.join(DATA, "transpose.manifest.csv")) as f:
            lines = f.readlines()
        with open(short, "w") as f:
            f.writelines(lines[:-1])
        code, stdout, _ = run("transpose", self.work, manifest=short)
        self.assertEqual(code, 1)
        self.assertIn("profiled kernel 5 (", stdout)
        self.assertIn("has no manifest row", stdout)

    def test_pbs_as_measured_has_mismatches_and_exits_1(self):
        code, stdout, rows = run("pbs", self.work)
        self.assertEqual(code, 1)
        wavefronts = [r for r in rows if r["quantity"] == "wavefronts"]
        self.assertEqual((sum(r["match"] == "True" for r in wavefronts), len(wavefronts)), (108, 132))


if __name__ == "__main__":
    unittest.main(verbosity=2)
