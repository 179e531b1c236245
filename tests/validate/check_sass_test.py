#!/usr/bin/env python3
"""validate/sm90/probes/check_sass.py on the microbench's kernels
(validate/sm90/microbench.cu: one_instruction<Width, Store, Space>): each
space wants exactly one access of its own form and width, LDS/STS for the
shared window, LD.E/ST.E through a generic pointer, .STRONG.SYS when
volatile, .STRONG.GPU when relaxed; the kernel's address load (LDG) and
result store (STG) are not the access. Wrong forms, widths and strengths fail."""
import os
import sys
import tempfile

from repo_root import ROOT  # noqa: F401  (puts the repository root on sys.path)

from validate.sm90.probes.check_sass import check_microbench, read_sass  # noqa: E402


def kernel(width, store, space, access):
    name = f"_Z15one_instructionILi{width}ELb{int(store)}ELi{space}EEvPKjjPj"
    body = ["LDG.E R2, desc[UR6][R2.64]", access] + ([] if store else ["STG.E desc[UR6][R4.64], R7"])
    lines = [f"\t\tFunction : {name}"]
    lines += [f"        /*{16 * i:04x}*/                   {s} ;  /* 0x0 */" for i, s in enumerate(body)]
    return "\n".join(lines)


CASES = [  # (width, store, space, the access in the SASS, expected OK)
    (4, False, 0, "LDS R7, [R2+UR4]", True),
    (8, True, 0, "STS.64 [R2+UR4], R6", True),
    (16, False, 1, "LD.E.128 R8, desc[UR6][R6.64]", True),
    (1, True, 2, "ST.E.U8.STRONG.SYS desc[UR6][R4.64], R7", True),
    (2, False, 3, "LD.E.U16.STRONG.GPU R7, desc[UR6][R6.64]", True),
    (4, False, 1, "LDS R7, [R2+UR4]", False),                     # the shared form where a generic one is meant
    (4, False, 0, "LD.E R7, desc[UR6][R6.64]", False),            # and the other way round
    (8, False, 1, "LD.E.64.STRONG.SYS R7, desc[UR6][R6.64]", False),  # volatile where weak is meant
    (8, True, 3, "ST.E.64.STRONG.SYS desc[UR6][R4.64], R6", False),   # .SYS where .GPU is meant
    (16, False, 2, "LD.E.64.STRONG.SYS R7, desc[UR6][R6.64]", False),  # a narrower access
]


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (width, store, space, access, want) in enumerate(CASES):
            path = os.path.join(tmp, f"{i}.sass")
            open(path, "w").write(kernel(width, store, space, access) + "\n")
            results = check_microbench(read_sass(path))
            if len(results) != 1 or results[0][1] != want:
                failures.append(f"case {i} ({access}): {results}")
    for f in failures:
        print("FAIL:", f)
    print("check_sass:", "failed" if failures else f"passed ({len(CASES)} kernels)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
