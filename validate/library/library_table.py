"""The library corpus table (README, docs/capture.md) from committed
`bankcheck compare --csv` outputs: per program, the shared-memory rows by
verdict, and the LDGSTS and HGMMA rows by verdict.

    python3 validate/library/library_table.py validate/results/h100-2026-11-27/library
    python3 validate/library/library_table.py --hopper FOLDER...

--hopper: the wgmma and TMA rows alone, per program: HGMMA rows by
verdict, how many had both descriptors recovered from the SASS and how many
read a swizzle no tensor map of the launch writes, and TMA rows by verdict.
"""
import collections
import csv
import glob
import os
import re
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.sass_text import mnemonic  # noqa: E402

VERDICTS = ("yes", "no", "not modelled", "not traced", "executions differ")


def verdict(text):
    for v in sorted(VERDICTS, key=len, reverse=True):  # "no" is a prefix of "not ..."
        if text.startswith(v):
            return v
    raise ValueError(f"unknown verdict {text!r}")


def main(folder):
    print("| program | rows | yes | no | not modelled | not traced | executions differ | LDGSTS yes / not modelled / no | HGMMA yes |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    total = collections.Counter()
    for path in sorted(glob.glob(os.path.join(folder, "*.compare.csv"))):
        name = os.path.basename(path).replace(".compare.csv", "")
        c, ld, mma = collections.Counter(), collections.Counter(), collections.Counter()
        for r in csv.DictReader(open(path, newline="")):
            v = verdict(r["equal"])
            c[v] += 1
            m = mnemonic(r["sass"])
            if m.startswith("LDGSTS"):
                ld[v] += 1
            if re.match(r"[A-Z]GMMA", m):
                mma[v] += 1
        total.update(c)
        total["ldgsts " + "yes"] += ld["yes"]
        total["ldgsts not modelled"] += ld["not modelled"]
        total["ldgsts no"] += ld["no"]
        total["mma yes"] += mma["yes"]
        total["mma other"] += sum(mma.values()) - mma["yes"]
        print(f"| {name} | {sum(c.values())} | " + " | ".join(str(c[v]) for v in VERDICTS) +
              f" | {ld['yes']} / {ld['not modelled']} / {ld['no']} | {mma['yes']} of {sum(mma.values())} |")
    rows = sum(total[v] for v in VERDICTS)
    print(f"| all | {rows} | " + " | ".join(str(total[v]) for v in VERDICTS) +
          f" | {total['ldgsts yes']} / {total['ldgsts not modelled']} / {total['ldgsts no']} | "
          f"{total['mma yes']} of {total['mma yes'] + total['mma other']} |")


def hopper(folders):
    print("| program | kernels | HGMMA rows | yes | descriptors recovered | swizzle not the maps' | TMA rows | yes | not modelled | not traced |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    total = collections.Counter()
    for path in sorted(p for f in folders for p in glob.glob(os.path.join(f, "*.compare.csv"))):
        name = os.path.basename(path).replace(".compare.csv", "")
        c, kernels = collections.Counter(), set()
        for r in csv.DictReader(open(path, newline="")):
            m, v, detail = mnemonic(r["sass"]), verdict(r["equal"]), r.get("detail") or ""
            if re.match(r"[A-Z]GMMA", m):
                kernels.add(r["kernel"])
                c["mma"] += 1
                c["mma yes"] += v == "yes"
                c["recovered"] += detail.startswith("descriptors:") and "not recovered" not in detail
                c["mismatch"] += "no tensor map's" in detail
            elif m.startswith("UTMA") or m.startswith("UBLK"):
                kernels.add(r["kernel"])
                c["tma"] += 1
                c["tma " + v] += 1
        if not c:
            continue
        c["kernels"] = len(kernels)
        total.update(c)
        print(hopper_row(name, c))
    print(hopper_row("all", total))


def hopper_row(name, c):
    return (f"| {name} | {c['kernels']} | {c['mma']} | {c['mma yes']} | {c['recovered']} | {c['mismatch']} | {c['tma']} | "
            f"{c['tma yes']} | {c['tma not modelled']} | {c['tma not traced']} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--hopper"]:
        hopper(sys.argv[2:])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "validate/results/h100-2026-11-27/library")
