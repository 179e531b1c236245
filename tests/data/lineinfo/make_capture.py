#!/usr/bin/env python3
"""Writes tests/data/captures/transpose/: a capture folder as `bankcheck capture`
lays it out (docs/capture.md), made without a GPU from what the kernels of
transpose.cu do. Each kernel runs once on one block of 32x32 threads; warp w
is threadIdx.y = w, lane l is threadIdx.x = l. Its first __shared__ array
starts at offset 1024 of the shared window (the 1 KiB the H100 reserves;
the listing's `UMOV UR4, 0x400`), so the warp's byte offsets are:

  naive  STS tile[y][x]  1024 + 4 * (32 y + x)     LDS tile[x][y]  1024 + 4 * (32 x + y)
  padded STS tile[y][x]  1024 + 4 * (33 y + x)     LDS tile[x][y]  1024 + 4 * (33 x + y)

The STS and LDS of each function are found in transpose.sass.txt by their
mnemonics (one of each per function); sass.csv is that listing as capture
writes it (version 2: function, offset, sass, file, line, inlined_at).
Run from the repository root: python3 tests/data/lineinfo/make_capture.py
"""
import csv
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.resolve().parents[2]))  # the repository root: the trace format's writer is validate/'s
from validate.sm90.case_format import line as trace_line  # noqa: E402

OUT = HERE.parent / "captures" / "transpose"
KERNELS = {
    "_Z15transpose_naivePfPKf": ("transpose_naive(float *, const float *)", 32),
    "_Z16transpose_paddedPfPKf": ("transpose_padded(float *, const float *)", 33),
}
LINE = re.compile(r'//## File "([^"]*)", line (\d+)(?: inlined at "([^"]*)", line (\d+))?')
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def listing():
    """(function, offset, sass, file, line, inlined_at) per instruction."""
    rows, function, run, current = [], None, [], ("", "", "")
    for text in (HERE / "transpose.sass.txt").read_text().splitlines():
        t = text.strip()
        if t.startswith(".text.") and t.endswith(":"):
            function, run, current = t[6:-1], [], ("", "", "")
        elif m := LINE.match(t):
            run.append(m.groups())
        elif function and (m := INSTRUCTION.search(t)):
            if run:
                chain = " < ".join(f"{g[2]}:{g[3]}" for g in run if g[2])
                current, run = (run[0][0], run[0][1], chain), []
            rows.append((function, int(m.group(1), 16), m.group(2)) + current)
    return rows


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rows = listing()
    with open(OUT / "sass.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["function", "offset", "sass", "file", "line", "inlined_at"])
        for function, offset, sass, file, line, chain in rows:
            w.writerow([function, hex(offset), sass, file, line, chain])
    launches = [["id", "kernel", "demangled", "grid", "block", "dynamic_shared_bytes", "records_written",
                 "device_records", "status", "untraced", "trace"]]
    for launch, (function, (demangled, pitch)) in enumerate(KERNELS.items()):
        store = next(o for f, o, s, *_ in rows if f == function and s.startswith("STS"))
        load = next(o for f, o, s, *_ in rows if f == function and s.startswith("LDS"))
        lines = ["# " + demangled + ": one block of 32x32 threads (tests/data/lineinfo/make_capture.py)", "warp 32"]
        for y in range(32):
            lines.append(trace_line(f"{function}+{store:#x}", "st", 4, [1024 + 4 * (pitch * y + x) for x in range(32)]))
        for y in range(32):
            lines.append(trace_line(f"{function}+{load:#x}", "ld", 4, [1024 + 4 * (pitch * x + y) for x in range(32)]))
        trace = f"launch-{launch}.trace"
        (OUT / trace).write_text("\n".join(lines) + "\n")
        launches.append([launch, function, demangled, "1x1x1", "32x32x1", "", 64, 64, "captured", "", trace])
    with open(OUT / "launches.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(launches)


if __name__ == "__main__":
    main()
