#!/usr/bin/env python3
"""Throughput against n from kernel.cf_sort_bench's time CSV (docs/cf-merge.md).

  plot.py time.csv OUT.png [OUT.svg]

One panel per key size and keys/pairs: CUB's merge sort, CF-Merge and CUB's
radix sort, solid on random input, dashed on CUB's worst case (worst-cub),
dotted on ours (worst-cf); keys per microsecond against n. Needs matplotlib
(Debian: python3-matplotlib).
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"random": "-", "worst-cub": "--", "worst-cf": ":"}
COLOR = {"cub-merge": "tab:blue", "cf-merge": "tab:red", "cub-radix": "tab:gray"}


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    series = defaultdict(list)  # (key_bytes, pairs, algorithm, input) -> [(n, keys/us)]
    for r in csv.DictReader(open(argv[0], newline="")):
        series[(int(r["key_bytes"]), r["pairs"] == "1", r["algorithm"], r["input"])].append(
            (int(r["n"]), float(r["keys_per_us"])))
    panels = sorted({(k, p) for (k, p, _, _) in series})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), squeeze=False)
    for ax, (kb, pairs) in zip(axes[0], panels):
        for (k, p, algo, inp), pts in sorted(series.items()):
            if (k, p) != (kb, pairs) or algo not in COLOR or inp not in STYLE:
                continue
            pts.sort()
            ax.plot([n for n, _ in pts], [v for _, v in pts], STYLE[inp], color=COLOR[algo], marker=".",
                    label=f"{algo} {inp}")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{kb}-byte keys" + (" + values" if pairs else ""))
        ax.set_xlabel("n (keys)")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("keys per microsecond")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    for path in argv[1:]:
        fig.savefig(path, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
