#!/usr/bin/env python3
"""What conflicts cost in time, predicted against measured (Karsin 2015
on the H100). For every kernel with a conflicting and a conflict-free
variant timed on the H100, the model's shared-memory time is

    T = wavefronts / (SMs x clock x 1 wavefront per cycle)

(docs/bank-model.md, "Time": each SM's shared-memory pipe serves one
wavefront per cycle, measured), and the predicted difference between two
variants, T_a - T_b, is set against their measured median times. The ratio
is measured / predicted difference (both negative: the variant with more
conflicts has fewer wavefronts and is faster, and the ratio says by how much).
The summary states, per kernel and pair of variants, the range of the ratio
and how many pairs lie in the band [0.5, 1] (the measured difference is
between half and all of the predicted), and how many in the whole table.

  time_model.py RESULTS_DIR [--sms 132] [--clock-ghz 1.98] [--csv OUT] [--markdown OUT]

The committed table (validate/results/h100-2026-11-23/time-model/) is
`time_model.py validate/results/h100-2026-11-22 --csv ... --markdown ...`.

RESULTS_DIR holds PROGRAM.predicted.csv (the model's counts for a few blocks,
from `kernel.PROGRAM --mode predict`) and PROGRAM.timing.csv (CUDA-event
medians for many blocks). Counts scale with the work (blocks, or PBS's queries): the
inputs are generated per block or per query (worst cases exactly, random
inputs from the same distribution). Only the standard library is used.
"""
import argparse
import csv
import os
import re
from collections import defaultdict

SIZE = re.compile(r";?(Q|blocks|n)=\d+")
PROGRAMS = ("transpose", "pbs", "aho_corasick", "pairwise_merge", "sigmod")
BAND = (0.5, 1.0)


def key_of(case):
    """(program/variant/input, parameters without the problem size)."""
    parts = case.split("/")
    return "/".join(parts[:3]), SIZE.sub("", parts[3]).strip(";")


def work(case, blocks):
    """How much a launch does: its queries (PBS runs a fixed grid over Q
    queries), else its blocks (one tile each)."""
    q = re.search(r"Q=(\d+)", case)
    return int(q.group(1)) if q else int(blocks)


def load(path):
    return list(csv.DictReader(open(path, newline=""))) if os.path.exists(path) else []


def rows(results, sms, clock):
    out = []
    for program in PROGRAMS:
        predicted = {key_of(r["case"]): r for r in load(os.path.join(results, f"{program}.predicted.csv"))}
        for t in load(os.path.join(results, f"{program}.timing.csv")):
            k = key_of(t["case"])
            p = predicted.get(k)
            if not p:
                continue
            scale = work(t["case"], t["blocks"]) / work(p["case"], p["blocks"])
            wavefronts = (int(p["ld_wavefronts"]) + int(p["st_wavefronts"])) * scale
            conflicts = (int(p["ld_conflicts"]) + int(p["st_conflicts"])) * scale
            out.append({"program": program, "case": t["case"], "group": (k[0].split("/")[0], k[0].split("/")[2], k[1]),
                        "variant": k[0].split("/")[1], "wavefronts": wavefronts, "conflicts": conflicts,
                        "smem_ms": wavefronts / (sms * clock * 1e9) * 1e3,
                        "conflict_ms": conflicts / (sms * clock * 1e9) * 1e3, "measured_ms": float(t["median_ms"])})
    return out


def pairs(table):
    """Each variant against the group's variant with the fewest conflicts."""
    groups = defaultdict(list)
    for r in table:
        groups[r["group"]].append(r)
    for members in groups.values():
        base = min(members, key=lambda r: r["conflicts"])
        for r in members:
            if r is not base and r["conflicts"] > base["conflicts"]:
                yield r, base


def ratio(measured, predicted):
    return measured / predicted if predicted != 0 else float("nan")


def summary(out):
    """[(kernel, variant, base, pairs, pairs in BAND, lowest ratio, highest ratio)] in
    table order, and the line that states the whole table."""
    groups = {}
    for r in out:
        groups.setdefault((r["kernel"], r["variant"], r["base"]), []).append(float(r["ratio"]))
    rows = []
    for (kernel, variant, base), ratios in groups.items():
        inside = sum(BAND[0] <= x <= BAND[1] for x in ratios)
        rows.append((kernel, variant, base, len(ratios), inside, min(ratios), max(ratios)))
    inside = sum(g[4] for g in rows)
    line = f"{inside} of {len(out)} pairs have a ratio in [{BAND[0]}, {BAND[1]}]"
    return rows, line


def summary_markdown(out):
    rows, line = summary(out)
    text = ["", f"Summary: {line}.", "",
            "| kernel | variant vs base | pairs | ratio in [0.5, 1] | ratio range |", "|---|---|---:|---:|---|"]
    for kernel, variant, base, n, inside, lo, hi in rows:
        text.append(f"| {kernel} | {variant} vs {base} | {n} | {inside} | {lo:.2f} to {hi:.2f} |")
    return "\n".join(text) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--clock-ghz", type=float, default=1.98)
    ap.add_argument("--csv")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    table = rows(a.results, a.sms, a.clock_ghz)
    lines = ["| kernel | input | parameters | variant vs base | conflicts (M) | predicted extra ms | measured extra ms | ratio |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    out = []
    for r, b in pairs(table):
        pred = r["smem_ms"] - b["smem_ms"]
        meas = r["measured_ms"] - b["measured_ms"]
        out.append({"kernel": r["group"][0], "input": r["group"][1], "parameters": r["group"][2],
                    "variant": r["variant"], "base": b["variant"], "conflicts": r["conflicts"] - b["conflicts"],
                    "predicted_extra_ms": pred, "measured_extra_ms": meas, "ratio": ratio(meas, pred)})
        lines.append(f"| {r['group'][0]} | {r['group'][1]} | {r['group'][2]} | {r['variant']} vs {b['variant']} | "
                     f"{(r['conflicts'] - b['conflicts']) / 1e6:.2f} | {pred:.4f} | {meas:.4f} | "
                     f"{ratio(meas, pred):.2f} |")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(out[0].keys()) if out else ["kernel"])
            w.writeheader()
            w.writerows(out)
    text = "\n".join(lines) + "\n" + (summary_markdown(out) if out else "")
    if a.markdown:
        open(a.markdown, "w").write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
