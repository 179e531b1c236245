#!/usr/bin/env python3
"""Shared-memory wavefronts per SASS instruction of the suggestion kernels.

  ncu_shared.py --sass SOURCE.csv --disasm GI.txt [--csv OUT.csv]

SOURCE.csv: `ncu --section SourceCounters` exported with `ncu -i R --page
source --csv --print-source sass`; GI.txt: `nvdisasm -gi` of the program's
cubin (for each instruction's source line). Prints, per launch and per shared
instruction (LDS, STS, LDSM, STSM, LDGSTS) that ran: its offset, SASS, source
line, executions, "L1 Wavefronts Shared", the ideal, and wavefronts per
execution (per warp instruction).
"""
import argparse
import csv
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv, sass_text  # noqa: E402
from validate.harness import per_instruction as pi  # noqa: E402

SHARED = ("LDS", "STS", "LDSM", "STSM", "LDGSTS")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sass", required=True)
    ap.add_argument("--disasm", required=True)
    ap.add_argument("--csv")
    a = ap.parse_args()
    functions = pi.read_disassembly(a.disasm)
    # no launch list here: copies are dropped only where every block is doubled (ncu_csv.py)
    launches = ncu_csv.drop_copies(ncu_csv.read_blocks(a.sass))
    out = []
    for index, (kernel, rows) in enumerate(launches):
        # the function of that name when its instructions are the launch's (variants of one
        # template can compile to the same opcode sequence, so matching by SASS alone is ambiguous)
        named = functions.get(kernel)
        same = named is not None and len(named) == len(rows) and all(
            pi.opcode(pi.normal(r.get("Source", ""))) == pi.opcode(b) for r, (_, b, _) in zip(rows, named))
        fn = kernel if same else pi.match_function(rows, functions)
        chains = functions[fn] if fn else [None] * len(rows)
        print(f"launch {index}: {kernel}" + ("" if fn else " (no unique function in the disassembly: no lines)"))
        for row, info in zip(rows, chains):
            sass = pi.normal(row.get("Source", ""))
            op = sass_text.mnemonic(sass)
            executed = pi.number(row.get("Instructions Executed"))
            if not op.split(".")[0] in SHARED or executed == 0:
                continue
            waves = pi.number(row.get("L1 Wavefronts Shared"))
            ideal = pi.number(row.get("L1 Wavefronts Shared Ideal"))
            line = f"{os.path.basename(info[2][0][0])}:{info[2][0][1]}" if info and info[2] else "?"
            per = waves / executed
            print(f"  {row.get('Address', '?'):>8}  {sass[:44]:44}  {line:24} executed {executed:9.0f}  "
                  f"wavefronts {waves:11.0f}  ideal {ideal:11.0f}  per instruction {per:7.3f}")
            out.append([index, kernel, row.get("Address", ""), sass, line, int(executed), int(waves), int(ideal),
                        f"{per:.4f}"])
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["launch", "kernel", "address", "sass", "line", "executed", "wavefronts", "ideal",
                        "wavefronts_per_execution"])
            w.writerows(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
