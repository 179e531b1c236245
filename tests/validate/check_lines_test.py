#!/usr/bin/env python3
"""Tests of validate/lines/check_lines.py on pages written here in the shape
Nsight Compute 2025.3 exports (the SASS page: a "Kernel Name" row, an
"Address" header, absolute addresses; the cuda,sass page: a "File Path" row,
a header with "Line No" and "Address", each CUDA line's row followed by its
SASS rows) and a compare.json as `bankcheck compare --json` writes it. The
lines are those of validate/lines/lines_kernels.cu's MARK comments, found
in the file here, so the expected verdicts do not come from the checker.
An instruction on the same line in both tools passes; ncu naming the call
site of an inlined access passes as `ncu: call site`; no line info on both
sides (ncu saying so in its warning) passes; launches meet ncu's blocks in
order, one name compiled twice (Triton) at two addresses included; a
different line, an address ncu's page lacks, no line info that ncu does not
confirm, and a capture with no conflicting instruction fail (exit 1)."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "validate", "lines", "check_lines.py")
KERNELS = "validate/lines/lines_kernels.cu"
HELPERS = "validate/lines/lines_helpers.cuh"
BASE = 0x7F00_0000_0000  # where ncu saw the first kernel; the others follow 0x1000 apart
GPU_ROOT = "/root/repo/"  # nvcc records absolute paths on the machine that compiled
RESULTS = os.path.join(ROOT, "validate", "results", "h200-2026-11-29", "lines")


def mark_line(path, text):
    with open(os.path.join(ROOT, path)) as f:
        hits = [n for n, line in enumerate(f.read().splitlines(), 1) if "MARK: " + text in line]
    assert len(hits) == 1, text
    return hits[0]


def source(file, line, chain=()):
    if file is None:
        return {"file": None, "line": None, "inlined_at": [], "text": "no line info"}
    return {"file": GPU_ROOT + file, "line": line, "text": f"{file}:{line}",
            "inlined_at": [{"file": GPU_ROOT + f, "line": l} for f, l in chain]}


class CheckLines(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp()
        self.column = mark_line(KERNELS, "kernel column load")
        self.read = mark_line(HELPERS, "header strided read")
        self.gather = mark_line(HELPERS, "header gather call")
        self.call = mark_line(KERNELS, "kernel gather call")
        self.unrolled = mark_line(KERNELS, "kernel unrolled loads")
        # (launch, mangled, demangled, offset, sass, bankcheck's source, ncu's line or None, wavefronts, ideal)
        self.instructions = [
            (0, "_Z11column_loadPfPKf", "column_load(float*, const float*)", 0x130, "LDS R9, [R6]",
             source(KERNELS, self.column), (KERNELS, self.column), 1024, 32),
            (0, "_Z11column_loadPfPKf", "column_load(float*, const float*)", 0x110, "STS [R7], R0",
             source(KERNELS, self.column - 2), (KERNELS, self.column - 2), 32, 32),
            (1, "_Z12header_chainPfPKf", "header_chain(float*, const float*)", 0x210, "LDS R14, [R14]",
             source(HELPERS, self.read, [(HELPERS, self.gather), (KERNELS, self.call)]), (KERNELS, self.call), 16, 4),
            (1, "_Z12header_chainPfPKf", "header_chain(float*, const float*)", 0x300, "ATOMS.ADD RZ, [R2], R3",
             source(None, None), None, 64, 4),
        ]

    def write(self, instructions, code=None, ncu_line=None, drop_address=None, warn=("_Z12header_chainPfPKf",),
              doubled=(), extra=None, report=None):
        """The capture's launches.csv, compare.json and both ncu pages; returns the checker's argv. code:
        {launch: first address} (default: one per kernel name, its launches sharing it); warn: the kernels
        ncu's cuda,sass page says it has no line info for; doubled: the launches whose SASS block ncu prints
        twice (ncu 2025.3 does so for some); extra: {(launch, offset): (file, line)} a second line ncu lists
        the instruction under; report: {(launch, offset): line} for a report page whose instructions show
        bankcheck's lines but these."""
        cap = os.path.join(self.work, "cap")
        os.makedirs(cap, exist_ok=True)
        launches = {}
        for launch, mangled, demangled, *_ in instructions:
            launches.setdefault(launch, (mangled, demangled))
        names = list(dict.fromkeys(m for m, _ in launches.values()))
        code = code or {l: BASE + 0x1000 * names.index(m) for l, (m, _) in launches.items()}
        with open(os.path.join(cap, "launches.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["id", "kernel", "demangled", "status"])
            w.writerow([99, "_Z7skippedv", "skipped()", "skipped"])  # not selected: neither tool has it
            for launch, (mangled, demangled) in sorted(launches.items()):
                w.writerow([launch, mangled, demangled, "captured"])
        rows = [{"launch": i[0], "kernel": i[2], "offset": i[3], "sass": i[4], "verdict": "yes", "source": i[5],
                 "model_wavefronts": i[7], "measured_wavefronts": i[7]} for i in instructions]
        with open(os.path.join(self.work, "compare.json"), "w") as f:
            json.dump({"rows": rows}, f)
        sass = []
        for launch, (mangled, _) in sorted(launches.items()):
            block = [["Kernel Name", mangled], ["Address", "Source", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"],
                     [hex(code[launch]), "LDC R1, c[0x0][0x28]", "0", "0"]]
            block += [[hex(code[launch] + i[3]), i[4], str(i[7]), str(i[8])] for i in instructions if i[0] == launch]
            sass += block * (2 if launch in doubled else 1)
        self.csv("ncu.sass.csv", sass)
        page = []
        for file in (KERNELS, HELPERS):
            page += [["File Path", GPU_ROOT + file], ["Function Name", "k"],
                     ["Line No", "Source", "Address", "Source", "L1 Wavefronts Shared"]]
            for i in instructions:
                for at in ((ncu_line or {}).get((i[0], i[3]), i[6]), (extra or {}).get((i[0], i[3]))):
                    if at and at[0] == file and i[3] != drop_address:
                        page.append([str(at[1]), "  source text", "", "", str(i[7])])
                        page.append(["", "", hex(code[i[0]] + i[3]), i[4], str(i[7])])
        self.csv("ncu.cuda_sass.csv", page)
        with open(os.path.join(self.work, "ncu.cuda_sass.csv"), "a") as f:
            for name in warn:
                f.write(f"==WARNING== No lineinfo available to show CUDA-C source related to '{name}'.\n")
        argv = [sys.executable, SCRIPT, "--compare", os.path.join(self.work, "compare.json"), "--capture", cap,
                "--ncu-sass", os.path.join(self.work, "ncu.sass.csv"),
                "--ncu-source", os.path.join(self.work, "ncu.cuda_sass.csv"), "--root", ROOT]
        if report is not None:
            shown = []
            for i in instructions:
                src = dict(i[5], line=report.get((i[0], i[3]), i[5]["line"]))
                chain = " < ".join(f"{c['file']}:{c['line']}" for c in src["inlined_at"])
                text = "no line info" if src["line"] is None else f"{src['file']}:{src['line']}"
                shown.append({"site": f"{i[1]}+{i[3]:#x}", "file": src["file"], "line": src["line"],
                              "source": text + (f" (inlined at {chain})" if chain else "")})
            with open(os.path.join(self.work, "report.html"), "w") as f:
                data = json.dumps({"kernels": [], "instructions": shown}).replace("</", "<\\/")
                f.write(f'<html><script type="application/json" id="report-data">{data}</script></html>')
            argv += ["--report", os.path.join(self.work, "report.html")]
        return argv + ["--csv", os.path.join(self.work, "lines.csv")]

    def csv(self, name, rows):
        with open(os.path.join(self.work, name), "w", newline="") as f:
            csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)

    def run_checker(self, argv):
        p = subprocess.run(argv, capture_output=True, text=True)
        rows = []
        if os.path.exists(argv[-1]):
            with open(argv[-1], newline="") as f:
                rows = list(csv.DictReader(f))
        return p.returncode, p.stdout + p.stderr, rows

    def test_agreeing_lines_pass(self):
        second = list(self.instructions[0])
        second[0], second[7] = 2, 512  # column_load launched again: the same code, its counts summed
        rc, out, rows = self.run_checker(self.write(self.instructions + [tuple(second)], doubled={0}))
        self.assertEqual(rc, 0, out)
        # The store has wavefronts == ideal: not conflicting, not in the table.
        self.assertEqual([r["offset"] for r in rows], ["0x130", "0x210", "0x300"])
        self.assertEqual([r["verdict"] for r in rows], ["same", "ncu: call site", "both: no line info"])
        self.assertEqual(rows[0]["mark"], "kernel column load")
        self.assertEqual(rows[1]["mark"], "header strided read")
        self.assertEqual(rows[0]["ncu_wavefronts"], "1536")  # two launches (1024 + 512), the first's block twice
        self.assertEqual(rows[1]["ncu"], f"lines_kernels.cu:{self.call}")
        self.assertEqual(rows[1]["bankcheck"],
                         f"lines_helpers.cuh:{self.read} (inlined at lines_helpers.cuh:{self.gather} < "
                         f"lines_kernels.cu:{self.call})")

    def test_every_block_printed_twice(self):
        rc, out, rows = self.run_checker(self.write(self.instructions, doubled={0, 1}))
        self.assertEqual(rc, 0, out)
        self.assertEqual(rows[0]["ncu_wavefronts"], "1024")

    def test_report_lines(self):
        rc, out, _ = self.run_checker(self.write(self.instructions, report={}))
        self.assertEqual(rc, 0, out)
        self.assertIn("the report's instructions (4): both: no line info 1, ncu: call site 1, same 2", out)
        rc, out, _ = self.run_checker(self.write(self.instructions, report={(0, 0x130): self.unrolled}))
        self.assertEqual(rc, 1, out)
        self.assertIn("DIFFER 1", out)

    def test_ncu_naming_the_access_itself_is_same(self):
        at = {(1, 0x210): (HELPERS, self.read)}
        rc, out, rows = self.run_checker(self.write(self.instructions, ncu_line=at))
        self.assertEqual(rc, 0, out)
        self.assertEqual(rows[1]["verdict"], "same")

    def test_one_name_two_kernels(self):
        """Triton compiles one name per argument type: two codes, one offset, two lines."""
        a = (5, "trans_kernel", "trans_kernel", 0x100, "LDS R2, [R3]", source(KERNELS, self.column),
             (KERNELS, self.column), 64, 8)
        b = (9, "trans_kernel", "trans_kernel", 0x100, "LDS R2, [R3]", source(KERNELS, self.unrolled),
             (KERNELS, self.unrolled), 64, 8)
        rc, out, rows = self.run_checker(self.write([a, b], code={5: BASE, 9: BASE + 0x8000}))
        self.assertEqual(rc, 0, out)
        self.assertEqual([r["verdict"] for r in rows], ["same", "same"])
        self.assertEqual([r["ncu"] for r in rows], [f"lines_kernels.cu:{self.column}", f"lines_kernels.cu:{self.unrolled}"])

    def test_ncu_listing_the_chain_too_is_same(self):
        argv = self.write(self.instructions, ncu_line={(1, 0x210): (HELPERS, self.read)},
                          extra={(1, 0x210): (KERNELS, self.call)})
        rc, out, rows = self.run_checker(argv)
        self.assertEqual(rc, 0, out)
        self.assertEqual(rows[1]["verdict"], "same")
        self.assertEqual(rows[1]["ncu"], f"lines_helpers.cuh:{self.read} / lines_kernels.cu:{self.call}")

    def test_ncu_listing_a_line_outside_the_chain_fails(self):
        rc, out, rows = self.run_checker(self.write(self.instructions, extra={(0, 0x130): (KERNELS, self.unrolled)}))
        self.assertEqual(rc, 1, out)
        self.assertEqual(rows[0]["verdict"], "DIFFER")

    def test_another_line_fails(self):
        at = {(0, 0x130): (KERNELS, self.unrolled)}
        rc, out, rows = self.run_checker(self.write(self.instructions, ncu_line=at))
        self.assertEqual(rc, 1, out)
        self.assertEqual(rows[0]["verdict"], "DIFFER")
        self.assertIn("DIFFER 1", out)

    def test_line_info_on_one_side_only_fails(self):
        at = {(1, 0x300): (KERNELS, self.unrolled)}
        rc, out, rows = self.run_checker(self.write(self.instructions, ncu_line=at))
        self.assertEqual(rc, 1, out)
        self.assertEqual(rows[2]["verdict"], "DIFFER")

    def test_address_missing_from_ncu_fails(self):
        rc, out, rows = self.run_checker(self.write(self.instructions, drop_address=0x130))
        self.assertEqual(rc, 1, out)
        self.assertEqual(rows[0]["verdict"], "ncu: not found")

    def test_no_line_info_needs_ncu_to_say_so(self):
        rc, out, rows = self.run_checker(self.write(self.instructions, warn=()))
        self.assertEqual(rc, 1, out)
        self.assertEqual(rows[2]["verdict"], "ncu: not found")

    def test_no_conflicting_instruction_is_not_a_pass(self):
        rc, out, rows = self.run_checker(self.write(self.instructions[1:2]))
        self.assertEqual(rc, 1, out)
        self.assertIn("nothing checked", out)
        self.assertEqual(rows, [])

    def test_unreadable_input_exits_2(self):
        argv = self.write(self.instructions)
        argv[argv.index("--compare") + 1] = os.path.join(self.work, "missing.json")
        rc, out, _ = self.run_checker(argv)
        self.assertEqual(rc, 2, out)


class MeasuredRun(unittest.TestCase):
    """The checker on the H200 run's exports (validate/results/h200-2026-11-29/lines/run1.tar.xz): every
    conflicting instruction ncu measured in the Triton kernels gets ncu's line from bankcheck, in compare
    and on the report page, and the PyTorch script's have no line info in both tools."""

    def check(self, name):
        work = tempfile.mkdtemp()
        members = [f"./{name}/{m}" for m in ("compare.json", "cap/launches.csv", "ncu.sass.csv", "ncu.cuda_sass.csv",
                                             "report.html")]
        subprocess.run(["tar", "xJf", os.path.join(RESULTS, "run1.tar.xz"), "-C", work, *members], check=True)
        d = os.path.join(work, name)
        p = subprocess.run([sys.executable, SCRIPT, "--compare", os.path.join(d, "compare.json"), "--capture",
                            os.path.join(d, "cap"), "--ncu-sass", os.path.join(d, "ncu.sass.csv"),
                            "--ncu-source", os.path.join(d, "ncu.cuda_sass.csv"), "--root", ROOT,
                            "--report", os.path.join(d, "report.html")],
                           capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_triton(self):
        rc, out = self.check("triton")
        self.assertEqual(rc, 0, out)
        self.assertIn("16 conflicting instructions (ncu: wavefronts > ideal), same 16", out)
        self.assertIn("every compared instruction, conflicting or not (366): same 366", out)
        # trans_kernel's two codes share its sites in the report: those are not checked
        self.assertIn("the report's instructions (346): not checked (no single ncu code for the name) 92, same 254", out)

    def test_torch(self):
        rc, out = self.check("torch")
        self.assertEqual(rc, 0, out)
        self.assertIn("168 conflicting instructions (ncu: wavefronts > ideal), both: no line info 168", out)
        self.assertIn("the report's instructions (1114): both: no line info 1114", out)


if __name__ == "__main__":
    unittest.main()
