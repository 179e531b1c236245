#!/usr/bin/env python3
"""Tests of validate/capture/record_table_check.py on folders written here in
the shape validate/capture/record_table_on_gpu.sh leaves: the program's
outputs per run, each capture's capture.json and summary.json, and the
table's and the ring's replays. Equal sites, equal outputs and the summary's
totals pass; a site whose wavefronts differ between the table and the ring,
totals that differ from the GPU summary's, an output that differs from the
plain run's, and a partial capture each fail. The committed H200 run
(validate/results/h200-2026-11-29/record-table/) is checked as it came back."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "validate", "capture", "record_table_check.py")
RESULTS = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "record-table")


def totals(instructions, wavefronts, ideal):
    return {"instructions": instructions, "lane_accesses": instructions * 32, "wavefronts": wavefronts,
            "ideal": ideal, "conflicts": wavefronts - ideal, "worst_degree": 32}


def replay(sites):
    all_totals = [t for _, t in sites]
    return {"totals": {k: sum(t[k] for t in all_totals) for k in ("instructions", "lane_accesses", "wavefronts",
                                                                  "ideal", "conflicts")},
            "sites": [{"site": s, "totals": t} for s, t in sites]}


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(json.dumps(data).encode() if isinstance(data, dict) else data)


def case(out, work, name="c", ring_sites=None, summary=None, output=b"same", status="complete"):
    sites = [("_Z6stressv+0x100", totals(64, 64 * 32, 64)), ("_Z6stressv+0x180", totals(64, 64, 64))]
    write(os.path.join(out, f"{name}-table.json"), replay(sites))
    write(os.path.join(out, f"{name}-ring.json"), replay(ring_sites or sites))
    write(os.path.join(out, f"{name}-plain.bin"), b"same")
    for run in ("table", "ring", "summary"):
        write(os.path.join(out, f"{name}-{run}.bin"), output if run == "ring" else b"same")
        write(os.path.join(work, f"{name}-{run}", "capture.json"),
              {"status": status if run == "table" else "complete", "reasons": []})
    write(os.path.join(work, f"{name}-summary", "summary.json"), {"totals": summary or replay(sites)["totals"]})


def run(out, work, *cases):
    r = subprocess.run([sys.executable, SCRIPT, out, work, *cases], capture_output=True, text=True)
    return r.stdout


class RecordTableCheck(unittest.TestCase):
    def check(self, **kw):
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as work:
            case(out, work, **kw)
            return run(out, work, "c")

    def test_equal_captures_pass(self):
        text = self.check()
        self.assertNotIn("FAIL", text)
        self.assertEqual(text.count("PASS"), 8)

    def test_a_site_that_differs_fails(self):
        other = [("_Z6stressv+0x100", totals(64, 64 * 31, 64)), ("_Z6stressv+0x180", totals(64, 64, 64))]
        self.assertIn("FAIL c: the table's replay equals the ring's at 1 of 2 sites", self.check(ring_sites=other))

    def test_totals_that_differ_from_the_summary_fail(self):
        self.assertIn("FAIL c: the table's replay against the GPU's summary", self.check(summary=totals(128, 1, 1)))

    def test_an_output_that_differs_fails(self):
        self.assertIn("FAIL c ring: the program's output equals the plain run's", self.check(output=b"other"))

    def test_a_partial_capture_fails(self):
        self.assertIn("FAIL c table: capture.json says partial", self.check(status="partial"))

    def test_the_committed_run_passed(self):
        with open(os.path.join(RESULTS, "record_table.txt")) as f:
            log = f.read()
        self.assertNotIn("FAIL", log)
        self.assertEqual(log.count("the table's replay equals the ring's"), 3)
        for name in ("distinct", "repeating", "speed"):
            with open(os.path.join(RESULTS, f"{name}-table.json")) as f, \
                    open(os.path.join(RESULTS, f"{name}-ring.json")) as g:
                table, ring = json.load(f), json.load(g)
            self.assertEqual(table["totals"], ring["totals"], name)


if __name__ == "__main__":
    unittest.main()
