#!/usr/bin/env python3
"""Turns a per-instruction run of the LDS/STS microbench (microbench.cu) on one
probe set into that set's measured file (validate/README.md, "A probe set"):

    python3 validate/sm90/collect_set.py NAME SASS_CSV "GPU, driver, CUDA, date" "command" [SM90_DIR]

SASS_CSV is Nsight Compute's source page of the microbench run on
SM90_DIR/cases/NAME.trace (default SM90_DIR: this folder), one launch per
case in the trace's order, as `validate/gpu_batch.sh microbench:NAME` exports
it (NAME.sass.csv). Writes SM90_DIR/measured/NAME.csv: comment lines saying
what was measured, on which GPU and by which command, then `site,wavefronts,sass`,
one row per case: the "L1 Wavefronts Shared" of the case's one LDS or STS
of its width. A launch without exactly one such instruction executed once,
or a page with another number of launches than the trace has cases, is an
error naming the case (exit 2), and so is a malformed trace (naming its line); nothing is
written then. Standard library and the project's readers of traces and ncu pages (the Python module)."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.probes.ncu_pages import instructions, read_source  # noqa: E402
from validate.sm90.case_format import records_of  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SUFFIX = {1: ".U8", 2: ".U16", 4: "", 8: ".64", 16: ".128"}  # the SASS width suffix of LDS/STS


class Refused(Exception):
    pass


def cases(trace):
    """[(site, op, width)] of a text trace's instruction lines, in order."""
    out = []
    for r in records_of(trace):
        if r["op"] not in ("ld", "st") or r["width"] not in SUFFIX:
            raise Refused(f"{trace}:{r['line']}: {r['op']} {r['width']}: the microbench runs ld and st of 1, 2, 4, 8 "
                          "or 16 bytes")
        out.append((r["site"], r["op"], r["width"]))
    return out


def rows(name, sass_csv, sm90):
    """The CSV rows `site,wavefronts,sass` of every case, from the source page."""
    want = cases(os.path.join(sm90, "cases", name + ".trace"))
    launches = read_source(sass_csv)
    if len(launches) != len(want):
        raise Refused(f"{sass_csv}: {len(launches)} launches, {name}.trace has {len(want)} cases")
    out = []
    for (site, op, width), (_, page) in zip(want, launches):
        mnemonic = ("LDS" if op == "ld" else "STS") + SUFFIX[width]
        found = [d for d in instructions(page) if d["mnemonic"] == mnemonic and not d["predicate"]]
        if len(found) != 1 or found[0]["inst_executed"] != 1:
            raise Refused(f"{site}: {len(found)} {mnemonic} in its launch, expected one executed once")
        out.append(f"{site},{found[0]['wavefronts']},{mnemonic}")
    return out


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    name, sass_csv, gpu, command = argv[1:5]
    sm90 = argv[5] if len(argv) == 6 else HERE
    try:
        body = rows(name, sass_csv, sm90)
    except (Refused, OSError, ValueError) as e:  # ValueError: a malformed trace, named file:line by the reader
        print(f"collect_set: {e}", file=sys.stderr)
        return 2
    out = os.path.join(sm90, "measured", name + ".csv")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# Nsight Compute per-instruction \"L1 Wavefronts Shared\" of the one LDS/STS of each case of "
                f"cases/{name}.trace (validate/sm90/microbench.cu)\n# {gpu}\n# command: {command}\n")
        f.write("site,wavefronts,sass\n" + "\n".join(body) + "\n")
    os.replace(tmp, out)
    print(f"{len(body)} cases -> measured/{name}.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
