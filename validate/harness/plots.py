#!/usr/bin/env python3
"""Plots from a results folder's committed CSVs (needs matplotlib; on Debian
`apt-get install python3-matplotlib`, then run with /usr/bin/python3):

  plots.py RESULTS_DIR            writes RESULTS_DIR/plots/*.png and *.svg, prints the headlines

(a) merge_sort_throughput.*  SPAA 2025 Figures 5/6 style: keys per microsecond
    against n (log scale) for cub::DeviceMergeSort, the CUB-style baseline and
    CF-Merge (sim/algorithms/merge_sort/merge_sort.hpp), random and worst-case inputs, one panel per
    shape (u, E); merge_sort.timing.csv.
(b) time_vs_conflicts.*  for every program with both <p>.timing.csv and
    <p>.predicted.csv: measured time per item (timing run) against the bank
    model's predicted conflicts (ld + st wavefronts - ideal, sm90 preset) per
    item (predict run, a smaller input of the same case). For merge_sort both
    are per key and per merge stage (tile kernel + global passes), time at the
    largest n. Points are matched by case with the size parameters removed.
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SIZE_KEYS = {"Q", "blocks", "n", "stage", "run"}



def save(fig, out, stem):
    """Write the figure as PNG and SVG under out, close it, return the paths."""
    fig.tight_layout()
    names = []
    for ext in ("png", "svg"):
        name = os.path.join(out, f"{stem}.{ext}")
        fig.savefig(name, dpi=120)
        names.append(name)
    plt.close(fig)
    return names

def split_case(case):
    kernel, variant, inp, params = case.split("/")
    p = dict(x.split("=") for x in params.split(";"))
    return kernel, variant, inp, p


def shape_key(kernel, variant, inp, p):
    rest = ";".join(f"{k}={v}" for k, v in sorted(p.items()) if k not in SIZE_KEYS)
    return (kernel, variant, inp, rest)


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def merge_sort_stages(n, u, E):
    return 1 + int(round(math.log2(n / (u * E))))


def predicted_items(program, row, p):
    """Items the predict run processed (per stage for merge_sort)."""
    blocks, threads = int(row["blocks"]), int(row["threads"])
    if program == "pbs":
        return int(p["Q"])
    if program == "transpose":
        return blocks * threads
    if program == "aho_corasick":
        return blocks * threads * int(p["C"])
    if program == "pairwise_merge":
        return blocks * int(p["u"]) * int(p["E"])
    if program == "merge_sort":
        return int(p["n"])
    return None


def throughput_plot(d, out):
    path = os.path.join(d, "merge_sort.timing.csv")
    if not os.path.exists(path):
        return []
    series = defaultdict(list)  # (shape, variant, input) -> [(n, keys/us)]
    for r in read(path):
        kernel, variant, inp, p = split_case(r["case"])
        shape = (int(p["u"]), int(p["E"]))
        n, ms = int(p["n"]), float(r["median_ms"])
        series[(shape, variant, inp)].append((n, n / (ms * 1e3)))
    shapes = sorted({k[0] for k in series}, key=lambda s: (-s[0], s[1]))
    style = {"cub": ("tab:red", "cub::DeviceMergeSort (u=256, E=17)"), "baseline": ("tab:orange", "CUB-style baseline"),
             "cf": ("tab:blue", "CF-Merge"), "baseline-r64": ("tab:brown", "baseline, 64 regs"),
             "cf-r64": ("tab:cyan", "CF-Merge, 64 regs")}
    fig, axes = plt.subplots(1, len(shapes), figsize=(6 * len(shapes), 4.5), squeeze=False)
    for ax, shape in zip(axes[0], shapes):
        for variant, (color, label) in style.items():
            for inp, ls in (("random", ":"), ("worst", "--")):
                pts = sorted(series.get((shape, variant, inp), []))
                if pts:
                    ax.plot([x for x, _ in pts], [y for _, y in pts], ls, marker="o", ms=3, color=color,
                            label=f"{label}, {inp}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (keys)")
        ax.set_ylabel("keys per microsecond")
        ax.set_title(f"E = {shape[1]}, u = {shape[0]} (H100)")
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Pairwise merge sort, SPAA 2025 Fig. 5/6 style: dotted random, dashed worst-case input")
    return save(fig, out, "merge_sort_throughput")


def headlines(d):
    path = os.path.join(d, "merge_sort.timing.csv")
    if not os.path.exists(path):
        return
    t = {}
    for r in read(path):
        kernel, variant, inp, p = split_case(r["case"])
        t[(int(p["u"]), int(p["E"]), int(p["n"]), variant, inp)] = float(r["median_ms"])
    print("merge_sort headlines (time ratios; > 1 = slower):")
    for (u, E) in sorted({(k[0], k[1]) for k in t}, key=lambda s: (-s[0], s[1])):
        ns = sorted({k[2] for k in t if k[0] == u and k[1] == E})
        big = [n for n in ns if n >= 2 ** 22 * E] or ns

        def ratio(v1, i1, v2, i2, sel):
            vals = [t[(u, E, n, v1, i1)] / t[(u, E, n, v2, i2)] for n in sel
                    if (u, E, n, v1, i1) in t and (u, E, n, v2, i2) in t]
            return (min(vals), sum(vals) / len(vals), max(vals)) if vals else None

        for label, args in (("CUB worst/random", ("cub", "worst", "cub", "random")),
                            ("baseline worst/random", ("baseline", "worst", "baseline", "random")),
                            ("CF-Merge worst/random", ("cf", "worst", "cf", "random")),
                            ("CF-Merge/CUB time, random", ("cf", "random", "cub", "random")),
                            ("CF-Merge/baseline time, worst", ("cf", "worst", "baseline", "worst")),
                            ("CF-Merge/baseline time, random", ("cf", "random", "baseline", "random")),
                            ("CF-r64/baseline-r64 time, worst", ("cf-r64", "worst", "baseline-r64", "worst"))):
            r = ratio(*args, big)
            if r:
                print(f"  u={u} E={E} n >= 2^22*E: {label}: min {r[0]:.2f} mean {r[1]:.2f} max {r[2]:.2f}")


def conflicts_plot(d, out):
    programs = [p for p in ("pbs", "merge_sort", "aho_corasick", "transpose", "pairwise_merge")
                if os.path.exists(os.path.join(d, f"{p}.timing.csv"))
                and os.path.exists(os.path.join(d, f"{p}.predicted.csv"))]
    if not programs:
        return []
    cols = min(3, len(programs))
    rows = (len(programs) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 5 * rows), squeeze=False)
    flat = [a for row in axes for a in row]
    for ax in flat[len(programs):]:
        ax.axis("off")
    for ax, prog in zip(flat, programs):
        pred = defaultdict(lambda: [0, 0, 0])  # key -> [conflicts, items, stages]
        for r in read(os.path.join(d, f"{prog}.predicted.csv")):
            kernel, variant, inp, p = split_case(r["case"])
            key = shape_key(kernel, variant, inp, p)
            acc = pred[key]
            acc[0] += int(r["ld_conflicts"]) + int(r["st_conflicts"])
            acc[1] = predicted_items(prog, r, p)
            acc[2] += 1
        timed = {}
        for r in read(os.path.join(d, f"{prog}.timing.csv")):
            kernel, variant, inp, p = split_case(r["case"])
            key = shape_key(kernel, variant, inp, p)
            items, ms = int(r["items"]), float(r["median_ms"])
            per = 1
            if prog == "merge_sort":
                per = merge_sort_stages(items, int(p["u"]), int(p["E"]))
            if key not in timed or items > timed[key][0]:  # the largest timed size
                timed[key] = (items, ms * 1e6 / (items * per))
        xs, ys, labels = [], [], []
        for key, (conf, items, stages) in pred.items():
            if key in timed and items:
                per_stage = stages if prog == "merge_sort" else 1
                xs.append(conf / (items * per_stage))
                ys.append(timed[key][1])
                labels.append(f"{key[1]}/{key[2]}" + (f" {key[3]}" if key[3] else ""))
        variants = sorted({l.split("/")[0] for l in labels})
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for i, v in enumerate(variants):
            sel = [(x, y) for x, y, l in zip(xs, ys, labels) if l.split("/")[0] == v]
            ax.scatter([x for x, _ in sel], [y for _, y in sel], s=16, color=colors[i % len(colors)], label=v)
        for x, y, l in zip(xs, ys, labels):
            ax.annotate(l.split("/", 1)[1], (x, y), fontsize=5, alpha=0.7)
        ax.legend(fontsize=7)
        ax.set_xlabel("modelled bank conflicts per item" + (" per stage" if prog == "merge_sort" else ""))
        ax.set_ylabel("measured ns per item" + (" per stage" if prog == "merge_sort" else ""))
        ax.set_title(f"{prog} ({len(xs)} cases)")
        ax.grid(True, alpha=0.3)
    fig.suptitle("Time against modelled conflicts (sm90 preset), H100")
    return save(fig, out, "time_vs_conflicts")


def main(d):
    out = os.path.join(d, "plots")
    os.makedirs(out, exist_ok=True)
    for name in throughput_plot(d, out) + conflicts_plot(d, out):
        print("wrote", name)
    headlines(d)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
